#include "pages/tradeoffs/timing_panel.h"

#include "model/latest_worker.h"
#include "model/session.h"
#include "tensor/error.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace attnlab::ui {

TimingPanel::TimingPanel(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), worker_(new LatestWorker(this))
{
    button_ = new QPushButton;
    button_->setObjectName(QStringLiteral("measure-times"));
    button_->setToolTip(tr("Run the forward pass for each head count on this machine and time it."));
    result_ = new QLabel(tr("Times are measured only when asked: press the button (it takes a moment)."));
    result_->setObjectName(QStringLiteral("measured-times"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(button_, 0, Qt::AlignLeft);
    layout->addWidget(result_, 1);
    auto label = [this] {
        button_->setText(tr("Time every num_heads here (d_out %1, %2 tokens)")
                             .arg(session_->config().d_out)
                             .arg(session_->numTokens()));
    };
    label();
    connect(session_, &Session::changed, this, [label](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            label();
    });
    connect(button_, &QPushButton::clicked, this, &TimingPanel::measure);
}

bool TimingPanel::busy() const
{
    return worker_->busy();
}

void TimingPanel::measure()
{
    TimingQuery q;
    q.d_in = session_->config().d_in;
    q.d_out = session_->config().d_out;
    q.num_tokens = session_->numTokens();
    q.batch = session_->batch();
    button_->setEnabled(false);
    result_->setText(tr("Timing %1 head counts…").arg(divisors(q.d_out).size()));
    worker_->request([this, q](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        auto timings = std::make_shared<std::vector<HeadTiming>>();
        QString error;
        try {
            *timings = time_head_counts(q, cancel);
        } catch (const Error& e) {
            error = QString::fromUtf8(e.what());
        }
        return [this, q, timings, error](LatestWorker::Outcome) { show(q, *timings, error); };
    });
}

void TimingPanel::show(const TimingQuery& q, std::vector<HeadTiming> timings, const QString& error)
{
    button_->setEnabled(true);
    timings_ = std::move(timings);
    if (!error.isEmpty() || timings_.empty()) {
        result_->setText(error);
        Q_EMIT measured();
        return;
    }
    double fastest = 1e300;
    for (const auto& t : timings_)
        if (!t.skipped)
            fastest = std::min(fastest, t.median_ms);
    QString html = tr("<table cellspacing=0 cellpadding=2><tr><th>num_heads</th><th>head_dim</th><th>median ms</th>"
                      "<th>min–max ms</th><th>vs fastest</th></tr>");
    QString how;
    for (const auto& t : timings_) {
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
    Q_EMIT measured();
}

} // namespace attnlab::ui
