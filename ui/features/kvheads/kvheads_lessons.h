#pragma once
// The guided lesson "How many key/value heads?" (lesson 10, resources/lessons/kv-heads.md): its sweep, and the test's
// way to put a smaller one in its place. Its steps' actions are kvHeadsActions() (shell/lessons_detail.h).
#include "features/tradeoffs/sweep_results.h"

#include <optional>

namespace attnlab::ui {

// What Show me trains: the book's GPT on the induction task at emb 32, 2 layers, 8 heads sharing 8, 4, 2 and 1
// key/value heads, 2 seeds of 1,500 steps -- chosen by measurement (docs/training.md, "How many key/value heads?"):
// about a minute on two cores, and the shared heads fall behind by more than the seeds' spread.
SweepSettings kvHeadsLessonSweep();
// Tests train a tiny sweep instead (nullopt: the lesson's own again); the steps' actions read whichever is set.
void setKvHeadsLessonSweep(std::optional<SweepSettings> settings);

} // namespace attnlab::ui
