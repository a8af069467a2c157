#include "features/stepper/follow_panel.h"
#include "widgets/lesson_target.h"

#include "features/stepper/stepper_state.h"
#include "features/stepper/tensor_grid.h"
#include "model/document_model.h"
#include "model/study_model.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace attnlab::ui {

namespace {

QString indexText(const Index& index)
{
    return QString::fromStdString(index_text(index));
}

} // namespace

QString followedText(const StepperState& state)
{
    const ElementFollow* f = state.study()->followedElement();
    if (!f)
        return state.document()->selectedElement().empty()
                   ? QString()
                   : QObject::tr("The followed number is not in this trace: click a number of this one.");
    QStringList lines;
    QString here;
    QStringList same, copies;
    for (const ElementPlace& p : f->places) {
        const QString where =
            QStringLiteral("%1 %2 (offset %3)")
                .arg(QString::fromStdString(p.stage), indexText(p.index), QString::fromStdString(offset_text(p)));
        if (p.placement == Placement::Itself)
            here = QString::fromStdString(offset_text(p));
        else
            (p.placement == Placement::SameStorage ? same : copies) << where;
    }
    lines << QObject::tr("Following %1 %2 = %3, at storage offset %4.")
                 .arg(QString::fromStdString(f->stage), indexText(f->index), valuesGridText(f->value), here);
    if (!same.isEmpty())
        lines << QObject::tr("The same float: %1.").arg(same.join(QStringLiteral("; ")));
    if (!copies.isEmpty())
        lines << QObject::tr("Copied to other storage: %1.").arg(copies.join(QStringLiteral("; ")));
    lines << QObject::tr("Computed from: %1").arg(QString::fromStdString(f->sources.explanation));
    if (!f->computed_at.empty()) // a layout step only moved it: where and how it was computed
        lines << QObject::tr("The number itself was computed at %1 %2, as %3")
                     .arg(QString::fromStdString(f->computed_at), indexText(f->computed_index),
                          QString::fromStdString(f->computation.explanation));
    return lines.join(QLatin1Char('\n'));
}

FollowPanel::FollowPanel(StepperState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    text_ = new QLabel;
    nameTarget(text_, QStringLiteral("follow-text"));
    text_->setWordWrap(true); // never widens the pane
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    text_->setFocusPolicy(Qt::TabFocus); // reachable by keyboard, read by a screen reader
    text_->setAccessibleName(tr("Followed element"));
    clear_ = new QPushButton(tr("Let go"));
    nameTarget(clear_, QStringLiteral("follow-clear"));
    clear_->setToolTip(tr("Stop following the selected number."));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(text_, 1);
    layout->addWidget(clear_, 0, Qt::AlignTop);
    connect(clear_, &QPushButton::clicked, this, [this] { state_->document()->setSelectedElement({}); });
    connect(state_, &StepperState::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Selection | ChangeFlag::Trace))
            refresh();
    });
    refresh();
}

void FollowPanel::refresh()
{
    const QString text = followedText(*state_);
    text_->setText(text);
    text_->setAccessibleDescription(text);
    setVisible(!state_->document()->selectedElement().empty()); // nothing followed: the diagram keeps the room
}

} // namespace attnlab::ui
