#pragma once
// What the student does to the stage shown, read from the trace through core (forward/follow.h, lessons/predict.h), so
// no page computes it: the element they follow through the layout steps (the document's selection, here followed in
// the trace) and Predict First -- whether each stage asks before it shows, the answers, the tally (saved in session
// files, never undone). Each change of Predict First is one changed(Predict).
#include "forward/follow.h"
#include "lessons/predict.h"
#include "model/change_events.h"
#include "model/study_state.h"

#include <QObject>
#include <QSet>

#include <optional>

namespace attnlab::ui {

class DocumentModel;
class TraceState;
class ViewModel;

class StudyModel : public QObject {
    Q_OBJECT
public:
    StudyModel(DocumentModel* document, TraceState* trace, ViewModel* view, QObject* parent = nullptr);

    // The selected element in the shown trace: every stage where it lives and what it comes from; null when
    // nothing is selected or the trace has no such element (another module, fewer tokens).
    const ElementFollow* followedElement() const;

    const PredictState& predict() const { return predict_; }
    void setPredictFirst(bool on);
    // The shown stage's question (null without a trace), and whether the stage may be shown: Predict
    // First is off, or the question was answered or revealed.
    const StageQuestion* question() const;
    bool stageRevealed() const;
    // Checks an answer to the shown stage's question; the first answer to a question goes into the tally.
    PredictionCheck answerStage(const StageAnswer& answer);
    const PredictionCheck* lastCheck() const; // the last answer's check, when it was to the shown stage
    // A trained model's heads that differ, at the weights stage: which looks at the previous token (else
    // nullopt). The first pick goes into the tally, as a shape does.
    std::optional<HeadQuestion> headQuestion() const;
    Verdict answerHead(int head);
    const Verdict* lastHeadCheck() const; // the last pick's verdict, when it was to the shown stage
    // The next key: reveals the stage when it waits for a prediction (Predict First), else steps on.
    void nextStage();
    void revealStage(); // shown without an answer (the teacher's next key): nothing goes into the tally
    void resetPredictions();
    void restorePredict(const PredictState& state); // a session file's

Q_SIGNALS:
    void changed(attnlab::ui::ChangeFlags flags);

private:
    QString questionKey() const; // "<canonical call> <stage>" of the shown stage

    DocumentModel* document_;
    TraceState* trace_;
    ViewModel* view_;
    struct FollowCache {
        const Trace* trace = nullptr;
        ElementSelection selection;
        std::optional<ElementFollow> followed;
    };
    mutable FollowCache follow_;
    PredictState predict_;
    QSet<QString> revealed_; // questions shown without an answer, this run only
    std::optional<std::pair<QString, PredictionCheck>> lastCheck_;
    std::optional<std::pair<QString, Verdict>> lastHeadCheck_;
    struct QuestionCache {
        const Trace* trace = nullptr;
        std::string stage;
        std::optional<StageQuestion> question;
    };
    mutable QuestionCache question_;
};

} // namespace attnlab::ui
