#pragma once
// The guided-lessons dock: pick a lesson, read one step at a time, let the app "Show me", then try
// it yourself and press Check. A thin widget over lessons.h; where the student is, and which steps
// they passed, is the Session's (Session::guide()).
#include "model/view_state.h"
#include "shell/lessons.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace attnlab::ui {

class LessonsPanel : public QWidget {
    Q_OBJECT
public:
    LessonsPanel(Session* session, MainWindow* window, QWidget* parent = nullptr);
    // Enter a lesson at its start, or a step of the lesson shown: what the step needs is built (LessonStep::needs)
    // and its answer held back when the teacher holds answers (GuideState::held).
    bool setLesson(const QString& id);
    void setStep(int step);
    int step() const { return step_; }
    const Lesson* lesson() const { return lesson_; }
    const LessonStep* currentStep() const; // null without a lesson
    void showMe();
    CheckResult check();
    void reveal();           // the step's held-back answer shown
    bool answerHeld() const; // the step's answer is held back now (GuideState::held)
    // A session opened at a step: its answer is held back again when answers are held, as entering the step holds
    // it (nothing else is built: the session has the state).
    void holdAgain();
    QLabel* resultLabel() const { return result_; }
    QPushButton* revealButton() const { return reveal_; }
    QCheckBox* holdAnswersBox() const { return hold_; }

Q_SIGNALS:
    void stepShown(); // another lesson or step is on the panel
    void shownMe();   // the step's "Show me" set the app up
    void heldShown(); // whether the step's answer is held back may have changed (revealButton says)

private:
    void followSession();
    void refresh();
    void showHeld(); // the Reveal button and the hold box as the guide says
    void enter(GuideState guide);

    LessonContext context_;
    const Lesson* lesson_ = nullptr;
    int step_ = 0;
    QComboBox* choice_;
    QLabel* heading_;
    QTextBrowser* text_;
    QPushButton* previous_;
    QPushButton* next_;
    QPushButton* showMe_;
    QPushButton* check_;
    QPushButton* reveal_;
    QCheckBox* hold_;
    QLabel* result_;
};

} // namespace attnlab::ui
