#pragma once
// The followed element in words, under the values: its value, every stage where the same number lives
// (with the offset arithmetic) and what it was computed from. All of it from Session::followedElement(),
// which core computes; a label a screen reader reads, and a button that lets go of the element.
#include <QWidget>

class QLabel;
class QPushButton;

namespace attnlab::ui {

class StepperState;

class FollowPanel : public QWidget {
    Q_OBJECT
public:
    explicit FollowPanel(StepperState* state, QWidget* parent = nullptr);
    QLabel* text() const { return text_; }

private:
    void refresh();

    StepperState* state_;
    QLabel* text_;
    QPushButton* clear_;
};

// The sentences FollowPanel shows, plain text (also its accessible description).
QString followedText(const StepperState& state);

} // namespace attnlab::ui
