#pragma once
// Ask the class, wired into the window: View > Ask the Class (Ctrl+Shift+K) shows its dock (poll_panel.h), the
// questions come from what the window shows (the stage's Predict First question, the trained-heads question) or
// from the teacher (a multiple choice), Reveal shows the stage as Predict First does, and the launch options
// --ask-class, --class-address, --class-port, --class-code and --class-log open a poll at start.
#include "poll/poll_question.h"

#include <QObject>

#include <functional>
#include <optional>

class QAction;
class QCommandLineParser;
class QDockWidget;

namespace attnlab::ui {

class PollPanel;
class PollState;
class Session;

void addPollOptions(QCommandLineParser& parser);

class PollActions : public QObject {
    Q_OBJECT
public:
    PollActions(QWidget* window, Session* session, QObject* parent = nullptr);

    PollState* state() const { return state_; }
    QDockWidget* dock() const { return dock_; }
    QAction* toggleAction() const;

    // --ask-class and its options: opens the poll, prints the join address on standard output and asks the shown
    // question once the window has it. False with one sentence in *error for an option that cannot be used.
    bool startFromCommandLine(const QCommandLineParser& parser, QString* error);

    // The shown stage's question (the trained-heads question where the stage has one); false, saying why
    // inline, when the stage has none (no trace yet, settings in error).
    bool askShownStage();
    bool askChoice(const QString& prompt, const QStringList& choices, int right, QString* error);

    // The guided lesson's step on screen, when it has a question with one right answer (the shell gives it: the
    // lessons are the shell's); the dock offers "Ask the lesson's question" while it gives one.
    using LessonQuestion = std::function<std::optional<poll::Question>()>;
    void setLessonQuestion(LessonQuestion question);
    void lessonStepChanged(); // the shell says the step on screen changed
    bool askLessonQuestion();

private:
    void chooseAndAsk();
    void exportCsv();

    QWidget* window_;
    Session* session_;
    PollState* state_;
    PollPanel* panel_;
    QDockWidget* dock_;
    LessonQuestion lessonQuestion_;
};

} // namespace attnlab::ui
