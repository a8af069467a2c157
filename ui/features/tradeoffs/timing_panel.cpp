#include "features/tradeoffs/timing_panel.h"
#include "widgets/lesson_target.h"

#include "features/tradeoffs/tradeoffs_state.h"
#include "features/tradeoffs/timings_job.h"
#include "model/document_model.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace attnlab::ui {

TimingPanel::TimingPanel(TradeoffsState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    button_ = new QPushButton;
    nameTarget(button_, QStringLiteral("measure-times"));
    button_->setToolTip(tr("Run the forward pass for each head count on this machine and time it."));
    result_ = new QLabel(tr("Times are measured only when asked: press the button (it takes a moment)."));
    nameTarget(result_, QStringLiteral("measured-times"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(button_, 0, Qt::AlignLeft);
    layout->addWidget(result_, 1);
    auto label = [this] {
        button_->setText(tr("Time every num_heads here (d_out %1, %2 tokens)")
                             .arg(state_->document()->config().d_out)
                             .arg(state_->document()->numTokens()));
    };
    label();
    connect(state_, &TradeoffsState::changed, this, [this, label](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            label();
    });
    connect(state_, &TradeoffsState::timingsChanged, this, &TimingPanel::show);
    connect(button_, &QPushButton::clicked, state_, &TradeoffsState::measureTimings);
    show();
}

void TimingPanel::show()
{
    const TimingsJob* job = state_->timings();
    button_->setEnabled(!job->busy());
    if (!job->query()) // nothing asked yet: the label says how to ask
        return;
    const TimingQuery& q = *job->query();
    if (job->busy()) {
        result_->setText(tr("Timing %1 head counts on this machine… %2 of %3 done (Esc stops "
                            "it).")
                             .arg(job->total())
                             .arg(job->done())
                             .arg(job->total()));
        return;
    }
    const std::vector<HeadTiming>& timings = job->timings();
    if (!job->error().isEmpty() || timings.empty()) {
        result_->setText(job->error());
        return;
    }
    double fastest = 1e300;
    for (const auto& t : timings)
        if (!t.skipped)
            fastest = std::min(fastest, t.median_ms);
    QString html = tr("<table cellspacing=0 cellpadding=2><tr><th>num_heads</th><th>head_dim</th><th>median ms</th>"
                      "<th>min–max ms</th><th>vs fastest</th></tr>");
    QString how;
    for (const auto& t : timings) {
        if (t.skipped) {
            html += QStringLiteral("<tr><td align=center>%1</td><td align=center>%2</td><td colspan=3>%3</td></tr>")
                        .arg(t.num_heads)
                        .arg(t.head_dim)
                        .arg(QString::fromStdString(t.how).toHtmlEscaped());
            continue;
        }
        how = QString::fromStdString(t.how);
        html += QStringLiteral("<tr><td align=center><b>%1</b></td><td align=center>%2</td><td align=right>%3</td>"
                               "<td align=center>%4–%5</td><td align=right>×%6</td></tr>")
                    .arg(t.num_heads)
                    .arg(t.head_dim)
                    .arg(t.median_ms, 0, 'f', 3)
                    .arg(t.min_ms, 0, 'f', 3)
                    .arg(t.max_ms, 0, 'f', 3)
                    .arg(t.median_ms / fastest, 0, 'f', 2);
    }
    html += QStringLiteral("</table>");
    result_->setText(tr("<b>Measured</b> (d_in %1, d_out %2, %3 tokens, batch %4): %5 Every row has the same "
                        "multiply-adds; more, smaller heads mean more, smaller matrix products and score matrices.")
                         .arg(q.d_in)
                         .arg(q.d_out)
                         .arg(q.num_tokens)
                         .arg(q.batch)
                         .arg(how.toHtmlEscaped()) +
                     html);
}

} // namespace attnlab::ui
