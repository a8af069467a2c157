#pragma once
// The presenter view, as presentation software has it: with a projector beside the laptop, the projector shows
// the app (presentation mode) and the laptop this window, for the teacher's eyes only: the lesson step's text,
// the step that comes next, the class's answers as they arrive (before the room sees them, so the teacher can
// decide whether to show them, ask again or reveal), the time since the view opened, and the controls for all
// of it, so the teacher never has to reach for the projected window.
#include <QElapsedTimer>
#include <QWidget>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace attnlab::ui {

class LessonsPanel;
class PollState;
class TallyChart;

class PresenterView : public QWidget {
    Q_OBJECT
public:
    PresenterView(LessonsPanel* lessons, PollState* poll, QWidget* parent = nullptr);

    // What the tests read.
    QLabel* lessonHeading() const { return lessonHeading_; }
    QLabel* stepHeading() const { return stepHeading_; }
    QTextBrowser* stepText() const { return text_; }
    QLabel* nextHeading() const { return next_; }
    QLabel* checkResult() const { return result_; }
    QLabel* classPrompt() const { return prompt_; }
    QLabel* classCount() const { return count_; }
    QLabel* classState() const { return classState_; }
    QLabel* clock() const { return clock_; }
    QPushButton* previousButton() const { return previous_; }
    QPushButton* nextButton() const { return nextStep_; }
    QPushButton* showMeButton() const { return showMe_; }
    QPushButton* checkButton() const { return check_; }
    QPushButton* revealStepButton() const { return revealStep_; } // a lesson step's held-back answer
    QPushButton* showClassButton() const { return showClass_; }
    QPushButton* voteAgainButton() const { return again_; }
    QPushButton* revealButton() const { return reveal_; }
    TallyChart* tally() const { return chart_; }
    void restartClock();

private:
    QWidget* buildLesson();
    QWidget* buildClass();
    void refreshLesson();
    void refreshHeld();
    void refreshClass();
    void tick();

    LessonsPanel* lessons_;
    PollState* poll_;
    QLabel *lessonHeading_, *stepHeading_, *next_, *result_;
    QTextBrowser* text_;
    QPushButton *previous_, *nextStep_, *showMe_, *check_, *revealStep_;
    QLabel *prompt_, *count_, *classState_, *clock_;
    QPushButton *showClass_, *again_, *reveal_;
    TallyChart* chart_;
    QTimer* ticker_;
    QElapsedTimer since_;
};

} // namespace attnlab::ui
