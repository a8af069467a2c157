#pragma once
// What one lesson step does when asked to show and to check (lessons.h); shared by the files that
// define the lessons' actions.
#include "shell/lessons.h"

#include <vector>

namespace attnlab::ui {

struct LessonActions {
    std::function<void(const LessonContext&)> show;
    std::function<CheckResult(const LessonContext&)> check;
};

// "What do the heads of a trained model do?" (lessons_trained.cpp).
std::vector<LessonActions> trainedHeadsActions();

} // namespace attnlab::ui
