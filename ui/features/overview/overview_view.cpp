#include "features/overview/overview_view.h"
#include "widgets/lesson_target.h"

#include "model/model_job.h"
#include "features/overview/overview_state.h"
#include "features/overview/head_grid_widget.h"
#include "widgets/flow_layout.h"
#include "widgets/refresh_when_shown.h"
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
#include <QVBoxLayout>

#include <algorithm>
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
    layout->addWidget(scroll_, 1);

    refresh_ = new RefreshWhenShown(this, [this] { rebuild(); });
    connect(sort_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(repeat_, &QCheckBox::toggled, state_, &OverviewState::setRepeatText);
    connect(cancel_, &QPushButton::clicked, state_->trace(), &TraceState::cancel);
    connect(grid_, &HeadGridWidget::headClicked, state_, &OverviewState::openHead);
    connect(openInduction_, &QPushButton::clicked, this, [this] {
        if (const QString problem = state_->trace()->useShippedModel(QStringLiteral("induction-h4"), 0);
            !problem.isEmpty())
            heading_->setText(problem); // an install without the file: say so where the heads would be
    });
    connect(grid_, &HeadGridWidget::currentMoved, this, [this](QRect cell) {
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
    const int thumb =
        HeadGridPainter::fittingThumbnail(scroll_->viewport()->size(), cells, heads, layers, grid_->font());
    grid_->setGrid(HeadGridPainter(std::move(cells), heads, thumb), tips);
}

bool OverviewView::eventFilter(QObject* watched, QEvent* event)
{
    // The scroll area's viewport, once laid out: the thumbnails take the space there is.
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize && !grid_->painter().cells().empty())
        refresh_->request();
    // A wrapped heading as tall as its lines at its width: the tab page's layout gives a label the height of
    // its one-line hint, which cut both lines of a two-line heading in half.
    if (watched == heading_ && event->type() == QEvent::Resize)
        heading_->setMinimumHeight(heading_->heightForWidth(heading_->width()));
    return QWidget::eventFilter(watched, event);
}

} // namespace attnlab::ui
