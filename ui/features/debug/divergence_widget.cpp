#include "features/debug/divergence_widget.h"
#include "widgets/lesson_target.h"

#include "render/render_style.h"

#include "features/debug/bug_lesson.h"
#include "render/divergence_painter.h"

#include <QPainter>

namespace attnlab::ui {

DivergenceWidget::DivergenceWidget(BugLesson* lesson, QWidget* parent) : QWidget(parent), lesson_(lesson)
{
    nameTarget(this, QStringLiteral("divergence-diagram"));
    setMinimumSize(320, 300);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    connect(lesson_, &BugLesson::changed, this, qOverload<>(&QWidget::update));
    connect(lesson_, &BugLesson::rowSelected, this, qOverload<>(&QWidget::update));
}

bool DivergenceWidget::card(DivergenceCard& out) const
{
    const auto& d = lesson_->diagnosis();
    const int row = lesson_->selectedRow();
    if (!d || row < 0 || row >= static_cast<int>(d->stages.size()))
        return false;
    out.row = d->stages[static_cast<std::size_t>(row)];
    if (const Stage* book = lesson_->bookStage(row))
        out.axes = book->axes;
    out.first = !lesson_->answerHeld() && row == lesson_->firstDivergenceRow(); // held: not said
    if (d->buggy.failure)
        out.stoppedAt = QString::fromStdString(d->buggy.failure->stage);
    return true;
}

void DivergenceWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    DivergenceCard c;
    if (!card(c)) {
        // Nothing selected (a lesson holding the answer back picks no row): say what the card is for, not a blank.
        if (lesson_->diagnosis()) {
            p.setPen(palette().color(QPalette::Text)); // on Base, legible on a projector
            p.drawText(QRectF(rect()).adjusted(16, 14, -16, -10), Qt::AlignCenter | Qt::TextWordWrap,
                       tr("Select a row to compare the book's stage with the buggy one here."));
        }
        return;
    }
    DivergencePainter(c).paint(p, QRectF(rect()).adjusted(16, 14, -16, -10),
                               RenderStyle::fromPalette(palette(), backgroundRole()));
}

} // namespace attnlab::ui
