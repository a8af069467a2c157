#include "features/kvheads/kvheads_state.h"

#include "designs/kv_cache_call.h"
#include "designs/published_configs.h"
#include "model/document_model.h"
#include "model/job_failure.h"

namespace attnlab::ui {

KvHeadsState::KvHeadsState(const SessionParts& parts, QObject* parent) : FeatureState(parts, parent)
{
    context_ = document()->config().context_length;
    recount();
    setStepModel(QStringLiteral("h4"));
}

void KvHeadsState::setConfigIndex(int index)
{
    if (index < -1 || index >= static_cast<int>(published_configs().size()) || index == configIndex_)
        return;
    configIndex_ = index;
    context_ = index < 0 ? document()->config().context_length : published_configs()[index].context_length;
    recount();
}

void KvHeadsState::setLayers(std::int64_t layers)
{
    layers_ = layers;
    recount();
}

void KvHeadsState::setDtype(KvDtype dtype)
{
    dtype_ = dtype;
    recount();
}

void KvHeadsState::setContext(std::int64_t tokens)
{
    context_ = tokens;
    recount();
}

void KvHeadsState::partsChanged(ChangeFlags flags)
{
    if (flags & ChangeFlag::Settings && configIndex_ < 0)
        recount(); // the current call follows the document: num_kv_groups, num_heads, d_out, context_length
}

void KvHeadsState::recount()
{
    if (configIndex_ >= 0) {
        memory_ = kvMemoryOf(published_configs()[static_cast<std::size_t>(configIndex_)], dtype_, context_);
    } else {
        try {
            AttentionShape shape = attention_shape_of(document()->config(), layers_);
            shape.name = "the current call";
            memory_ = kvMemoryOf(shape, dtype_, context_);
        } catch (...) {
            memory_ = KvMemory{};
            memory_.dtype = dtype_;
            memory_.error = currentFailureSentence();
        }
    }
    Q_EMIT memoryChanged();
}

QStringList KvHeadsState::stepModels()
{
    return {QStringLiteral("h1"), QStringLiteral("h2"), QStringLiteral("h4"), QStringLiteral("h8"),
            QStringLiteral("induction-h4")};
}

void KvHeadsState::setStepModel(const QString& name)
{
    stepModel_ = name;
    prompt_ = KvStepper::examplePrompt(name);
    reopen();
}

void KvHeadsState::setPrompt(const QString& text)
{
    if (text == prompt_)
        return;
    prompt_ = text;
    reopen();
}

void KvHeadsState::reopen()
{
    stepProblem_ = stepper_.open(stepModel_, prompt_);
    Q_EMIT stepChanged();
}

void KvHeadsState::step()
{
    stepProblem_ = stepper_.step();
    Q_EMIT stepChanged();
}

void KvHeadsState::reset()
{
    stepper_.reset();
    stepProblem_.clear();
    Q_EMIT stepChanged();
}

} // namespace attnlab::ui
