#pragma once
// The guided lessons: each is a Markdown text in :/lessons (one "## " section per step) plus, per
// step, what "Show me" does to the app and how the student's own attempt is checked. Both act on the
// session (and, for the debugging lessons, on the Debugging tab), never on widgets' internals.
#include <QString>
#include <QStringList>

class QWidget;

#include <functional>
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
    QString title; // the "## " heading of the section
    QString text;  // the section's Markdown body
    std::function<void(const LessonContext&)> showMe;
    std::function<CheckResult(const LessonContext&)> check;
    std::vector<LessonTarget> targets;
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

// Splits a lesson's Markdown into its title ("# ") and steps ("## "): pairs of heading and body.
std::vector<std::pair<QString, QString>> splitLessonMarkdown(const QString& markdown, QString* title);

} // namespace attnlab::ui
