#include "features/tradeoffs/tradeoffs_view.h"
#include "widgets/lesson_target.h"
#include "widgets/flow_layout.h"

#include "render/number_format.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "features/tradeoffs/tradeoff_chart_widget.h"
#include "features/tradeoffs/sweep_panel.h"
#include "features/tradeoffs/timing_panel.h"
#include "features/tradeoffs/tradeoff_table.h"
#include "features/tradeoffs/trained_variants_panel.h"
#include "model/document_model.h"
#include "model/view_model.h"

#include "widgets/tab_text_fit.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace attnlab::ui {

namespace {

constexpr std::int64_t kWidthsEachSide = 3; // d_out choices shown below and above the current one

} // namespace

TradeoffsView::TradeoffsView(TradeoffsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    heading_ = new QLabel;
    heading_->setWordWrap(true);
    chart_ = new TradeoffChartWidget;
    nameTarget(chart_, QStringLiteral("tradeoff-chart"));
    chart_->setAccessibleName(tr("Trade-off chart"));
    table_ = new TradeoffTable;
    nameTarget(table_, QStringLiteral("tradeoff-table"));
    widthsLabel_ = new QLabel;
    widthsRow_ = new FlowLayout; // wraps: seven width buttons in one row made the tab wider than the page
    widthsRow_->addWidget(widthsLabel_);

    // Two pages: what the shapes let us count (chart, table, widths), and what was measured -- trained
    // models' losses and heads, this machine's times. Each gets the whole tab.
    auto* counted = new QWidget;
    auto* countedLayout = new QVBoxLayout(counted);
    countedLayout->addWidget(heading_);
    countedLayout->addWidget(chart_, 3);
    countedLayout->addWidget(table_, 2);
    countedLayout->addLayout(widthsRow_);
    trained_ = new TrainedVariantsPanel(state_);
    timing_ = new TimingPanel(state_);
    auto* measured = new QWidget;
    auto* measuredLayout = new QVBoxLayout(measured);
    measuredLayout->addWidget(trained_, 1);
    measuredLayout->addWidget(timing_, 1);
    auto* measuredArea = new QScrollArea; // scrolls rather than widening the window
    measuredArea->setWidget(measured);
    measuredArea->setWidgetResizable(true);
    measuredArea->setFrameShape(QFrame::NoFrame);
    sections_ = new QTabWidget;
    sections_->addTab(counted, tr("Counted: parameters, multiply-adds, memory"));
    sections_->addTab(measuredArea, tr("Measured: trained models' loss and heads, time on this machine"));
    // A tab's tooltip is its accessible description (Ctrl+Tab moves between the sections).
    sections_->setTabToolTip(0, tr("What the shapes let us count for each num_heads: parameters, multiply-adds, "
                                   "memory."));
    sections_->setTabToolTip(1, tr("What was measured: trained models' losses and heads, and times on this machine."));
    sweep_ = new SweepPanel(state_); // trained in the app, in the order of TradeoffsSection
    auto* sweepArea = new QScrollArea;
    sweepArea->setWidget(sweep_);
    sweepArea->setWidgetResizable(true);
    sweepArea->setFrameShape(QFrame::NoFrame);
    sections_->addTab(sweepArea, tr("Trained here"));
    sections_->setTabToolTip(2, tr("Train the book's GPT here for several num_heads and seeds, and compare their "
                                   "held-out loss and accuracy."));
    fitTabTexts(sections_,
                {{tr("Counted: parameters, multiply-adds, memory"), tr("Counted: parameters, memory"), tr("Counted")},
                 {tr("Measured: trained models' loss and heads, time on this machine"),
                  tr("Measured: trained models, time"), tr("Measured")},
                 {tr("Trained here")}});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(sections_);

    auto apply = [this](std::int64_t heads) {
        state_->document()->setSlot(Slot::num_heads, static_cast<double>(heads));
    };
    connect(chart_, &TradeoffChartWidget::headsClicked, this, apply);
    connect(table_, &TradeoffTable::headsClicked, this, apply);
    // The open section is the Session's, so a lesson or a session file can open it.
    sections_->setCurrentIndex(static_cast<int>(state_->view()->tradeoffsSection()));
    connect(sections_, &QTabWidget::currentChanged, state_,
            [this](int i) { state_->view()->setTradeoffsSection(static_cast<TradeoffsSection>(i)); });
    connect(state_, &TradeoffsState::changed, this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            refresh();
        if (flags & ChangeFlag::View)
            sections_->setCurrentIndex(static_cast<int>(state_->view()->tradeoffsSection()));
    });
    refresh();
}

void TradeoffsView::refresh()
{
    const Config& c = state_->document()->config();
    HeadTradeoffQuery q;
    q.d_out = c.d_out;
    q.d_in = c.d_in;
    q.num_tokens = state_->document()->numTokens();
    q.batch = state_->document()->batch();
    q.qkv_bias = c.qkv_bias;
    try {
        const HeadTradeoffs t = head_tradeoffs(q);
        heading_->setText(tr("<b>d_out = %1</b> (d_in = %2, %3 tokens, batch %4): every num_heads that divides %1. "
                             "Click a column or a row to use it; the current one is highlighted.")
                              .arg(t.d_out)
                              .arg(t.d_in)
                              .arg(t.num_tokens)
                              .arg(t.batch));
        chart_->setPainter(TradeoffChartPainter(t, c.num_heads));
        table_->setTradeoffs(t, c.num_heads);
    } catch (const std::exception& e) {
        heading_->setText(QString::fromUtf8(e.what()));
        chart_->setPainter({});
        table_->setRowCount(0);
    }
    refreshWidths();
}

void TradeoffsView::refreshWidths()
{
    for (auto* b : widthButtons_) { // one of them may be the button being clicked: delete it later
        b->hide();
        widthsRow_->removeWidget(b);
        b->deleteLater();
    }
    widthButtons_.clear();
    const Config& c = state_->document()->config();
    const std::int64_t h = c.num_heads;
    if (h < 1 || c.d_out < 1) {
        widthsLabel_->clear();
        return;
    }
    WidthQuery q;
    q.num_heads = h;
    q.d_out_min = std::max<std::int64_t>(h, (c.d_out / h - kWidthsEachSide) * h);
    q.d_out_max = (c.d_out / h + kWidthsEachSide + (c.d_out % h ? 1 : 0)) * h;
    q.d_in = c.d_in;
    q.qkv_bias = c.qkv_bias;
    std::vector<WidthOption> options;
    try {
        options = width_options(q);
    } catch (const std::exception& e) {
        widthsLabel_->setText(QString::fromUtf8(e.what()));
        return;
    }
    widthsLabel_->setText(tr("<b>Keep num_heads = %1</b>; d_out can be:").arg(h));
    for (const WidthOption& o : options) {
        auto* b = new QPushButton(QString::number(o.d_out));
        nameTarget(b, QStringLiteral("width-%1").arg(o.d_out));
        b->setToolTip(tr("head_dim %1 · %2 parameters").arg(o.head_dim).arg(groupedCount(o.parameters)));
        b->setAccessibleName(tr("d_out %1").arg(o.d_out));
        b->setCheckable(true);
        b->setChecked(o.d_out == c.d_out);
        b->setCursor(Qt::PointingHandCursor);
        const std::int64_t d = o.d_out;
        connect(b, &QPushButton::clicked, this,
                [this, d] { state_->document()->setSlot(Slot::d_out, static_cast<double>(d)); });
        widthsRow_->addWidget(b);
        widthButtons_.push_back(b);
    }
    if (c.d_out % h != 0)
        widthsLabel_->setText(widthsLabel_->text() + tr(" (%1 is not a multiple of %2)").arg(c.d_out).arg(h));
}

} // namespace attnlab::ui
