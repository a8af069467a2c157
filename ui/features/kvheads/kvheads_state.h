#pragma once
// The Key/value heads tab's state: what the Memory section counts (a published config or the document's own call, its
// layers, dtype and context length; kv_memory.h) and the cache stepped through a shipped GPT (kv_stepper.h). The
// counts are instant and recomputed on every change. The shipped models are 2 layers of width 128 (32 for the
// induction model) reading at most 64 tokens: even the prefill of a whole context is far below the ~50 ms that would
// call for a job, so a step runs here. It keeps nothing in session files.
#include "features/kvheads/kv_memory.h"
#include "features/kvheads/kv_stepper.h"
#include "model/feature_state.h"

#include <QStringList>

namespace attnlab::ui {

class KvHeadsState : public FeatureState {
    Q_OBJECT
public:
    explicit KvHeadsState(const SessionParts& parts, QObject* parent = nullptr);

    // The Memory section's choices: -1 is the current call, else an index into published_configs().
    int configIndex() const { return configIndex_; }
    std::int64_t layers() const { return layers_; } // the current call's layers (a published config has its own)
    KvDtype dtype() const { return dtype_; }
    std::int64_t context() const { return memory_.context; }
    const KvMemory& memory() const { return memory_; }
    void setConfigIndex(int index); // the context follows to the config's context_length
    void setLayers(std::int64_t layers);
    void setDtype(KvDtype dtype);
    void setContext(std::int64_t tokens);

    // The stepped cache: the shipped models it offers, the one open and its prompt.
    static QStringList stepModels(); // "h1", "h2", "h4", "h8", "induction-h4"
    const QString& stepModel() const { return stepModel_; }
    const QString& prompt() const { return prompt_; }
    const QString& stepProblem() const { return stepProblem_; } // why it cannot step, one sentence, or ""
    const KvStepper& stepper() const { return stepper_; }
    void setStepModel(const QString& name); // the prompt becomes the model's example text
    void setPrompt(const QString& text);
    void step();
    void reset();

Q_SIGNALS:
    void memoryChanged();
    void stepChanged();

protected:
    void partsChanged(ChangeFlags flags) override;

private:
    void recount();
    void reopen();

    int configIndex_ = -1;
    std::int64_t layers_ = 12;
    KvDtype dtype_ = KvDtype::BF16;
    std::int64_t context_ = 0; // asked for; memory_.context is it clamped to the config
    KvMemory memory_;
    QString stepModel_, prompt_, stepProblem_;
    KvStepper stepper_;
};

} // namespace attnlab::ui
