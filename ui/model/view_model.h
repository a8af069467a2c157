#pragma once
// Where the student looks (model/view_state.h), held for the window and kept within the trace on screen: the stage by
// its name across shape changes, the head and batch element clamped to the trace's sizes (asked for while a trace
// computes, they apply when it arrives), the heatmaps' cell within its tokens. Each change is one changed(): Stage,
// Head, View, Guide or Cell. Never undone, saved in session files.
#include "model/change_events.h"
#include "model/view_state.h"

#include <QObject>

#include <memory>

namespace attnlab::ui {

class DocumentModel;
class TraceState;

class ViewModel : public QObject {
    Q_OBJECT
public:
    ViewModel(const DocumentModel* document, const TraceState* trace, QObject* parent = nullptr);

    // The whole value, the stage by the name of the one shown (a session file's "view").
    ViewState state() const;
    // A session file's: the stage, head and batch element as soon as the trace holds them.
    void restore(const ViewState& state);

    ViewMode tab() const { return view_.tab; }
    void setTab(ViewMode tab);

    int stageIndex() const { return stageIndex_; }
    const Stage* stage() const; // of the trace on screen; null without one
    void setStageIndex(int index);
    // Remembered, so it applies to a trace still being computed; false when the trace shown has no such stage.
    bool setStageByName(const QString& name);
    void previousStage() { setStageIndex(stageIndex_ - 1); }

    int head() const { return view_.head; }
    void setHead(int head);
    int headCount() const; // of the trace: heads of the module, 1 for single-head modules
    int batchIndex() const { return view_.batchIndex; }
    int batchCount() const; // sequences in the trace's input
    void setBatchIndex(int index);

    AttentionMatrix heatmapKind() const { return view_.heatmapKind; }
    void setHeatmapKind(AttentionMatrix kind);
    HeatmapScaleMode heatmapScale() const { return view_.heatmapScale; }
    void setHeatmapScale(HeatmapScaleMode mode);
    HeatmapCell heatmapCell() const { return view_.heatmapCell; }
    void setHeatmapCell(HeatmapCell cell); // kept within the trace's matrices
    TradeoffsSection tradeoffsSection() const { return view_.tradeoffsSection; }
    void setTradeoffsSection(TradeoffsSection section);
    DebugSection debugSection() const { return view_.debugSection; }
    void setDebugSection(DebugSection section);
    const GuideState& guide() const { return view_.guide; }
    void setGuide(const GuideState& guide);
    void revealAnswer(); // the current step's held-back answer shown (the Reveal buttons)
    bool presentation() const { return view_.presentation; }
    void setPresentation(bool on);

Q_SIGNALS:
    void changed(attnlab::ui::ChangeFlags flags);

private:
    void adoptTrace(); // a new trace: the stage by name, the wished head and batch element clamped to it

    const DocumentModel* document_;
    const TraceState* traceState_;
    std::shared_ptr<const Trace> trace_; // the trace the view is clamped to
    ViewState view_;                     // view_.stage: the name asked for, kept across traces
    int stageIndex_ = 0;
    int wantedHead_ = 0; // what setHead() asked for, applied to the next trace
    int wantedBatch_ = 0;
};

} // namespace attnlab::ui
