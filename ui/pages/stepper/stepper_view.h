#pragma once
// The "step through the forward pass" page: stage list, the shape diagram, the source with the
// current line, and the values.
#include <QWidget>

namespace attnlab::ui {

class FollowPanel;
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

private:
    StageStepper* stepper_;
    ShapeDiagramWidget* diagram_;
    SourceView* source_;
    TensorGrid* grid_;
    FollowPanel* follow_;
};

} // namespace attnlab::ui
