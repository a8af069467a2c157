#include "features/session_state.h"

#include "features/poll/poll_state.h"
#include "features/registry.h"
#include "features/session.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include "gpt/model_paths.h"
#include "tensor/error.h"

#include <QCoreApplication>

#include <filesystem>

namespace attnlab::ui {

namespace {

// A session made on another machine (a lesson handout's exercise, say) names the app's own models where they were
// there: a file missing here whose name is one of the shipped models is the shipped one here.
std::string shippedHere(const std::string& path)
{
    std::error_code ec;
    if (path.empty() || std::filesystem::exists(path, ec))
        return path;
    try {
        return resolve_gpt_model(std::filesystem::path(path).filename().string(),
                                 gpt_model_dirs(QCoreApplication::applicationDirPath().toStdString()));
    } catch (const Error&) {
        return path; // not one of them: the reader says the file is missing
    }
}

} // namespace

const SessionFeatures& sessionFeatures()
{
    static const SessionFeatures features = [] {
        SessionFeatures f;
        for (const FeatureInfo& row : featureRegistry()) {
            f.tabs << QLatin1String(row.id);
            if (row.sectionKey)
                f.sections.push_back({row.sectionKey, row.checkSection});
        }
        f.sections.push_back({PollState::kSectionKey, PollState::checkSection}); // Ask the class: a dock, not a tab
        return f;
    }();
    return features;
}

SessionState captureState(const Session& session)
{
    SessionState s;
    s.document = session.document()->document();
    s.view = session.view()->state();
    s.view.presentation = false; // not saved
    s.predict = session.study()->predict();
    s.checkpoint = session.trace()->openedCheckpoint();
    for (const FeatureState* feature : session.features())
        feature->saveSection(s.features);
    session.poll()->saveSection(s.features);
    return s;
}

void applyState(Session& session, const SessionState& saved)
{
    SessionState state = saved;
    state.checkpoint = QString::fromStdString(shippedHere(state.checkpoint.toStdString()));
    state.document.spec.gpt_model_path = shippedHere(state.document.spec.gpt_model_path);
    DocumentModel* document = session.document();
    ViewModel* view = session.view();
    const auto settings = [document, state](const std::string& file) {
        Document restored = state.document;
        if (!state.checkpoint.isEmpty())
            restored.spec.gpt_model_path = file;    // the opened file, which the Text input then goes through
        restored.lessons = document->lessonState(); // applied below, with the selection
        restored.selection = document->selectedElement();
        document->restore(restored);
    };
    const auto place = [view, state] {
        if (!state.view.stage.isEmpty())
            view->setStageByName(state.view.stage); // remembered until the new trace holds it
        // Clamped to the trace's sizes; while one is computing, they apply when it arrives.
        view->setHead(state.view.head);
        view->setBatchIndex(state.view.batchIndex);
    };
    if (state.checkpoint.isEmpty())
        session.trace()->reopenModel({},
                                     settings); // at once, and a checkpoint still loading for another file is dropped
    view->restore(state.view);
    document->setLessonState(state.document.lessons);
    document->setSelectedElement(state.document.selection);
    session.study()->restorePredict(state.predict);
    for (FeatureState* feature : session.features())
        feature->restoreSection(state.features);
    session.poll()->restoreSection(state.features);
    if (state.checkpoint.isEmpty())
        return place();
    // A sweep run under study when it was saved: its kept model, written anew, instead of the file that is gone.
    QString checkpoint = session.feature<TradeoffsState>()->takeReopenedStudy();
    if (checkpoint.isEmpty())
        checkpoint = state.checkpoint;
    // The settings once the checkpoint is in, as File > Open Model opens it: they name its layer.
    session.trace()->reopenModel(checkpoint, [settings, place](const std::string& file) {
        settings(file);
        place();
    });
}

} // namespace attnlab::ui
