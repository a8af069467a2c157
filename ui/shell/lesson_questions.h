#pragma once
// The guided lessons' steps that have one right answer, as a question for the class (Ask the Class: "Ask the
// lesson's question"; Lessons > Export Handout…): each step declares its own (LessonStep::question), worked out
// from the settings the step leaves, so the class is asked about what is on the screen. The steps that show a stage
// need none of their own: "Ask the shown stage" asks that stage's shape. The shell's lessons' questions are here;
// a feature's lesson declares its questions with its actions (features/<tab>/<tab>_lessons.cpp).
#include "poll/poll_question.h"
#include "shell/lessons.h"

#include <optional>

namespace attnlab::ui {

// The step's question; nullopt for a step without one (or settings it cannot be asked of: a module without heads).
std::optional<poll::Question> lessonClassQuestion(const QString& stepId, const LessonContext& context);

// Lesson 1: whether num_heads splits d_out ("break-split"), then what head_dim is ("mend-split").
std::optional<poll::Question> breakSplitQuestion(const LessonContext& c);
std::optional<poll::Question> mendSplitQuestion(const LessonContext& c);
// Lesson 3: whether .view() could merge the heads without .contiguous() ("contiguous-first").
std::optional<poll::Question> contiguousQuestion(const LessonContext& c);
// Lesson 4: how many features the wrapper returns ("stack-heads").
std::optional<poll::Question> stackHeadsQuestion(const LessonContext& c);
// Lesson 5: where the forward with the injected bug first parts from the book's, six stages to choose from.
std::optional<poll::Question> firstDivergenceQuestion(const LessonContext& c);
// Lesson 6: which slot 1024 fills in `swappedCall` as written (nothing once the call is mended).
std::optional<poll::Question> swappedSlotQuestion(const LessonContext& c, const char* swappedCall);
// Lesson 7: whether an nn.Linear weight can be copied into SelfAttention_v1 without .T.
std::optional<poll::Question> transposeQuestion(const LessonContext& c);

} // namespace attnlab::ui
