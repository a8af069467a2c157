#include "shell/compute_status.h"
#include "widgets/lesson_target.h"

#include "features/session.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

namespace attnlab::ui {

ComputeStatus::ComputeStatus(Session* session, QWidget* parent) : QWidget(parent), session_(session)
{
    nameTarget(this, QStringLiteral("compute-status"));
    progress_ = new QProgressBar;
    progress_->setRange(0, 0); // indeterminate: the engine reports no progress, only that it works
    progress_->setMaximumWidth(120);
    progress_->setFormat(QString());
    computing_ = new QLabel;
    action_ = new QPushButton;
    nameTarget(action_, QStringLiteral("compute-action"));
    action_->setToolTip(tr("Cancel the computation (Esc), or retry it."));
    status_ = new ElidedLabel(parent);
    nameTarget(status_, QStringLiteral("trace-status"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(progress_);
    row->addWidget(computing_);
    row->addWidget(action_);

    showDelay_ = new QTimer(this);
    showDelay_->setSingleShot(true);
    showDelay_->setInterval(kShowAfterMs);
    connect(showDelay_, &QTimer::timeout, this, [this] {
        indicatorDue_ = session_->trace()->busy();
        refresh();
    });
    connect(action_, &QPushButton::clicked, this, [this] {
        if (session_->trace()->busy())
            session_->cancel();
        else
            session_->trace()->recompute();
    });
    followParts(session_->parts(), this, [this](ChangeFlags flags) {
        if (flags &
            (ChangeFlag::Busy | ChangeFlag::Trace | ChangeFlag::Settings | ChangeFlag::Diagnostics | ChangeFlag::Guide))
            refresh();
    });
    refresh();
}

bool ComputeStatus::indicatorShown() const
{
    return !computing_->isHidden();
}

QString ComputeStatus::text() const
{
    return status_->text();
}

void ComputeStatus::refresh()
{
    const bool busy = session_->trace()->busy();
    if (!busy) {
        indicatorDue_ = false;
        showDelay_->stop();
    } else if (!indicatorDue_ && !showDelay_->isActive()) {
        showDelay_->start();
    }
    const bool computing = busy && indicatorDue_;
    const bool offerCompute = !busy && session_->trace()->cancelled() && !session_->trace()->hasErrors();
    progress_->setVisible(computing);
    computing_->setVisible(computing);
    computing_->setText(session_->trace()->cancelling() ? tr("Cancelling…") : tr("Computing…"));
    action_->setVisible(computing || offerCompute);
    action_->setEnabled(!session_->trace()->cancelling());
    action_->setText(computing ? tr("Cancel") : tr("Compute"));
    action_->setToolTip(computing ? tr("Stop this computation (Esc); the result shown now stays.")
                                  : tr("Compute the settings shown; the last computation of them was cancelled."));

    QString text;
    if (const auto trace = session_->trace()->trace()) {
        const QString what = tr("%1 on input %2")
                                 .arg(QString::fromStdString(positional_call(trace->config)),
                                      QString::fromStdString(shape_to_string(trace->stages.front().tensor.shape())));
        // What matters most comes first: a narrow status bar elides the end of the line.
        // A lesson holding the diagnosis back (lesson 6): the last valid call would be the answer.
        if (session_->trace()->hasErrors() && session_->view()->guide().held == QLatin1String("diagnosis"))
            text = tr("The settings have an error: showing the last valid trace (held back until the answer is "
                      "revealed).");
        else if (session_->trace()->hasErrors())
            text = tr("The settings have an error: showing the last valid trace, %1.").arg(what);
        else if (session_->trace()->cancelled() && !busy)
            text = tr("Cancelled — showing the previous result, %1.").arg(what);
        else
            text = tr("Showing %1.").arg(what);
    } else if (session_->trace()->hasErrors()) {
        text = tr("The settings have an error: nothing computed yet.");
    } else if (session_->trace()->cancelled() && !busy) {
        text = tr("Cancelled — nothing computed yet.");
    }
    status_->setText(text);
}

} // namespace attnlab::ui
