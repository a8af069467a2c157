#pragma once
// A trained sweep's table as a question for the class (lessons 9 and 10: Ask the Class, lesson handouts): which of
// its variants reached the best held-out accuracy. Every variant whose mean is within the best one's spread over
// its seeds (one sample standard deviation) counts as right too: the seeds cannot tell them apart, and a class
// that picked one of them is not wrong.
#include "features/tradeoffs/sweep_results.h"
#include "poll/poll_question.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::ui {

// nullopt for fewer than 2 rows or more than a multiple choice holds. `id` names the step ("lesson:read-table");
// `grouped` names the variants by their key/value heads as the page does.
std::optional<poll::Question> bestVariantQuestion(const std::string& id, const std::vector<SweepRow>& rows,
                                                  bool grouped);

} // namespace attnlab::ui
