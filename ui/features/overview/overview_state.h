#pragma once
// The overview tab's state: every layer's heads of a whole GPT on the text (LayerAttention, model_job.h), computed
// while the tab is shown. An opened checkpoint's run brings them along with the trace; a Verdict GPT, or the text read
// twice over, gets a run of its own.
#include "model/feature_state.h"

#include <QString>

#include <memory>

namespace attnlab::ui {

struct LayerAttention;
struct ModelRunResult;

class OverviewState : public FeatureState {
    Q_OBJECT
public:
    explicit OverviewState(const SessionParts& parts, QObject* parent = nullptr);

    // Every layer's heads on the text, null before the first run.
    std::shared_ptr<const LayerAttention> layerAttention() const { return layerAttention_; }
    QString layerAttentionProblem() const { return error_; }
    bool repeatText() const { return repeatText_; } // the overview reads the text twice over
    void setRepeatText(bool on);
    void openHead(int layer, int head); // that layer and head, in the heatmaps
    bool computing() const override;

Q_SIGNALS:
    void layersChanged(); // a run delivered every layer's heads (or why it could not)

protected:
    void partsChanged(ChangeFlags flags) override;

private:
    void adoptModelRun(const ModelRunResult& result); // the run of an opened checkpoint, which brings them along
    void follow();                                    // asks for the heads when the tab is shown and they are stale

    std::shared_ptr<const LayerAttention> layerAttention_;
    QString error_;
    bool repeatText_ = false;
    bool stale_ = true;
};

} // namespace attnlab::ui
