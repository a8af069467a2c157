#pragma once
// The "step through the forward pass" page: stage list, the shape diagram, the source with the
// current line, and the values.
#include <QWidget>

class QLabel;
class QStackedWidget;

namespace attnlab::ui {

class FollowPanel;
class PredictCard;
class Session;
class ShapeDiagramWidget;
class SourceView;
class StageStepper;
class TensorGrid;

class StepperView : public QWidget {
    Q_OBJECT
public:
    explicit StepperView(Session* session, QWidget* parent = nullptr);
    StageStepper* stepper() const { return stepper_; }
    ShapeDiagramWidget* diagram() const { return diagram_; }
    SourceView* source() const { return source_; }
    TensorGrid* grid() const { return grid_; }
    FollowPanel* follow() const { return follow_; }
    PredictCard* predictCard() const { return predict_; }
    QLabel* tally() const { return tally_; }
    QLabel* verdict() const { return verdict_; }
    bool showsQuestion() const;

private:
    void showPrediction(const Session& session);

    StageStepper* stepper_;
    ShapeDiagramWidget* diagram_;
    SourceView* source_;
    TensorGrid* grid_;
    FollowPanel* follow_;
    PredictCard* predict_;
    QStackedWidget* pages_;
    QWidget* tallyRow_;
    QLabel* tally_;
    QLabel* verdict_;
};

} // namespace attnlab::ui
