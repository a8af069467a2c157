#include "features/overview/overview_state.h"

#include "gpt/gpt_input.h"
#include "model/document_model.h"
#include "model/model_job.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "tensor/error.h"

namespace attnlab::ui {

OverviewState::OverviewState(const SessionParts& parts, QObject* parent) : FeatureState(parts, parent)
{
    TraceState* t = trace();
    connect(t, &TraceState::modelRunFinished, this, &OverviewState::adoptModelRun);
    // The run brings the overview's heads along, unless it reads the text twice.
    connect(t, &TraceState::modelRunStarted, this, [this] { stale_ = repeatText_; });
    connect(t, &TraceState::openedModelUsed, this, [this] { layerAttention_.reset(); });
    connect(t->modelJob(), &ModelJob::overviewFinished, this, [this](const ModelRunResult& r) {
        if (r.stale)
            return;
        if (r.layers)
            layerAttention_ = r.layers;
        error_ = r.error;
        Q_EMIT layersChanged();
        Q_EMIT delivered();
        follow();
    });
}

void OverviewState::adoptModelRun(const ModelRunResult& r)
{
    if (r.layers && !r.layers->repeated && !repeatText_) {
        layerAttention_ = r.layers;
        error_.clear();
    }
}

void OverviewState::setRepeatText(bool on)
{
    if (on == repeatText_)
        return;
    repeatText_ = on;
    stale_ = true;
    Q_EMIT layersChanged();
    follow();
}

void OverviewState::openHead(int layer, int head)
{
    document()->setGptLayer(layer);
    view()->setHead(head);
    view()->setTab(ViewMode::Heatmaps);
}

bool OverviewState::computing() const
{
    return view()->tab() == ViewMode::Overview && document()->usesTextInput() &&
           ((stale_ && !trace()->hasErrors()) || trace()->modelJob()->overviewBusy());
}

void OverviewState::partsChanged(ChangeFlags flags)
{
    if (flags & ChangeFlag::Settings && !trace()->usesOpenedModel())
        stale_ = true;
    follow();
}

void OverviewState::follow()
{
    TraceState* t = trace();
    if (view()->tab() != ViewMode::Overview || !stale_ || !document()->usesTextInput() || t->hasErrors())
        return;
    if (t->usesOpenedModel() && !repeatText_) {
        if (!t->busy())
            t->runOpenedModel();
        return;
    }
    stale_ = false;
    ModelRun run;
    run.ids = t->textTokens().ids;
    run.repeated = repeatText_;
    if (t->usesOpenedModel()) {
        const OpenedModel& m = *t->modelJob()->model();
        run.model = m.model;
        run.plan = m.plan;
        run.eps = m.plan.layer_norm_eps;
        run.tokenizerBytes = m.tokenizerBytes;
    } else {
        try {
            run.model = cached_gpt_model(document()->spec().gpt_model_path);
        } catch (const Error&) {
            return; // the diagnostics say why
        }
    }
    t->modelJob()->runOverview(run);
}

} // namespace attnlab::ui
