// The element the student follows and Predict First: state the Session keeps, read from the shown trace
// through core (forward/follow.h, lessons/predict.h), so no page computes either.
#include "model/study_model.h"

#include "call/call_parser.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "tensor/error.h"

namespace attnlab::ui {

StudyModel::StudyModel(DocumentModel* document, TraceState* trace, ViewModel* view, QObject* parent)
    : QObject(parent), document_(document), trace_(trace), view_(view)
{
}

const ElementFollow* StudyModel::followedElement() const
{
    const ElementSelection& selection = document_->selectedElement();
    const std::shared_ptr<const Trace> trace = trace_->trace();
    if (selection.empty() || !trace)
        return nullptr;
    if (follow_.trace != trace.get() || follow_.selection != selection) {
        follow_ = {trace.get(), selection, std::nullopt};
        try {
            follow_.followed = follow_element(*trace, selection.stage.toStdString(), selection.coordinates());
        } catch (const Error&) {
            // not in this trace: nothing is followed until the student picks an element of it
        }
    }
    return follow_.followed ? &*follow_.followed : nullptr;
}

void StudyModel::setPredictFirst(bool on)
{
    if (on == predict_.on)
        return;
    predict_.on = on;
    Q_EMIT changed(ChangeFlag::Predict);
}

QString StudyModel::questionKey() const
{
    const Stage* s = view_->stage();
    const std::shared_ptr<const Trace> trace = trace_->trace();
    return trace && s ? QString::fromStdString(canonical_call(trace->config) + " " + s->name) : QString();
}

const StageQuestion* StudyModel::question() const
{
    const Stage* s = view_->stage();
    const std::shared_ptr<const Trace> trace = trace_->trace();
    if (!trace || !s)
        return nullptr;
    if (question_.trace != trace.get() || question_.stage != s->name)
        question_ = {trace.get(), s->name, question_for(*trace, s->name)};
    return &*question_.question;
}

bool StudyModel::stageRevealed() const
{
    const QString key = questionKey();
    return !predict_.on || key.isEmpty() || predict_.answers.contains(key) || revealed_.contains(key);
}

PredictionCheck StudyModel::answerStage(const StageAnswer& answer)
{
    const StageQuestion* q = question();
    if (!q)
        return {};
    PredictionCheck check = check_prediction(*trace_->trace(), *q, answer);
    const QString key = questionKey();
    if (!predict_.answers.contains(key) && !revealed_.contains(key))
        predict_.answers.insert(key, check.all_right());
    revealed_.insert(key);
    lastCheck_ = std::pair{key, check};
    Q_EMIT changed(ChangeFlag::Predict);
    return check;
}

const PredictionCheck* StudyModel::lastCheck() const
{
    return lastCheck_ && lastCheck_->first == questionKey() ? &lastCheck_->second : nullptr;
}

std::optional<HeadQuestion> StudyModel::headQuestion() const
{
    const Stage* s = view_->stage();
    const std::shared_ptr<const Trace> trace = trace_->trace();
    return trace && s ? head_question_for(*trace, s->name, trace_->headMeasures(view_->batchIndex())) : std::nullopt;
}

Verdict StudyModel::answerHead(int head)
{
    const std::optional<HeadQuestion> q = headQuestion();
    if (!q)
        return {};
    const Verdict verdict = check_head_pick(*q, head);
    const QString key = questionKey() + QStringLiteral(" head");
    if (!predict_.answers.contains(key))
        predict_.answers.insert(key, verdict.right);
    lastHeadCheck_ = std::pair{questionKey(), verdict};
    Q_EMIT changed(ChangeFlag::Predict);
    return verdict;
}

const Verdict* StudyModel::lastHeadCheck() const
{
    return lastHeadCheck_ && lastHeadCheck_->first == questionKey() ? &lastHeadCheck_->second : nullptr;
}

void StudyModel::nextStage()
{
    if (!stageRevealed())
        revealStage();
    else
        view_->setStageIndex(view_->stageIndex() + 1);
}

void StudyModel::revealStage()
{
    const QString key = questionKey();
    if (key.isEmpty() || stageRevealed())
        return;
    revealed_.insert(key);
    Q_EMIT changed(ChangeFlag::Predict);
}

void StudyModel::resetPredictions()
{
    if (predict_.answers.isEmpty() && revealed_.isEmpty())
        return;
    predict_.answers.clear();
    revealed_.clear();
    lastCheck_.reset();
    lastHeadCheck_.reset();
    Q_EMIT changed(ChangeFlag::Predict);
}

void StudyModel::restorePredict(const PredictState& state)
{
    if (state == predict_)
        return;
    predict_ = state;
    revealed_.clear();
    Q_EMIT changed(ChangeFlag::Predict);
}

} // namespace attnlab::ui
