// The Debugging tab's choices, held by the Session (lesson_state.h); each change is one
// ChangeFlag::Lesson, which the views follow and the undo history records.
#include "model/bug_lesson.h"
#include "model/session.h"

#include <array>

namespace attnlab::ui {

void Session::setLessonState(const LessonState& state)
{
    if (state == lessons_)
        return;
    lessons_ = state;
    Q_EMIT changed(ChangeFlag::Lesson);
}

void Session::setDebugSection(DebugSection section)
{
    LessonState s = lessons_;
    s.section = section;
    setLessonState(s);
}

void Session::setBug(Bug bug)
{
    LessonState s = lessons_;
    s.bug = bug;
    setLessonState(s);
}

void Session::setTransferLine(TransferRole role, bool written, bool transpose)
{
    LessonState s = lessons_;
    s.transfer.line(role) = {written, transpose};
    setLessonState(s);
}

void Session::setTransferWidths(std::int64_t d_in, std::int64_t d_out)
{
    LessonState s = lessons_;
    s.transfer.d_in = d_in;
    s.transfer.d_out = d_out;
    setLessonState(s);
}

void Session::setContractCall(std::optional<QString> call)
{
    LessonState s = lessons_;
    s.contractCall = std::move(call);
    setLessonState(s);
}

void Session::setContractInput(std::int64_t d_in, std::int64_t num_tokens)
{
    LessonState s = lessons_;
    s.contractDIn = d_in;
    s.contractTokens = num_tokens;
    setLessonState(s);
}

void Session::resetContract()
{
    LessonState s = lessons_;
    s.contractCall.reset();
    s.contractDIn.reset();
    s.contractTokens.reset();
    setLessonState(s);
}

void Session::refreshContract()
{
    ContractInput input;
    input.d_in = lessons_.contractDIn.value_or(spec_.config.d_in);
    input.num_tokens = lessons_.contractTokens.value_or(spec_.num_tokens);
    const std::string call = lessons_.contractCall.value_or(callText_).toStdString();
    contractReport_ = std::make_shared<const ContractReport>(check_contract(call, input));
}

} // namespace attnlab::ui
