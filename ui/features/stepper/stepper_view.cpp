#include "features/stepper/stepper_view.h"
#include "widgets/lesson_target.h"

#include "features/stepper/follow_panel.h"
#include "features/stepper/predict_card.h"
#include "features/stepper/stepper_state.h"
#include "features/stepper/shape_diagram_widget.h"
#include "features/stepper/source_view.h"
#include "features/stepper/stage_stepper.h"
#include "features/trace_banner.h"
#include "widgets/stale_trace_banner.h"
#include "features/stepper/tensor_grid.h"
#include "model/study_model.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QSplitter>
#include <QVBoxLayout>

namespace attnlab::ui {

StepperView::StepperView(StepperState* state, QWidget* parent) : QWidget(parent)
{
    stepper_ = new StageStepper(state);
    diagram_ = new ShapeDiagramWidget(state);
    nameTarget(diagram_, QStringLiteral("shape-diagram"));
    source_ = new SourceView(state);
    nameTarget(source_, QStringLiteral("source-view"));
    grid_ = new TensorGrid(state);

    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(source_);
    lower->addWidget(grid_);
    // Halves: with the code at two thirds a 6 x 6 book matrix showed two and a half of its columns on a
    // 1280-pixel screen; the code wraps its long lines rather than cutting them.
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    follow_ = new FollowPanel(state);
    nameTarget(follow_, QStringLiteral("follow-panel"));
    auto* top = new QWidget; // the diagram, and under it the number followed through the stages
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(diagram_, 1);
    topLayout->addWidget(follow_);
    auto* right = split_ = new QSplitter(Qt::Vertical);
    right->addWidget(top);
    right->addWidget(lower);
    right->setStretchFactor(0, 5);
    right->setStretchFactor(1, 4);
    right->setSizes({470, 330});
    lower->setSizes({515, 515});

    // Predict First: the question stands where the stage would, until it is answered or revealed; the
    // tally and the last answer's verdicts stay in view above the stage once it shows.
    predict_ = new PredictCard(state);
    tally_ = new QLabel;
    nameTarget(tally_, QStringLiteral("predict-tally"));
    verdict_ = new QLabel;
    nameTarget(verdict_, QStringLiteral("predict-verdict"));
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* reset = new QPushButton(tr("Reset tally"));
    nameTarget(reset, QStringLiteral("predict-reset"));
    reset->setToolTip(tr("Forget every answer: each stage asks again."));
    connect(reset, &QPushButton::clicked, state->study(), &StudyModel::resetPredictions);
    tallyRow_ = new QWidget;
    auto* tallyLayout = new QHBoxLayout(tallyRow_);
    tallyLayout->setContentsMargins(0, 0, 0, 0);
    tallyLayout->addWidget(tally_);
    tallyLayout->addStretch(1);
    tallyLayout->addWidget(reset);
    pages_ = new QStackedWidget;
    pages_->addWidget(right);
    pages_->addWidget(predict_);
    auto* column = new QVBoxLayout;
    column->addWidget(tallyRow_);
    column->addWidget(verdict_);
    column->addWidget(pages_, 1);

    auto* outer = new QVBoxLayout(this);
    outer->addWidget(traceBanner(state, {stepper_, pages_}));
    auto* layout = new QHBoxLayout;
    outer->addLayout(layout, 1);
    layout->addWidget(stepper_);
    layout->addLayout(column, 1);
    connect(state, &StepperState::changed, this, [this, state](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Predict))
            showPrediction(*state);
    });
    showPrediction(*state);
}

bool StepperView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        fitStageList();
    return QWidget::eventFilter(watched, event);
}

void StepperView::fitStageList()
{
    // On a projector beside the lessons dock and the settings column the page is narrower than the stage
    // list and the smallest diagram together: the list goes (the diagram names the stage, the clicker's
    // keys still step) rather than the drawing being cut off at the page's edge.
    const QWidget* port = parentWidget();
    const int need = stepper_->sizeHint().width() + diagram_->minimumWidth() + 3 * layout()->spacing() +
                     layout()->contentsMargins().left() + layout()->contentsMargins().right();
    stepper_->setVisible(!(presenting_ && port && port->width() < need));
}

void StepperView::setPresenting(bool on)
{
    if (on == presenting_)
        return;
    presenting_ = on;
    if (on && parentWidget()) // the page's room is its scroll area's viewport, which the page cannot narrow
        parentWidget()->installEventFilter(this);
    if (on) {
        deskSizes_ = split_->sizes();
        split_->setSizes({72, 28}); // weights: the splitter spreads its height in these proportions
    } else if (!deskSizes_.isEmpty()) {
        split_->setSizes(deskSizes_);
    }
    grid_->setVisible(!on);
    fitStageList();
}

bool StepperView::showsQuestion() const
{
    return pages_->currentWidget() == predict_;
}

void StepperView::showPrediction(const StepperState& state)
{
    const bool on = state.study()->predict().on;
    // The question answered (or revealed from its card), the card's focus would fall to the diagram, which keeps the
    // arrows and Space for its own blocks: → did nothing and Space followed a number. It goes to Next instead, where
    // Space and → both step on as the window advertises (to the page itself at the last stage).
    const bool answeredHere =
        showsQuestion() && state.study()->stageRevealed() && predict_->isAncestorOf(focusWidget());
    pages_->setCurrentWidget(state.study()->stageRevealed() ? pages_->widget(0) : predict_);
    if (answeredHere) {
        QWidget* next = stepper_->nextButton();
        if (next->isVisible() && next->isEnabled())
            next->setFocus(Qt::OtherFocusReason);
        else
            setFocus(Qt::OtherFocusReason);
    }
    // A stack is as wide as its widest page; the hidden one asks for nothing, so the question's row of
    // axis fields (wide in projector type) does not push the stage past a 1280-pixel screen, nor the
    // stage the question.
    for (int i = 0; i < pages_->count(); ++i) {
        QWidget* page = pages_->widget(i);
        const auto policy = page == pages_->currentWidget() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        page->setSizePolicy(policy, policy);
    }
    tallyRow_->setVisible(on);
    tally_->setText(tallyText(state));
    const QString verdict = on ? verdictText(state) : QString();
    verdict_->setText(verdict);
    verdict_->setAccessibleDescription(verdict);
    verdict_->setVisible(!verdict.isEmpty());
}

} // namespace attnlab::ui
