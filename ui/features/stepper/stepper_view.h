#pragma once
// The "step through the forward pass" page: stage list, the shape diagram, the source with the
// current line, and the values.
#include <QWidget>

class QLabel;
class QSplitter;
class QStackedWidget;

namespace attnlab::ui {

class FollowPanel;
class PredictCard;
class StepperState;
class ShapeDiagramWidget;
class SourceView;
class StageStepper;
class TensorGrid;

class StepperView : public QWidget {
    Q_OBJECT
public:
    explicit StepperView(StepperState* state, QWidget* parent = nullptr);
    StageStepper* stepper() const { return stepper_; }
    ShapeDiagramWidget* diagram() const { return diagram_; }
    SourceView* source() const { return source_; }
    TensorGrid* grid() const { return grid_; }
    FollowPanel* follow() const { return follow_; }
    PredictCard* predictCard() const { return predict_; }
    QLabel* tally() const { return tally_; }
    QLabel* verdict() const { return verdict_; }
    bool showsQuestion() const;
    // On a projector the diagram (or the question) takes most of the height and the code the rest, at
    // the page's whole width so its line wraps the least; the values (a grid of numbers nobody reads from
    // the back of a room) wait for the desk, where the splits are what they were.
    void setPresenting(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showPrediction(const StepperState& state);
    void fitStageList();

    StageStepper* stepper_;
    ShapeDiagramWidget* diagram_;
    SourceView* source_;
    TensorGrid* grid_;
    FollowPanel* follow_;
    PredictCard* predict_;
    QStackedWidget* pages_;
    QSplitter* split_; // the stage above, the code and values below
    QList<int> deskSizes_;
    bool presenting_ = false;
    QWidget* tallyRow_;
    QLabel* tally_;
    QLabel* verdict_;
};

} // namespace attnlab::ui
