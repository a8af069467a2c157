#pragma once
// The guided lessons: each is a Markdown text in :/lessons (one "## " section per step) plus, per
// step, what "Show me" does to the app and how the student's own attempt is checked. Both act on the
// session (and, for the debugging lessons, on the Debugging tab), never on widgets' internals.
#include <QString>
#include <QStringList>

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

struct LessonStep {
    QString title; // the "## " heading of the section
    QString text;  // the section's Markdown body
    std::function<void(const LessonContext&)> showMe;
    std::function<CheckResult(const LessonContext&)> check;
};

struct Lesson {
    QString id; // "gpt2-split", ...
    QString title;
    std::vector<LessonStep> steps;
};

const std::vector<Lesson>& lessons();
const Lesson* findLesson(const QString& id);
QStringList lessonIds();

// Splits a lesson's Markdown into its title ("# ") and steps ("## "): pairs of heading and body.
std::vector<std::pair<QString, QString>> splitLessonMarkdown(const QString& markdown, QString* title);

} // namespace attnlab::ui
