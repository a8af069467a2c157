#include "widgets/heatmap_widget.h"

#include "render/render_style.h"
#include "widgets/heatmap_accessible.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(80, 80);
    // Tab reaches it; a click (selecting a head) leaves the arrows to the stage keys as before.
    setFocusPolicy(Qt::TabFocus);
    installHeatmapAccessibility();
}

void HeatmapWidget::setHeatmap(HeatmapPainter painter)
{
    painter_ = std::move(painter);
    const HeatmapSlice& s = painter_.slice();
    row_ = std::clamp(row_, 0, std::max(0, s.rows - 1));
    col_ = std::clamp(col_, 0, std::max(0, s.cols - 1));
    update();
}

QSize HeatmapWidget::imageSize(const HeatmapPainter& painter) const
{
    const QRectF m = painter.matrixRect(QRectF(rect()).adjusted(4, 4, -4, -4)); // as paintEvent draws it
    return QSize(static_cast<int>(m.width()), static_cast<int>(m.height()));
}

QString HeatmapWidget::describe(const HeatmapHit& hit) const
{
    const QStringList labels = painter_.tokens();
    auto token = [&](int i) {
        return i < labels.size() && labels[i] != QString::number(i) ? QStringLiteral("'%1' (%2)").arg(labels[i]).arg(i)
                                                                    : QStringLiteral("#%1").arg(i);
    };
    QString what = hit.masked ? QStringLiteral("masked (a later token), value %1").arg(formatExact(hit.value))
                              : formatExact(hit.value);
    if (hit.masked && std::isinf(hit.value))
        what = QStringLiteral("−∞ (masked: a later token)");
    return QStringLiteral("query %1 → key %2:  %3").arg(token(hit.query), token(hit.key), what);
}

void HeatmapWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    painter_.paint(p, paintRect(), RenderStyle::fromPalette(palette(), backgroundRole()));
    if (hasFocus())
        paintCurrentCell(p);
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event)
{
    const auto hit = painter_.hitTest(paintRect(), event->position());
    if (!hit) {
        QToolTip::hideText();
        return;
    }
    const QString text = describe(*hit);
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
    Q_EMIT hovered(text);
}

void HeatmapWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT clicked();
}

void HeatmapWidget::leaveEvent(QEvent*)
{
    Q_EMIT hovered(QString());
}

} // namespace attnlab::ui
