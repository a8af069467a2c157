// What the settings mean and running them through the forward pass: asking the worker (forward_job.h), taking in
// what it delivers, and the user's Cancel / Compute. The last good trace is replaced only by a newer good trace, never
// by an error or a cancel.
#include "forward/stage_names.h"
#include "model/trace_state.h"

#include "forward/experiment_check.h"
#include "lessons/contract_call.h"
#include "model/document_model.h"
#include "model/forward_job.h"
#include "model/model_job.h"

namespace attnlab::ui {

TraceState::TraceState(DocumentModel* document, QObject* parent)
    : QObject(parent), document_(document), job_(new ForwardJob(this))
{
    connect(job_, &ForwardJob::finished, this, &TraceState::adoptResult);
    connectModelJob();
    // The first listener of the document: whoever hears of an edit after this finds its diagnostics ready.
    connect(document_, &DocumentModel::changed, this, [this](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            settingsEdited();
    });
    refreshDiagnostics();
}

TraceState::~TraceState() = default; // the jobs (children) cancel their computation and wait for it

bool TraceState::hasErrors() const
{
    return has_error(diagnostics_);
}

void TraceState::refreshDiagnostics()
{
    diagnostics_.clear();
    const ExperimentSpec& spec = document_->spec();
    const InputShape input{spec.batch, spec.num_tokens};
    // Core's one reading of the call: a likely swap first, with the swapped call as its fix.
    const CallReading reading = read_call(document_->callText().toStdString(), input);
    if (document_->callError()) {
        diagnostics_ = reading.diagnostics;
        return; // the spin boxes still show the last call that bound; judging them would confuse
    }
    diagnostics_ =
        reading.config && *reading.config == spec.config ? reading.diagnostics : validate(spec.config, input);
    addTextDiagnostics();
    if (!has_error(diagnostics_))
        if (auto memory = memory_budget_check(spec.config, input, spec.memory_budget))
            diagnostics_.push_back(*memory);
    if (engineError_)
        diagnostics_.push_back(*engineError_);
    if (cancelled_) {
        // Filled in place: GCC 12 warned falsely (-Warray-bounds) on copying a braced temporary's string in.
        Diagnostic& cancelled = diagnostics_.emplace_back();
        cancelled.code = DiagnosticCode::Cancelled;
        cancelled.severity = Severity::Warning;
        cancelled.message = "computing these settings was cancelled, so the result shown is of the previous "
                            "settings; press Compute to run them.";
    }
}

void TraceState::settingsEdited()
{
    engineError_.reset();
    cancelled_ = false; // the new settings are computed (or refused) afresh
    refreshDiagnostics();
    compute();
    Q_EMIT changed(ChangeFlag::Diagnostics | ChangeFlag::Busy);
}

bool TraceState::busy() const
{
    return job_->busy() || modelJob_->busy() || modelJob_->opening();
}

bool TraceState::cancelling() const
{
    return job_->cancelling() || modelJob_->cancelling();
}

void TraceState::compute()
{
    if (hasErrors())
        job_->dropPending(); // keep the last good trace; a job already running may still deliver one
    else if (usesOpenedModel())
        runOpenedModel();
    else
        job_->request(document_->effectiveSpec());
}

void TraceState::cancel()
{
    if (!busy() || cancelling())
        return;
    job_->cancel();
    modelJob_->cancel();
    Q_EMIT changed(ChangeFlag::Busy); // "Cancelling…" until the worker reaches a stage boundary
}

void TraceState::recompute()
{
    if (busy() || hasErrors())
        return;
    settingsEdited(); // not a settings change: nothing for undo to record
}

void TraceState::adoptResult(const ForwardResult& result)
{
    ChangeFlags flags = ChangeFlag::Busy;
    if (result.trace) {
        trace_ = result.trace;
        flags |= ChangeFlag::Trace;
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

const std::vector<HeadMeasures>& TraceState::headMeasures(int batch) const
{
    const Stage* w = trace_ && document_->usesTextInput() ? trace_->find(stage::attn_weights) : nullptr;
    if (!w) {
        measures_ = {};
        return measures_.measures;
    }
    if (measures_.trace != trace_.get() || measures_.batch != batch)
        measures_ = {trace_.get(), batch, head_measures(w->tensor, batch)};
    return measures_.measures;
}

} // namespace attnlab::ui
