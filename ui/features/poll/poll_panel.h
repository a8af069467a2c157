#pragma once
// Ask the class, on the projector: before a poll, where to listen; during it, the QR code, the address and the
// room code, the question, "23 of 41 answered", the class's bars once the teacher shows them (hidden first, so
// the first answers do not steer the rest), and the teacher's steps: show, vote again, close, reveal.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace attnlab::ui {

class PollState;
class TallyChart;

class PollPanel : public QWidget {
    Q_OBJECT
public:
    explicit PollPanel(PollState* poll, QWidget* parent = nullptr);

    void setAskError(const QString& sentence);       // why the shown stage cannot be asked, said inline
    void setLessonQuestionAvailable(bool available); // "Ask the lesson's question" shown
    QSize sizeHint() const override;                 // a third of a projector's width: the stage keeps the rest

Q_SIGNALS:
    void askStageRequested();
    void askChoiceRequested();
    void askLessonRequested();
    void exportRequested();

private:
    void start();
    void refresh();
    QWidget* buildStart();
    QWidget* buildRunning();

    PollState* poll_;
    QStackedWidget* pages_;
    QComboBox* address_;
    QSpinBox* port_;
    QLabel* startError_;
    QLabel *qr_, *join_, *code_, *prompt_, *count_, *hidden_, *message_, *named_;
    QCheckBox* names_;
    QPushButton* askLesson_;
    QPushButton *show_, *again_, *close_, *reveal_;
    TallyChart* chart_;
    bool refreshQueued_ = false;
};

} // namespace attnlab::ui
