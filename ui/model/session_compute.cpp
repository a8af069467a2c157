// Running the session's settings through the forward pass: asking the worker (forward_job.h),
// taking in what it delivers, and the user's Cancel / Compute. The last good trace is replaced only
// by a newer good trace, never by an error or a cancel.
#include "model/session.h"

#include "model/forward_job.h"
#include "model/model_job.h"
#include "model/timings_job.h"

#include <algorithm>

namespace attnlab::ui {

ExperimentSpec Session::effectiveSpec() const
{
    ExperimentSpec spec = spec_;
    if (spec.input != InputSource::Text)
        spec.input = usesBookInput() ? InputSource::Book : InputSource::Random;
    return spec;
}

bool Session::busy() const
{
    return job_->busy() || modelJob_->busy() || modelJob_->opening();
}

bool Session::cancelling() const
{
    return job_->cancelling() || modelJob_->cancelling();
}

void Session::compute()
{
    if (hasErrors())
        job_->dropPending(); // keep the last good trace; a job already running may still deliver one
    else if (usesOpenedModel())
        runOpenedModel();
    else
        job_->request(effectiveSpec());
}

void Session::cancel()
{
    timings_->cancel(); // what was measured so far is dropped; the numbers shown before stay
    if (!busy() || cancelling())
        return;
    job_->cancel();
    modelJob_->cancel();
    Q_EMIT changed(ChangeFlag::Busy); // "Cancelling…" until the worker reaches a stage boundary
}

void Session::recompute()
{
    if (busy() || hasErrors())
        return;
    settingsEdited(ChangeFlag::Diagnostics); // not a settings change: nothing for undo to record
}

void Session::adoptResult(const ForwardResult& result)
{
    ChangeFlags flags = ChangeFlag::Busy;
    if (result.trace) {
        adoptTrace(result.trace);
        flags |= ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Head;
    } else if (result.cancelled) {
        cancelled_ = true;
        refreshDiagnostics();
        flags |= ChangeFlag::Diagnostics;
    } else if (!result.stale) {
        engineError_ =
            Diagnostic{DiagnosticCode::Engine, Severity::Error, std::nullopt, result.error.toStdString(), {}, {}};
        refreshDiagnostics();
        flags |= ChangeFlag::Diagnostics;
    }
    Q_EMIT changed(flags);
}

void Session::adoptTrace(std::shared_ptr<const Trace> trace)
{
    trace_ = std::move(trace);
    const int n = static_cast<int>(trace_->stages.size());
    stageIndex_ = std::clamp(stageIndex_, 0, n - 1);
    for (int i = 0; i < n; ++i)
        if (trace_->stages[static_cast<std::size_t>(i)].name == stageName_)
            stageIndex_ = i; // the stage the student was looking at, by name, across shape changes
    stageName_ = trace_->stages[static_cast<std::size_t>(stageIndex_)].name;
    // What the student asked for while this trace was computing applies now, clamped to its sizes.
    head_ = wantedHead_ = std::clamp(wantedHead_, 0, headCount() - 1);
    batchIndex_ = wantedBatch_ = std::clamp(wantedBatch_, 0, batchCount() - 1);
}

} // namespace attnlab::ui
