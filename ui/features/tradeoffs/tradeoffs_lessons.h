#pragma once
// The guided lesson "Why several heads, and why not too many?" (lesson 9, resources/lessons/several-heads.md): its
// sweep, and the test's way to put a smaller one in its place. Its steps' actions are severalHeadsActions()
// (shell/lessons_detail.h).
#include "features/tradeoffs/sweep_results.h"

#include <optional>

namespace attnlab::ui {

// What Show me trains (and a later step entered directly): the book's GPT on the induction task with 1, 2, 4 and 32
// heads, one seed of 1,000 steps.
SweepSettings severalHeadsLessonSweep();
// Tests train a tiny sweep instead (nullopt: the lesson's own again); the steps' actions read whichever is set.
void setSeveralHeadsLessonSweep(std::optional<SweepSettings> settings);

} // namespace attnlab::ui
