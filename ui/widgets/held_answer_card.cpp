#include "widgets/held_answer_card.h"

#include "widgets/lesson_target.h"
#include "widgets/themed.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace attnlab::ui {

HeldAnswerCard::HeldAnswerCard(const QString& what, QWidget* parent) : QFrame(parent)
{
    nameTarget(this, QStringLiteral("held-answer"));
    text_ = new QLabel;
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::RichText);
    reveal_ = new QPushButton(tr("Reveal"));
    nameTarget(reveal_, QStringLiteral("held-answer-reveal"));
    reveal_->setToolTip(tr("Show the answer this lesson step holds back."));
    reveal_->setAccessibleName(tr("Reveal the answer"));
    reveal_->setAccessibleDescription(reveal_->toolTip());
    reveal_->setFocusPolicy(Qt::StrongFocus); // reached by Tab, as the lesson panel's Reveal
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 8, 6);
    layout->addWidget(text_, 1);
    layout->addWidget(reveal_, 0, Qt::AlignVCenter);
    connect(reveal_, &QPushButton::clicked, this, &HeldAnswerCard::revealed);
    setWhat(what);
    followPalette(this, [this] { restyle(); });
    restyle();
}

void HeldAnswerCard::setWhat(const QString& what)
{
    text_->setText(tr("<b>Answer held back</b> — %1").arg(what.toHtmlEscaped()));
    setAccessibleName(tr("Answer held back"));
    setAccessibleDescription(what);
}

void HeldAnswerCard::restyle()
{
    const RenderStyle style = styleFor(this);
    // The info tint: a notice, not a verdict (the red and green it stands in for would give the answer away).
    setStyleSheet(QStringLiteral("QFrame#%1 { border-left: 6px solid %2; background: %3; border-radius: 4px; }"
                                 " QFrame#%1 > QLabel { color: %4; }")
                      .arg(objectName(), cssColor(style.info), cssColor(style.infoFill),
                           cssColor(style.readable(style.text, style.infoFill))));
}

} // namespace attnlab::ui
