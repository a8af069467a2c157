#include "features/overview/overview_view.h"
#include "widgets/lesson_target.h"

#include "model/model_job.h"
#include "features/overview/overview_state.h"
#include "features/overview/head_grid_widget.h"
#include "widgets/flow_layout.h"
#include "widgets/refresh_when_shown.h"
#include "widgets/heatmap_widget.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QHBoxLayout>
#include <QScrollBar>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <numeric>

namespace attnlab::ui {

namespace {

using Measure = OverviewView::Measure;
using Head = LayerAttention::Head;

// The value a head is ranked by; nullopt where it says nothing (no token repeats). Entropy ranks lowest
// first, the focused heads, so every measure puts the heads that do the most distinct thing first.
std::optional<double> valueOf(const Head& h, Measure m)
{
    switch (m) {
    case Measure::Previous: return h.measures.previous;
    case Measure::First: return h.measures.first;
    case Measure::Induction: return h.induction;
    case Measure::Entropy: return h.measures.entropy;
    case Measure::None: break;
    }
    return std::nullopt;
}

bool passes(const Head& h, Measure m, double threshold)
{
    const auto v = valueOf(h, m);
    if (m == Measure::None)
        return true;
    if (!v)
        return false;
    return m == Measure::Entropy ? *v <= threshold : *v >= threshold;
}

QString share(double v)
{
    return QString::number(v, 'f', 2);
}

// What the head mostly does, in the fewest words: the largest of its three shares, or the measure ranked by.
QString detailOf(const Head& h, Measure m)
{
    switch (m) {
    case Measure::Previous: return QObject::tr("prev %1").arg(share(h.measures.previous));
    case Measure::First: return QObject::tr("first %1").arg(share(h.measures.first));
    case Measure::Induction: return h.induction ? QObject::tr("ind %1").arg(share(*h.induction)) : QObject::tr("ind –");
    case Measure::Entropy: return QObject::tr("H %1").arg(share(h.measures.entropy));
    case Measure::None: break;
    }
    const double ind = h.induction.value_or(0.0);
    if (ind > h.measures.previous && ind > h.measures.first)
        return QObject::tr("ind %1").arg(share(ind));
    return h.measures.previous >= h.measures.first ? QObject::tr("prev %1").arg(share(h.measures.previous))
                                                   : QObject::tr("first %1").arg(share(h.measures.first));
}

QString tipOf(const Head& h, int layer, int head)
{
    return QObject::tr("layer %1 head %2: previous token %3, first token %4, induction %5, entropy %6 nats, "
                       "mean distance %7 tokens")
        .arg(layer)
        .arg(head)
        .arg(share(h.measures.previous), share(h.measures.first),
             h.induction ? share(*h.induction) : QObject::tr("– (no token repeats)"), share(h.measures.entropy),
             QString::number(h.measures.distance, 'f', 1));
}

} // namespace

OverviewView::OverviewView(OverviewState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    nameTarget(this, QStringLiteral("overview-view"));
    heading_ = new QLabel;
    nameTarget(heading_, QStringLiteral("overview-heading"));
    heading_->setWordWrap(true);
    heading_->installEventFilter(this);
    sort_ = new QComboBox;
    nameTarget(sort_, QStringLiteral("overview-sort"));
    sort_->setAccessibleName(tr("Order the heads by"));
    sort_->addItem(tr("Layers × heads"), static_cast<int>(Measure::None));
    sort_->addItem(tr("Previous-token share"), static_cast<int>(Measure::Previous));
    sort_->addItem(tr("First-token share"), static_cast<int>(Measure::First));
    sort_->addItem(tr("Induction score"), static_cast<int>(Measure::Induction));
    sort_->addItem(tr("Entropy (lowest first)"), static_cast<int>(Measure::Entropy));
    sort_->setToolTip(tr("Rank the heads by what they do; the threshold fades the heads that do less of it."));
    threshold_ = new QDoubleSpinBox;
    nameTarget(threshold_, QStringLiteral("overview-threshold"));
    threshold_->setAccessibleName(tr("Threshold"));
    threshold_->setRange(0.0, 10.0);
    threshold_->setSingleStep(0.05);
    threshold_->setDecimals(2);
    threshold_->setToolTip(tr("Heads at least this (entropy: at most this) stay bright; the others fade."));
    repeat_ = new QCheckBox(tr("Repeat the text"));
    nameTarget(repeat_, QStringLiteral("overview-repeat"));
    repeat_->setToolTip(tr("Read the text twice over: a head that looks at the token after the same token's "
                           "earlier occurrence -- an induction head -- shows as a stripe beside the diagonal."));
    progress_ = new QProgressBar;
    nameTarget(progress_, QStringLiteral("overview-progress"));
    progress_->setFormat(tr("layer %v of %m"));
    cancel_ = new QPushButton(tr("Cancel"));
    nameTarget(cancel_, QStringLiteral("overview-cancel"));
    openInduction_ = new QPushButton(tr("Open the Induction GPT"));
    nameTarget(openInduction_, QStringLiteral("overview-open-induction"));
    openInduction_->setToolTip(tr("The small GPT trained here on the induction task, shipped with the app: layer 0 "
                                  "has a previous-token head, layer 1 induction heads."));
    grid_ = new HeadGridWidget;
    scroll_ = new QScrollArea;
    scroll_->setWidget(grid_);
    scroll_->setWidgetResizable(false);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->viewport()->installEventFilter(this);
    // The head the grid's keyboard is on (at first the one open in the heatmaps), enlarged where the grid leaves
    // room: at 1280x720 two layers of four heads filled half the width, the other half stood empty.
    detail_ = new HeatmapWidget;
    nameTarget(detail_, QStringLiteral("overview-detail"));
    detail_->setAccessibleName(tr("The current head, enlarged"));
    detail_->hide();
    body_ = new QWidget;
    body_->installEventFilter(this);
    auto* bodyLayout = new QHBoxLayout(body_);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addWidget(scroll_, 1);
    bodyLayout->addWidget(detail_, 1);

    auto* row = new FlowLayout;
    row->addWidget(new QLabel(tr("Order:")));
    row->addWidget(sort_);
    row->addWidget(threshold_);
    row->addWidget(repeat_);
    row->addWidget(progress_);
    row->addWidget(cancel_);
    row->addWidget(openInduction_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addLayout(row);
    layout->addWidget(body_, 1);

    refresh_ = new RefreshWhenShown(this, [this] { rebuild(); });
    connect(sort_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(repeat_, &QCheckBox::toggled, state_, &OverviewState::setRepeatText);
    connect(cancel_, &QPushButton::clicked, state_->trace(), &TraceState::cancel);
    connect(grid_, &HeadGridWidget::headClicked, state_, &OverviewState::openHead);
    connect(detail_, &HeatmapWidget::clicked, this, [this] { // as a click on its cell in the grid
        const auto& cells = grid_->painter().cells();
        if (const int i = grid_->current(); i >= 0 && i < static_cast<int>(cells.size()))
            state_->openHead(cells[static_cast<std::size_t>(i)].layer, cells[static_cast<std::size_t>(i)].head);
    });
    connect(openInduction_, &QPushButton::clicked, this, [this] {
        if (const QString problem = state_->trace()->useShippedModel(QStringLiteral("induction-h4"), 0);
            !problem.isEmpty())
            heading_->setText(problem); // an install without the file: say so where the heads would be
    });
    connect(grid_, &HeadGridWidget::currentMoved, this, [this](QRect cell) {
        showDetail();
        scroll_->ensureVisible(cell.center().x(), cell.center().y(), cell.width() / 2 + 8, cell.height() / 2 + 8);
    });
    connect(state_, &OverviewState::changed, this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Busy)
            showProgress();
        if (flags & (ChangeFlag::Trace | ChangeFlag::Head | ChangeFlag::Settings | ChangeFlag::Diagnostics))
            refresh_->request();
    });
    connect(state_, &OverviewState::layersChanged, this, [this] { refresh_->request(); });
    rebuild();
    showProgress();
}

void OverviewView::showProgress()
{
    const auto [done, total] = state_->trace()->modelJob()->progress();
    const bool running = state_->trace()->usesOpenedModel() && state_->trace()->busy() && total > 0;
    progress_->setVisible(running);
    cancel_->setVisible(running);
    if (running) {
        progress_->setRange(0, total);
        progress_->setValue(done);
    }
}

void OverviewView::rebuild()
{
    repeat_->setChecked(state_->repeatText());
    openInduction_->setVisible(!state_->document()->usesTextInput());
    const auto measure = static_cast<Measure>(sort_->currentData().toInt());
    threshold_->setEnabled(measure != Measure::None);
    const auto attention = state_->document()->usesTextInput() ? state_->layerAttention() : nullptr;
    // Settings in error are never computed: "Computing…" would promise what never comes, and heads drawn
    // without a word would pass for the settings'.
    QString settingsError;
    if (state_->trace()->hasErrors())
        for (const Diagnostic& d : state_->trace()->diagnostics())
            if (d.severity == Severity::Error) {
                settingsError =
                    tr("Nothing to draw while the settings have an error: %1").arg(QString::fromStdString(d.message));
                break;
            }
    if (!attention || attention->grid.empty()) {
        QString problem = state_->layerAttentionProblem();
        if (problem.isEmpty())
            problem = settingsError;
        heading_->setText(state_->document()->usesTextInput()
                              ? (problem.isEmpty() ? tr("Computing every layer's heads…") : problem)
                              : tr("Every layer's heads need a whole GPT: open the one trained here on the "
                                   "induction task, whose heads differ clearly, another with File > Open Model…, or "
                                   "turn on the Text input for a GPT trained on The Verdict."));
        grid_->setGrid({}, {});
        shown_.reset();
        scroll_->setMinimumWidth(0);
        scroll_->setMaximumWidth(QWIDGETSIZE_MAX);
        showDetail();
        return;
    }
    const int layers = static_cast<int>(attention->grid.size());
    const int heads = static_cast<int>(attention->grid.front().size());
    const std::size_t tokens = attention->ids.size();
    QString heading = tr("%1: %2 layers × %3 heads on %4 tokens")
                          .arg(QString::fromStdString(attention->model))
                          .arg(layers)
                          .arg(heads)
                          .arg(tokens);
    if (attention->repeated)
        heading += tr(" (the text twice over)");
    if (!state_->layerAttentionProblem().isEmpty())
        heading += QStringLiteral(" · ") + state_->layerAttentionProblem();
    heading += tr(". Each row of a thumbnail is one query, brightest where it looks most; click a head to open it "
                  "in the heatmaps.");
    if (!settingsError.isEmpty())
        heading = settingsError + tr(" Below, the last heads computed: ") + heading;
    heading_->setText(heading);
    heading_->setMinimumHeight(heading_->heightForWidth(std::max(1, heading_->width())));

    struct Ref {
        int layer, head;
    };
    std::vector<Ref> order;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h)
            order.push_back({l, h});
    const auto& grid = attention->grid;
    if (measure != Measure::None)
        std::stable_sort(order.begin(), order.end(), [&](const Ref& a, const Ref& b) {
            const auto va = valueOf(grid[a.layer][a.head], measure), vb = valueOf(grid[b.layer][b.head], measure);
            if (!va || !vb)
                return va.has_value() && !vb.has_value();
            return measure == Measure::Entropy ? *va < *vb : *va > *vb;
        });
    std::vector<HeadGridCell> cells;
    QStringList tips;
    const double limit = threshold_->value();
    const bool shown = state_->document()->usesTextInput();
    for (const Ref& r : order) {
        const Head& h = grid[r.layer][r.head];
        HeadGridCell c;
        c.layer = r.layer;
        c.head = r.head;
        c.image = headThumbnail(h.thumbnail);
        c.title = tr("L%1 H%2").arg(r.layer).arg(r.head);
        c.detail = detailOf(h, measure);
        c.shown = passes(h, measure, limit);
        c.selected = shown && r.layer == state_->document()->gptLayer() && r.head == state_->view()->head();
        cells.push_back(std::move(c));
        tips << tipOf(h, r.layer, r.head);
    }
    // The grid sized to the whole body; what it leaves on the right, when enough for a readable matrix, goes to the
    // current head in detail. A scroll bar's width is kept in case the grid still needs one.
    const int bar = scroll_->verticalScrollBar()->sizeHint().width();
    const QSize space(body_->width() - bar, body_->height() - 4);
    const int thumb = HeadGridPainter::fittingThumbnail(space, cells, heads, layers, grid_->font());
    grid_->setGrid(HeadGridPainter(std::move(cells), heads, thumb), tips);
    grid_->resize(grid_->sizeHint()); // not resizable by its area: a grid once larger kept its size and scrolled
    shown_ = attention;
    const int used = grid_->sizeHint().width() + bar + 2 * scroll_->frameWidth() + 4;
    const int px = QFontInfo(font()).pixelSize();
    const bool room = body_->width() - used - body_->layout()->spacing() >= 18 * px;
    if (room)
        scroll_->setFixedWidth(used);
    else {
        scroll_->setMinimumWidth(0);
        scroll_->setMaximumWidth(QWIDGETSIZE_MAX);
    }
    detail_->setVisible(room);
    showDetail();
}

void OverviewView::showDetail()
{
    const auto& cells = grid_->painter().cells();
    const int current = grid_->current();
    if (!shown_ || !detail_->isVisibleTo(this) || current < 0 || current >= static_cast<int>(cells.size())) {
        detail_->setHeatmap({});
        return;
    }
    const HeadGridCell& cell = cells[static_cast<std::size_t>(current)];
    const Head& h = shown_->grid[static_cast<std::size_t>(cell.layer)][static_cast<std::size_t>(cell.head)];
    const auto n = static_cast<int>(h.thumbnail.dim() == 2 ? h.thumbnail.size(0) : 0);
    if (n <= 0 || !h.thumbnail.is_contiguous()) {
        detail_->setHeatmap({});
        return;
    }
    // Exact when the text fits the thumbnail (up to 64 tokens): a cell a token, labelled, the mask hatched. Longer
    // texts' thumbnails average blocks of tokens: drawn without token labels or mask.
    const bool exact = n == static_cast<int>(shown_->ids.size());
    QStringList tokens;
    if (exact) {
        const QStringList labels = state_->trace()->tokenLabels();
        tokens = shown_->repeated ? labels + labels : labels;
        if (tokens.size() != n)
            tokens.clear();
        detailMask_.assign(static_cast<std::size_t>(n) * n, 0.0f);
        for (int r = 0; r < n; ++r)
            for (int c = r + 1; c < n; ++c)
                detailMask_[static_cast<std::size_t>(r) * n + c] = -std::numeric_limits<float>::infinity();
    }
    HeatmapSlice slice;
    slice.stage = "attn_weights";
    slice.rows = slice.cols = n;
    slice.values = h.thumbnail.data();
    slice.maskSource = exact ? detailMask_.data() : nullptr;
    HeatmapStyle style;
    // The title says the head and what it mostly does, as its cell in the grid; the tooltip and the grid's say all.
    style.title = tr("L%1 H%2 · %3")
                      .arg(cell.layer)
                      .arg(cell.head)
                      .arg(detailOf(h, static_cast<Measure>(sort_->currentData().toInt())));
    if (!exact)
        style.title += tr(" (%1 tokens in %2 × %2 blocks)").arg(shown_->ids.size()).arg(n);
    style.fontPx = QFontInfo(font()).pixelSize();
    style.axes = !tokens.isEmpty();
    detail_->setHeatmap(HeatmapPainter(slice, ColorScale::weights(1.0), tokens, style));
}

bool OverviewView::eventFilter(QObject* watched, QEvent* event)
{
    // The scroll area's viewport, once laid out: the thumbnails take the space there is.
    if ((watched == scroll_->viewport() || watched == body_) && event->type() == QEvent::Resize &&
        !grid_->painter().cells().empty())
        refresh_->request();
    // A wrapped heading as tall as its lines at its width: the tab page's layout gives a label the height of
    // its one-line hint, which cut both lines of a two-line heading in half.
    if (watched == heading_ && event->type() == QEvent::Resize)
        heading_->setMinimumHeight(heading_->heightForWidth(heading_->width()));
    return QWidget::eventFilter(watched, event);
}

} // namespace attnlab::ui
