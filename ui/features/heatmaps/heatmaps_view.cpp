#include "widgets/code_font.h"
#include "widgets/lesson_target.h"
#include "features/heatmaps/heatmaps_view.h"

#include "widgets/flow_layout.h"

#include "render/head_colors.h"
#include "features/heatmaps/heatmap_pictures.h"
#include "features/heatmaps/heatmaps_state.h"
#include "widgets/heatmap_widget.h"
#include "widgets/refresh_when_shown.h"
#include "widgets/stack_when_narrow.h"
#include "features/trace_banner.h"
#include "widgets/stale_trace_banner.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QFontInfo>
#include <QApplication>
#include <QBoxLayout>
#include <QButtonGroup>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace attnlab::ui {

namespace {

// From here on (256 × 256 cells per head) the twelve pictures are rendered off the GUI thread: at
// 1,024 tokens they took ~100 ms there, a visible freeze after every edit.
constexpr std::int64_t kImagesOffThreadCells = 256 * 256;

} // namespace

HeatmapsView::HeatmapsView(HeatmapsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    // Wraps onto a second row rather than widening the page: in projector type one row of it was wider than a
    // 1280-pixel screen, and the page scrolled the selected head's legend off its right edge.
    auto* top = new FlowLayout(nullptr, 8);
    const auto pair = [](QLabel* label, QWidget* box) {
        auto* w = new QWidget;
        auto* row = new QHBoxLayout(w);
        row->setContentsMargins(12, 0, 0, 0);
        row->addWidget(label);
        row->addWidget(box);
        return w;
    };
    kinds_ = new QButtonGroup(this);
    for (AttentionMatrix k :
         {AttentionMatrix::Scores, AttentionMatrix::MaskedScores, AttentionMatrix::Weights, AttentionMatrix::Dropout}) {
        auto* b = new QPushButton(heatmapKindTitle(k));
        b->setCheckable(true);
        nameTarget(b, QStringLiteral("heatmap-kind-%1").arg(static_cast<int>(k)));
        b->setToolTip(tr("Show every head's %1").arg(heatmapKindTitle(k)));
        kinds_->addButton(b, static_cast<int>(k));
        top->addWidget(b);
    }
    kinds_->setExclusive(true);
    auto* batchLabel = new QLabel(tr("sequence in batch:"));
    batch_ = new QSpinBox;
    batchLabel->setBuddy(batch_);
    batch_->setToolTip(tr("Which sequence of the input batch the heatmaps show."));
    top->addWidget(pair(batchLabel, batch_));
    auto* scaleLabel = new QLabel(tr("colour scale:"));
    scaleChoice_ = new QComboBox;
    nameTarget(scaleChoice_, QStringLiteral("heatmap-scale"));
    scaleChoice_->setAccessibleName(tr("Colour scale"));
    scaleLabel->setBuddy(scaleChoice_);
    for (HeatmapScaleMode m :
         {HeatmapScaleMode::Auto, HeatmapScaleMode::Linear, HeatmapScaleMode::Largest, HeatmapScaleMode::Log})
        scaleChoice_->addItem(heatmapScaleModeTitle(m), static_cast<int>(m));
    scaleChoice_->setToolTip(tr("auto: linear 0–1 up to %1 tokens, logarithmic above, where each weight is about "
                                "1/tokens and a linear scale shows only darkness. Scores are always linear around 0.")
                                 .arg(kAutoLogTokens));
    scaleChoice_->setCurrentIndex(scaleChoice_->findData(static_cast<int>(state_->view()->heatmapScale())));
    top->addWidget(pair(scaleLabel, scaleChoice_));

    heading_ = new QLabel;
    heading_->setWordWrap(true);
    hover_ = new QLabel(tr("Hover over a cell for its query, key and exact value."));
    nameTarget(hover_, QStringLiteral("hover-readout"));
    hover_->setFont(codeFont(1.0, 17));

    grid_ = new QWidget;
    gridLayout_ = new QGridLayout(grid_);
    gridLayout_->setSpacing(6);
    gridLayout_->setContentsMargins(0, 0, 0, 0);
    large_ = new HeatmapWidget;
    // One keyboard cell for every head's matrix, the Session's: moving in one head moves it in all.
    connect(large_, &HeatmapWidget::currentCellChanged, state_, [this](int row, int col) {
        state_->view()->setHeatmapCell({row, col});
    });
    nameTarget(large_, QStringLiteral("selected-heatmap"));
    connect(large_, &HeatmapWidget::hovered, hover_,
            [this](const HeatmapHit& cell) { hover_->setText(describeHeatmapCell(cell)); });

    auto* body = body_ = new QBoxLayout(QBoxLayout::LeftToRight);
    // Room for the heads even on a 720-pixel projector under the token chips: the page scrolls to them
    // (the page-scroll area) rather than drawing each as a stamp.
    grid_->setMinimumHeight(QFontInfo(font()).pixelSize() * 12);
    body->addWidget(grid_, 5);
    body->addWidget(large_, 7);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(traceBanner(state_, {grid_, large_, heading_}));
    layout->addLayout(top);
    layout->addWidget(heading_);
    layout->addLayout(body, 1);
    layout->addWidget(hover_);

    connect(kinds_, &QButtonGroup::idClicked, this,
            [this](int id) { state_->view()->setHeatmapKind(static_cast<AttentionMatrix>(id)); });
    connect(batch_, &QSpinBox::valueChanged, this, [this](int v) { state_->view()->setBatchIndex(v); });
    refresh_ = new RefreshWhenShown(this, [this] { rebuild(); });
    connect(scaleChoice_, &QComboBox::currentIndexChanged, state_, [this] {
        state_->view()->setHeatmapScale(static_cast<HeatmapScaleMode>(scaleChoice_->currentData().toInt()));
    });
    connect(state_->pictures(), &HeatmapPictures::ready, this, [this] {
        const std::vector<QImage>& images = state_->pictures()->images();
        if (waiting_.empty() || images.size() != waiting_.size())
            return; // the pictures of a request this page has since replaced
        for (std::size_t i = 0; i < waiting_.size(); ++i)
            waiting_[i].setImage(images[i]);
        HeatmapPainter large = std::move(waiting_.back());
        waiting_.pop_back();
        showPainters(std::exchange(waiting_, {}), std::move(large));
    });
    connect(state_, &HeatmapsState::changed, this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::View) {
            const QSignalBlocker block(scaleChoice_);
            scaleChoice_->setCurrentIndex(scaleChoice_->findData(static_cast<int>(state_->view()->heatmapScale())));
        }
        if (flags & (ChangeFlag::Trace | ChangeFlag::View | ChangeFlag::Head))
            refresh_->request();
        if (flags & ChangeFlag::Cell)
            showSessionCell();
    });
    rebuild();
}

void HeatmapsView::rebuild()
{
    const auto trace = state_->trace()->trace();
    if (!trace)
        return;
    // Fall back to the weights when this module has no such stage (no mask, no dropout).
    for (auto* b : kinds_->buttons())
        b->setEnabled(traceHasHeatmap(*trace, static_cast<AttentionMatrix>(kinds_->id(b))));
    AttentionMatrix kind = state_->view()->heatmapKind();
    if (!traceHasHeatmap(*trace, kind))
        kind = AttentionMatrix::Weights;
    kinds_->button(static_cast<int>(kind))->setChecked(true);
    {
        const QSignalBlocker block(batch_);
        batch_->setRange(0,
                         trace->config.is_batched() ? static_cast<int>(trace->stages.front().tensor.size(0)) - 1 : 0);
        batch_->setValue(state_->view()->batchIndex());
    }
    const int heads = state_->view()->headCount();
    const int batch = state_->view()->batchIndex();
    const int mode = static_cast<int>(state_->view()->heatmapScale());
    if (trace == shownTrace_ && static_cast<int>(kind) == shownKind_ && batch == shownBatch_ && mode == shownScale_) {
        updateSelection(true);
        return;
    }
    shownTrace_ = trace;
    shownKind_ = static_cast<int>(kind);
    shownBatch_ = batch;
    shownScale_ = mode;

    const ColorScale scale = heatmapScale(trace, kind, batch, static_cast<HeatmapScaleMode>(mode));
    const QStringList tokens = state_->trace()->tokenLabels();
    // A trained model's heads are told apart by what they do: four measures from each head's weights.
    const std::vector<HeadMeasures>& measures = state_->trace()->headMeasures(state_->view()->batchIndex());
    while (static_cast<int>(small_.size()) > heads) {
        delete small_.back();
        small_.pop_back();
    }
    std::vector<HeatmapPainter> painters;
    for (int h = 0; h < heads; ++h) {
        if (h >= static_cast<int>(small_.size())) {
            auto* w = new HeatmapWidget;
            nameTarget(w, QStringLiteral("head-heatmap-%1").arg(h));
            w->setCursor(Qt::PointingHandCursor);
            w->setAccessibleName(tr("Head %1").arg(h));
            w->setAccessibleDescription(tr("Head %1's attention matrix, queries as rows and keys as columns. Arrow "
                                           "keys move through its cells; Enter or Space enlarges it.")
                                            .arg(h));
            connect(w, &HeatmapWidget::clicked, this, [this, h] { state_->view()->setHead(h); });
            connect(w, &HeatmapWidget::currentCellChanged, state_, [this](int row, int col) {
                state_->view()->setHeatmapCell({row, col});
            });
            connect(w, &HeatmapWidget::hovered, hover_,
                    [this](const HeatmapHit& cell) { hover_->setText(describeHeatmapCell(cell)); });
            small_.push_back(w);
        }
        HeatmapStyle style;
        style.title = QStringLiteral("head %1").arg(h);
        style.accent = headColor(h, heads);
        style.axes = false;
        style.legend = false;
        style.fontPx = QFontInfo(font()).pixelSize(); // the window's type: a projector's grows it
        if (h < static_cast<int>(measures.size())) {
            const HeadMeasures& m = measures[static_cast<std::size_t>(h)];
            const auto measured = [&m](const QString& format) {
                return format.arg(m.distance, 0, 'f', 1)
                    .arg(m.entropy, 0, 'f', 2)
                    .arg(m.previous, 0, 'f', 2)
                    .arg(m.first, 0, 'f', 2);
            };
            style.footer = measured(tr("distance %1 · entropy %2\nprevious %3 · first %4"));
            style.footerShort = measured(tr("dist %1 · ent %2\nprev %3 · first %4"));
        }
        painters.emplace_back(heatmapSlice(trace, kind, h, batch), scale, tokens, style);
    }
    columns_ = 0;
    placeSmallMultiples(painters.empty() ? nullptr : &painters.front());
    const HeatmapSlice first = painters.empty() ? HeatmapSlice{} : painters.front().slice();
    if (static_cast<std::int64_t>(first.rows) * first.cols < kImagesOffThreadCells) {
        waiting_.clear();
        state_->pictures()->cancel(); // a picture still rendering for an older trace must not replace these
        showPainters(std::move(painters), largePainter(kind, scale));
        return;
    }
    // Big matrices: every picture is rendered by the Session's picture job at the size it will be drawn,
    // and the new painters replace the old ones only when all are ready, so the window keeps answering
    // and never shows some heads of the new trace beside heads of the old one. A newer edit overtakes this.
    painters.push_back(largePainter(kind, scale));
    std::vector<PictureRequest> pictures;
    for (std::size_t i = 0; i < painters.size(); ++i)
        pictures.push_back({painters[i].slice(), painters[i].scale(),
                            (i < small_.size() ? small_[i] : large_)->imageSize(painters[i])});
    waiting_ = std::move(painters);
    state_->pictures()->request(std::move(pictures));
}

HeatmapPainter HeatmapsView::largePainter(AttentionMatrix kind, const ColorScale& scale) const
{
    const int heads = state_->view()->headCount(), head = state_->view()->head();
    const HeatmapSlice slice = heatmapSlice(state_->trace()->trace(), kind, head, state_->view()->batchIndex());
    HeatmapStyle style;
    style.title = QStringLiteral("head %1 of %2 · %3 · %4 × %4 tokens")
                      .arg(head)
                      .arg(heads)
                      .arg(heatmapKindTitle(kind))
                      .arg(slice.rows);
    style.accent = headColor(head, heads);
    style.fontPx = slice.rows > 64 ? 13 : std::max(16, QApplication::font().pixelSize());
    large_->setAccessibleName(style.title);
    large_->setAccessibleDescription(tr("The selected head's attention matrix as a table: rows are the query tokens, "
                                        "columns the key tokens. Arrow keys move through its cells, Home and End "
                                        "to the ends of a row, Ctrl+Home and Ctrl+End to the corners."));
    return HeatmapPainter(slice, scale, state_->trace()->tokenLabels(), style);
}

void HeatmapsView::showPainters(std::vector<HeatmapPainter> painters, HeatmapPainter large)
{
    for (std::size_t h = 0; h < painters.size() && h < small_.size(); ++h)
        small_[h]->setHeatmap(std::move(painters[h]));
    large_->setHeatmap(std::move(large));
    showSessionCell();
    updateSelection(false);
}

void HeatmapsView::showSessionCell()
{
    const HeatmapCell cell = state_->view()->heatmapCell();
    for (HeatmapWidget* w : small_)
        w->showCell(cell.query, cell.key);
    large_->showCell(cell.query, cell.key);
}

void HeatmapsView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The selected head goes under the heads where the page is narrow (projector type beside the lessons
    // dock): beside them both were stamps, the heads' measures cut.
    stackWhenNarrow(body_, width(), QFontInfo(font()).pixelSize() * 48);
    placeSmallMultiples();
}

void HeatmapsView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        grid_->setMinimumHeight(QFontInfo(font()).pixelSize() * 12);
    if (event->type() == QEvent::FontChange && shownTrace_) { // the heads' labels are drawn in the type
        shownTrace_.reset();
        rebuild();
    }
}

void HeatmapsView::placeSmallMultiples(const HeatmapPainter* sample)
{
    // The column count that makes each (square) head's matrix as large as the grid's area allows, once its
    // title and its measures under it (four lines in projector type when narrow) have their room.
    const int n = static_cast<int>(small_.size());
    const double w = std::max(1, grid_->width()), h = std::max(1, grid_->height());
    const HeatmapPainter* head = sample ? sample : (small_.empty() ? nullptr : &small_.front()->heatmap());
    const double spacing = gridLayout_->spacing();
    int best = 1;
    double bestSide = 0;
    for (int cols = 1; cols <= std::max(1, n); ++cols) {
        const int rows = (n + cols - 1) / cols;
        const QRectF cell(0, 0, w / cols - spacing, h / rows - spacing);
        const double side = head ? head->layout(cell, font()).matrix.width() : std::min(w / cols, h / rows - 22);
        if (side > bestSide) {
            bestSide = side;
            best = cols;
        }
    }
    if (best == columns_)
        return;
    columns_ = best;
    for (auto* w : small_)
        gridLayout_->removeWidget(w);
    for (int i = 0; i < n; ++i) {
        gridLayout_->addWidget(small_[static_cast<std::size_t>(i)], i / best, i % best);
        small_[static_cast<std::size_t>(i)]->show(); // now, not at the layout's next queued pass
    }
}

void HeatmapsView::updateSelection(bool newHead)
{
    const int heads = state_->view()->headCount(), head = state_->view()->head();
    const auto kind = static_cast<AttentionMatrix>(shownKind_);
    for (int h = 0; h < static_cast<int>(small_.size()); ++h) {
        HeatmapPainter painter = small_[static_cast<std::size_t>(h)]->heatmap();
        painter.setSelected(h == head);
        small_[static_cast<std::size_t>(h)]->setHeatmap(painter);
    }
    if (newHead)
        large_->setHeatmap(largePainter(kind, small_.empty() ? ColorScale{} : small_.front()->heatmap().scale()));
    const HeatmapSlice& slice = large_->heatmap().slice();
    QString text =
        heads == 1
            ? tr("<b>1 head</b>, with its own %1 × %1 attention matrix (rows: queries, columns: keys).").arg(slice.rows)
            : tr("<b>%1 heads</b>, each with its own %2 × %2 attention matrix (rows: queries, columns: "
                 "keys). Click a head to enlarge it.")
                  .arg(heads)
                  .arg(slice.rows);
    // Grouped-query attention: the heads of a group read the same keys and values, so their matrices differ
    // only by their queries.
    if (const Config& c = state_->document()->config(); c.is_grouped() && c.kv_groups_split_heads() && heads > 1)
        text += tr(" Keys and values are shared in %1 groups of %2 consecutive heads (heads 0–%3 read key/value "
                   "head 0): within a group only the queries differ.")
                    .arg(c.num_kv_groups)
                    .arg(c.group_size())
                    .arg(c.group_size() - 1);
    if (state_->document()->usesTextInput() && slice.rows >= 2) {
        const HeadMeasures u = uniform_measures(slice.rows);
        text += tr(" Under each head, from its weights over queries 1–%1: mean attention distance (tokens, dist where "
                   "the heads are small), entropy (nats, ent), share on the previous token (prev), share on the first. "
                   "Uniform causal attention would give %2, %3, %4, %5.")
                    .arg(slice.rows - 1)
                    .arg(u.distance, 0, 'f', 1)
                    .arg(u.entropy, 0, 'f', 2)
                    .arg(u.previous, 0, 'f', 2)
                    .arg(u.first, 0, 'f', 2);
    }
    heading_->setText(text);
}

} // namespace attnlab::ui
