#include "features/stepper/stage_stepper.h"
#include "widgets/lesson_target.h"

#include "features/stepper/stepper_state.h"
#include "widgets/code_font.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab::ui {

StageStepper::StageStepper(StepperState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    list_ = new QListWidget;
    nameTarget(list_, QStringLiteral("stage-list"));
    list_->setAccessibleName(tr("Stages of forward()"));
    list_->setAccessibleDescription(
        tr("Every stage of the forward pass in order; choose one to see its shape, code and values."));
    list_->setFocusPolicy(Qt::TabFocus); // Tab reaches it; a click leaves the focus where it was
    useCodeFont(list_);
    previous_ = new QPushButton(tr("◀ Previous"));
    next_ = new QPushButton(tr("Next ▶"));
    nameTarget(previous_, QStringLiteral("previous-stage"));
    nameTarget(next_, QStringLiteral("next-stage"));
    previous_->setToolTip(tr("Previous stage (Left, PageUp)"));
    next_->setToolTip(tr("Next stage (Right, Space, PageDown)"));
    for (auto* b : {previous_, next_})
        b->setFocusPolicy(Qt::TabFocus); // Space on a focused button clicks it (shell/keyboard_focus.h)
    position_ = new QLabel;
    position_->setObjectName(QStringLiteral("stage-position"));
    position_->setAlignment(Qt::AlignCenter);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(previous_);
    buttons->addWidget(next_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(tr("<b>Stages of forward()</b>"));
    layout->addWidget(title_);
    layout->addWidget(list_, 1);
    layout->addWidget(position_);
    keys_ = new QLabel(tr("→ / Space: next   ← : back"));
    keys_->setAlignment(Qt::AlignCenter);
    layout->addWidget(keys_);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    layout->addLayout(buttons);

    connect(previous_, &QPushButton::clicked, state_->view(), &ViewModel::previousStage);
    connect(next_, &QPushButton::clicked, state_->study(), &StudyModel::nextStage);
    connect(list_, &QListWidget::currentRowChanged, state_, [this](int row) {
        if (row >= 0)
            state_->view()->setStageIndex(row);
    });
    connect(state_, &StepperState::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage))
            refresh(flags & ChangeFlag::Trace);
    });
    refresh(true);
}

QSize StageStepper::sizeHint() const
{
    const QFontMetrics names(list_->font());
    int widest = names.horizontalAdvance(QLatin1String(stage::context_transposed)); // before the first trace
    for (int i = 0; i < list_->count(); ++i)
        widest = std::max(widest, names.horizontalAdvance(list_->item(i)->text()));
    const int list = widest + 2 * list_->frameWidth() + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 12;
    const int spacing = std::max(0, layout()->spacing());
    const int buttons = previous_->sizeHint().width() + spacing + next_->sizeHint().width();
    const int width = std::max({kNarrowest, list, buttons, title_->sizeHint().width(), keys_->sizeHint().width(),
                                position_->sizeHint().width()});
    return {width, QWidget::sizeHint().height()};
}

void StageStepper::refresh(bool rebuild)
{
    const auto trace = state_->trace()->trace();
    if (!trace)
        return;
    const QSignalBlocker block(list_);
    if (rebuild) {
        list_->clear();
        for (const auto& s : trace->stages)
            list_->addItem(QString::fromStdString(s.name));
        updateGeometry(); // the widest name may have changed
    }
    const int index = state_->view()->stageIndex(), count = static_cast<int>(trace->stages.size());
    list_->setCurrentRow(index);
    position_->setText(tr("stage %1 of %2").arg(index + 1).arg(count));
    previous_->setEnabled(index > 0);
    next_->setEnabled(index + 1 < count);
}

} // namespace attnlab::ui
