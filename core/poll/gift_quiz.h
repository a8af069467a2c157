#pragma once
// A lesson's questions as a quiz an LMS imports: Moodle's GIFT format (plain text, one question after another,
// a blank line between them). Each field of a Question becomes one GIFT question, because GIFT has one answer
// block a question: a shape's axes are asked one by one (numerical), yes/no as true/false, one of N as multiple
// choice, and a mask's cells as the number of positions it hides (numerical), which GIFT can score.
#include "poll/poll_question.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab::poll {

// GIFT's special characters ~ = # { } : escaped with a backslash, and line breaks as GIFT's "\n".
std::string gift_escape(std::string_view text);

// The questions under `category` ("$CATEGORY: attention-lab/..."), each titled "::<id> <field>::", with the
// context given (the settings, the code line) before the prompt and the explanation as general feedback.
// Throws Error for a question with no field (nothing to score).
std::string gift_quiz(const std::string& category, const std::vector<Question>& questions);

} // namespace attnlab::poll
