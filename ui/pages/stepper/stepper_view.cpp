#include "pages/stepper/stepper_view.h"

#include "widgets/shape_diagram_widget.h"
#include "widgets/source_view.h"
#include "widgets/stage_stepper.h"
#include "widgets/stale_trace_banner.h"
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
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(diagram_);
    right->addWidget(lower);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 4);
    right->setSizes({470, 330});
    lower->setSizes({700, 330});

    auto* outer = new QVBoxLayout(this);
    outer->addWidget(new StaleTraceBanner(session, {stepper_, right}));
    auto* layout = new QHBoxLayout;
    outer->addLayout(layout, 1);
    layout->addWidget(stepper_);
    layout->addWidget(right, 1);
}

} // namespace attnlab::ui
