#pragma once
// The guided lessons: each is a Markdown text in :/lessons (one "## " section per step) plus, per
// step, what "Show me" does to the app and how the student's own attempt is checked. Both act on the
// session (and, for the debugging lessons, on the Debugging tab), never on widgets' internals.
#include "poll/poll_question.h"

#include <QString>
#include <QStringList>

class QWidget;

#include <functional>
#include <optional>
#include <vector>

namespace attnlab::ui {

class MainWindow;
class Session;

struct LessonContext {
    Session* session = nullptr;
    MainWindow* window = nullptr; // may be null (tests of the checks alone)
};

struct CheckResult {
    bool passed = false;
    QString message; // one sentence: what is right, or what to change
};

// What a step points the student at. It must be in view without scrolling and at the type size or
// larger, on a projector too (test_ui_lesson_targets walks every step); presentation mode keeps the
// settings column while a step points into it.
struct LessonTarget {
    enum class Kind {
        Widget,      // name: an object name; "prefix*" is the first shown widget whose name starts so
        CodeLine,    // name: text on a line of the stepper's source view
        DiagramPart, // name: "blocks", "strides" or "badges" of the shape diagram
        Cells,       // name: a heatmap's object name, as for Widget: its whole matrix
    };
    Kind kind = Kind::Widget;
    QString name;
};

struct LessonStep {
    QString id;    // "fill-slots": the {#id} its "## " heading ends with, which its actions name
    QString title; // the "## " heading of the section, without the id
    QString text;  // the section's Markdown body
    std::function<void(const LessonContext&)> showMe;
    std::function<CheckResult(const LessonContext&)> check;
    std::vector<LessonTarget> targets;
    // What the earlier steps would have left (the preset, the call, a trained model), built when the step is entered
    // directly -- from the dock or --guide-step -- so that its Show me then makes its check pass. Leaves alone what
    // already is so: null when the step needs nothing.
    std::function<void(const LessonContext&)> needs;
    // The answer this step can hold back until the teacher reveals it (GuideState::held): "divergence" (the
    // first-divergence verdict and row), "diagnosis" (the settings' diagnostics); empty when it has none.
    QString holds;
    // The step's own question for the class (Ask the Class, lesson handouts), worked out from what its Show me left:
    // null when it has none (the shown stage is asked instead); nullopt from it while there is no answer yet.
    std::function<std::optional<poll::Question>(const LessonContext&)> question;
};

struct Lesson {
    QString id; // "gpt2-split", ...
    QString title;
    std::vector<LessonStep> steps;
};

const std::vector<Lesson>& lessons();
const Lesson* findLesson(const QString& id);
QStringList lessonIds();

// True when one of the step's targets is a widget inside `container` (of `window`'s widgets).
bool stepPointsInto(const LessonStep& step, const QWidget* container);

// One "## Heading {#id}" section of a lesson's Markdown.
struct LessonSection {
    QString id; // empty when the heading has no {#id}
    QString title;
    QString text;
};
// Splits a lesson's Markdown into its title ("# ") and steps ("## ").
std::vector<LessonSection> splitLessonMarkdown(const QString& markdown, QString* title);

// Where the lesson texts and their actions do not meet, one sentence each: a step without an id, an id
// given twice, actions naming a step no text has. Steps are paired with their actions by id, so an added
// section shifts nothing, but a misspelt id would leave a step without its Show me: the tests ask this.
QStringList lessonTableProblems();

} // namespace attnlab::ui
