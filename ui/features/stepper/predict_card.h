#pragma once
// Predict First: the shown stage's question in place of its picture -- one field per axis (a number or an
// axis name), for a layout step whether it is contiguous and shares storage, for the mask which positions
// it hides, for a trained model's weights which head looks at the previous token -- with Check (Enter) and
// Reveal (the next key). The question and the check come from the
// Session (lessons/predict.h); this widget only asks and shows.
#include <QWidget>

#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QToolButton;

namespace attnlab::ui {

class StepperState;

class PredictCard : public QWidget {
    Q_OBJECT
public:
    explicit PredictCard(StepperState* state, QWidget* parent = nullptr);
    const std::vector<QLineEdit*>& axisFields() const { return axes_; }
    QComboBox* contiguousChoice() const { return contiguous_; }
    QComboBox* sharesChoice() const { return shares_; }
    QComboBox* headChoice() const { return head_; } // null unless the stage asks which head
    const std::vector<QToolButton*>& maskCells() const { return mask_; }
    QPushButton* checkButton() const { return check_; }
    QLabel* givenLabel() const { return given_; }
    QLabel* codeLabel() const { return code_; }

private:
    void rebuild();
    void submit();

    StepperState* state_;
    QLabel* prompt_;
    QLabel* given_; // the settings and the code line the question is answered from
    QLabel* code_;
    QGridLayout* fields_;
    std::vector<QLineEdit*> axes_;
    QComboBox* contiguous_ = nullptr;
    QComboBox* shares_ = nullptr;
    QComboBox* head_ = nullptr;
    std::vector<QToolButton*> mask_;
    QWidget* form_;
    QPushButton* check_;
    QPushButton* reveal_;
    QString shownKey_;
};

// "7 of 9 shapes right", and the last check's verdicts for the shown stage, as the stepper shows them.
QString tallyText(const StepperState& state);
QString verdictText(const StepperState& state);

} // namespace attnlab::ui
