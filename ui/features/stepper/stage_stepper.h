#pragma once
// The canonical stages in forward order, with Previous / Next. The keyboard and presentation-clicker
// keys are bound by the main window, so they work wherever the focus is not in a text field.
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace attnlab::ui {

class StepperState;

class StageStepper : public QWidget {
    Q_OBJECT
public:
    explicit StageStepper(StepperState* state, QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }
    QPushButton* nextButton() const { return next_; }
    // As wide as its widest line at the current type size (presentation type makes the title and the
    // key hint wider than the 205 px the column used to be fixed at).
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }
    static constexpr int kNarrowest = 205; // the column's width at desktop type

private:
    void refresh(bool rebuild);

    StepperState* state_;
    QListWidget* list_;
    QPushButton* previous_;
    QPushButton* next_;
    QLabel* position_;
    QLabel* title_;
    QLabel* keys_;
};

} // namespace attnlab::ui
