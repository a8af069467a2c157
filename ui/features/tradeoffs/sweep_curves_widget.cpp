#include "features/tradeoffs/sweep_curves_widget.h"

#include <QPainter>
#include <QStringList>

namespace attnlab::ui {

SweepCurvesWidget::SweepCurvesWidget(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(560, 300);
    setAccessibleName(tr("Held-out loss and accuracy per variant"));
}

void SweepCurvesWidget::setPainter(SweepCurvesPainter painter)
{
    painter_ = std::move(painter);
    QStringList lines;
    for (const SweepCurveSeries& s : painter_.series()) {
        const auto loss = SweepCurvesPainter::curve(s, false), acc = SweepCurvesPainter::curve(s, true);
        if (loss.empty())
            continue;
        lines << tr("%1 at step %2: loss %3, accuracy %4")
                     .arg(s.legend())
                     .arg(loss.back().step)
                     .arg(loss.back().mean, 0, 'f', 3)
                     .arg(acc.back().mean, 0, 'f', 3);
    }
    setAccessibleDescription(lines.isEmpty() ? tr("Nothing trained yet.") : lines.join(QStringLiteral("; ")));
    update();
}

void SweepCurvesWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    painter_.paint(p, QRectF(rect()).adjusted(8, 8, -8, -4), RenderStyle::fromPalette(palette(), QPalette::Base));
}

} // namespace attnlab::ui
