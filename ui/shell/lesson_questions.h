#pragma once
// The guided lessons' steps that have one right answer, as a question for the class (Ask the Class: "Ask the
// lesson's question"): worked out from the settings the step leaves, so the class is asked about what is on the
// screen. The steps that show a stage need none of their own: "Ask the shown stage" asks that stage's shape.
#include "poll/poll_question.h"
#include "shell/lessons.h"

#include <optional>

namespace attnlab::ui {

// nullopt for a step without one (or settings it cannot be asked of: a module without heads, say).
std::optional<poll::Question> lessonClassQuestion(const QString& stepId, const LessonContext& context);

} // namespace attnlab::ui
