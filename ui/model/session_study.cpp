// The element the student follows and Predict First: state the Session keeps, read from the shown trace
// through core (forward/follow.h, lessons/predict.h), so no page computes either.
#include "call/call_parser.h"
#include "model/session.h"
#include "tensor/error.h"

namespace attnlab::ui {

void Session::setSelectedElement(const ElementSelection& selection)
{
    if (selection == selection_)
        return;
    selection_ = selection;
    Q_EMIT changed(ChangeFlag::Selection);
}

const ElementFollow* Session::followedElement() const
{
    if (selection_.empty() || !trace_)
        return nullptr;
    if (follow_.trace != trace_.get() || follow_.selection != selection_) {
        follow_ = {trace_.get(), selection_, std::nullopt};
        try {
            follow_.followed = follow_element(*trace_, selection_.stage.toStdString(), selection_.coordinates());
        } catch (const Error&) {
            // not in this trace: nothing is followed until the student picks an element of it
        }
    }
    return follow_.followed ? &*follow_.followed : nullptr;
}

void Session::setPredictFirst(bool on)
{
    if (on == predict_.on)
        return;
    predict_.on = on;
    Q_EMIT changed(ChangeFlag::Predict);
}

QString Session::questionKey() const
{
    const Stage* s = stage();
    return trace_ && s ? QString::fromStdString(canonical_call(trace_->config) + " " + s->name) : QString();
}

const StageQuestion* Session::question() const
{
    const Stage* s = stage();
    if (!trace_ || !s)
        return nullptr;
    if (question_.trace != trace_.get() || question_.stage != s->name)
        question_ = {trace_.get(), s->name, question_for(*trace_, s->name)};
    return &*question_.question;
}

bool Session::stageRevealed() const
{
    const QString key = questionKey();
    return !predict_.on || key.isEmpty() || predict_.answers.contains(key) || revealed_.contains(key);
}

PredictionCheck Session::answerStage(const StageAnswer& answer)
{
    const StageQuestion* q = question();
    if (!q)
        return {};
    PredictionCheck check = check_prediction(*trace_, *q, answer);
    const QString key = questionKey();
    if (!predict_.answers.contains(key) && !revealed_.contains(key))
        predict_.answers.insert(key, check.all_right());
    revealed_.insert(key);
    lastCheck_ = std::pair{key, check};
    Q_EMIT changed(ChangeFlag::Predict);
    return check;
}

const PredictionCheck* Session::lastCheck() const
{
    return lastCheck_ && lastCheck_->first == questionKey() ? &lastCheck_->second : nullptr;
}

std::optional<HeadQuestion> Session::headQuestion() const
{
    const Stage* s = stage();
    return trace_ && s ? head_question_for(*trace_, s->name, headMeasures()) : std::nullopt;
}

Verdict Session::answerHead(int head)
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

const Verdict* Session::lastHeadCheck() const
{
    return lastHeadCheck_ && lastHeadCheck_->first == questionKey() ? &lastHeadCheck_->second : nullptr;
}

void Session::nextStage()
{
    if (!stageRevealed())
        revealStage();
    else
        setStageIndex(stageIndex_ + 1);
}

void Session::revealStage()
{
    const QString key = questionKey();
    if (key.isEmpty() || stageRevealed())
        return;
    revealed_.insert(key);
    Q_EMIT changed(ChangeFlag::Predict);
}

void Session::resetPredictions()
{
    if (predict_.answers.isEmpty() && revealed_.isEmpty())
        return;
    predict_.answers.clear();
    revealed_.clear();
    lastCheck_.reset();
    lastHeadCheck_.reset();
    Q_EMIT changed(ChangeFlag::Predict);
}

void Session::restorePredict(const PredictState& state)
{
    if (state == predict_)
        return;
    predict_ = state;
    revealed_.clear();
    Q_EMIT changed(ChangeFlag::Predict);
}

} // namespace attnlab::ui
