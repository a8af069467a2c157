// Taking the state out of a session and putting it back: the half of session_file.h that touches
// the live Session (the JSON half is in session_file.cpp).
#include "model/session_file.h"

#include "model/model_job.h"
#include "model/recording_compare.h"
#include "model/sweep_job.h"

#include <memory>

namespace attnlab::ui {

SessionState captureState(const Session& session)
{
    SessionState s;
    s.spec = session.spec();
    s.callText = session.callText();
    s.bookInput = session.prefersBookInput();
    if (const Stage* stage = session.stage())
        s.stage = QString::fromStdString(stage->name);
    s.head = session.head();
    s.batchIndex = session.batchIndex();
    s.view = session.view();
    s.heatmapKind = session.heatmapKind();
    s.heatmapScale = session.heatmapScale();
    s.tradeoffsSection = session.tradeoffsSection();
    s.lessons = session.lessonState();
    s.guide = session.guide();
    s.selection = session.selectedElement();
    s.predict = session.predict();
    if (session.usesOpenedModel())
        s.checkpoint = QString::fromStdString(session.modelJob()->model()->plan.file);
    if (session.comparison()->hasResult()) {
        s.comparedRecording = session.comparison()->path();
        s.comparedNumHeads = session.comparison()->numHeads();
    }
    if (session.sweep()->hasResults()) // while training: what the runs have reached so far
        s.sweep = session.sweep()->results();
    return s;
}

void applyState(Session& session, const SessionState& state)
{
    const auto settings = [&session, state](const std::string& file) {
        ExperimentSpec spec = state.spec;
        if (!state.checkpoint.isEmpty())
            spec.gpt_model_path = file; // the opened file, which the Text input then goes through
        session.restoreSettings(spec, state.callText, state.bookInput);
    };
    const auto place = [&session, state] {
        if (!state.stage.isEmpty())
            session.setStageByName(state.stage); // remembered until the new trace holds it
        // Clamped to the trace's sizes; while one is computing, the session applies them when it arrives.
        session.setHead(state.head);
        session.setBatchIndex(state.batchIndex);
    };
    if (state.checkpoint.isEmpty())
        session.reopenModel({}, settings); // at once, and a checkpoint still loading for another file is dropped
    session.setHeatmapKind(state.heatmapKind);
    session.setView(state.view);
    session.setHeatmapScale(state.heatmapScale);
    session.setTradeoffsSection(state.tradeoffsSection);
    session.setLessonState(state.lessons);
    session.setGuide(state.guide);
    session.setSelectedElement(state.selection);
    session.restorePredict(state.predict);
    SweepJob* sweep = session.sweep();
    const bool sameSweep = state.sweep ? sweep->hasResults() && *state.sweep == sweep->results() : !sweep->hasResults();
    if (!sameSweep || sweep->busy()) // a file replaces the session, a sweep in training too
        sweep->restore(state.sweep);
    if (!state.comparedRecording.isEmpty() && state.comparedRecording != session.comparison()->path())
        session.comparison()->open(state.comparedRecording, state.comparedNumHeads);
    if (state.checkpoint.isEmpty())
        return place();
    // The settings once the checkpoint is in, as File > Open Model opens it: they name its layer.
    session.reopenModel(state.checkpoint, [settings, place](const std::string& file) {
        settings(file);
        place();
    });
}

} // namespace attnlab::ui
