#pragma once
// What one lesson step does when asked to show and to check (lessons.h); shared by the files that
// define the lessons' actions.
#include "shell/lessons.h"

#include <vector>

namespace attnlab::ui {

struct LessonActions {
    QString step; // the id of the step these act for ("## Heading {#id}" in the lesson's Markdown)
    std::function<void(const LessonContext&)> show;
    std::function<CheckResult(const LessonContext&)> check;
    std::vector<LessonTarget> targets;
    std::function<void(const LessonContext&)> needs = {}; // LessonStep::needs (initialised: most steps leave it out)
    QString holds = {};                                   // LessonStep::holds
    std::function<std::optional<poll::Question>(const LessonContext&)> question = {}; // LessonStep::question
};

inline CheckResult pass(const QString& message)
{
    return {true, message};
}
inline CheckResult fail(const QString& message)
{
    return {false, message};
}

inline LessonTarget widgetTarget(const char* name)
{
    return {LessonTarget::Kind::Widget, QLatin1String(name)};
}
inline LessonTarget codeTarget(const char* line)
{
    return {LessonTarget::Kind::CodeLine, QLatin1String(line)};
}
inline LessonTarget diagramTarget(const char* part)
{
    return {LessonTarget::Kind::DiagramPart, QLatin1String(part)};
}
inline LessonTarget cellsTarget(const char* heatmap)
{
    return {LessonTarget::Kind::Cells, QLatin1String(heatmap)};
}

// Whether the step's answer is held back now (GuideState::held): its Show me then sets up the question only.
bool answerHeld(const LessonContext& c, const char* what);

// "What do the heads of a trained model do?" (lessons_trained.cpp).
std::vector<LessonActions> trainedHeadsActions();
// "Why several heads, and why not too many?" (features/tradeoffs/tradeoffs_lessons.cpp).
std::vector<LessonActions> severalHeadsActions();
// "How many key/value heads?" (features/kvheads/kvheads_lessons.cpp).
std::vector<LessonActions> kvHeadsActions();

} // namespace attnlab::ui
