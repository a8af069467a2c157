#include "pages/stepper/stepper_view.h"

#include "widgets/follow_panel.h"
#include "widgets/shape_diagram_widget.h"
#include "widgets/source_view.h"
#include "widgets/stage_stepper.h"
#include "widgets/tensor_grid.h"

#include <QHBoxLayout>
#include <QSplitter>
#include <QVBoxLayout>

namespace attnlab::ui {

StepperView::StepperView(Session* session, QWidget* parent) : QWidget(parent)
{
    stepper_ = new StageStepper(session);
    diagram_ = new ShapeDiagramWidget(session);
    diagram_->setObjectName(QStringLiteral("shape-diagram"));
    source_ = new SourceView(session);
    source_->setObjectName(QStringLiteral("source-view"));
    grid_ = new TensorGrid(session);

    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(source_);
    lower->addWidget(grid_);
    lower->setStretchFactor(0, 6);
    lower->setStretchFactor(1, 5);
    follow_ = new FollowPanel(session);
    follow_->setObjectName(QStringLiteral("follow-panel"));
    auto* top = new QWidget; // the diagram, and under it the number followed through the stages
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(diagram_, 1);
    topLayout->addWidget(follow_);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(lower);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 4);
    right->setSizes({470, 330});
    lower->setSizes({700, 330});

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(stepper_);
    layout->addWidget(right, 1);
}

} // namespace attnlab::ui
