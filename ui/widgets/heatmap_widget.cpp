#include "widgets/heatmap_widget.h"

#include "render/render_style.h"
#include "widgets/heatmap_accessible.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

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
    relayout();
    update();
}

void HeatmapWidget::relayout()
{
    layout_ = painter_.layout(paintRect(), font());
}

void HeatmapWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void HeatmapWidget::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        relayout();
}

QSize HeatmapWidget::imageSize(const HeatmapPainter& painter) const
{
    const QRectF m = painter.matrixRect(paintRect()); // as paintEvent draws it
    return QSize(static_cast<int>(m.width()), static_cast<int>(m.height()));
}

std::optional<HeatmapHit> HeatmapWidget::cellUnder(const QPointF& pos) const
{
    const auto at = layout_.hitTest(pos);
    return at ? cellAt(at->row, at->col) : std::nullopt;
}

void HeatmapWidget::paintEvent(QPaintEvent*)
{
    // A picture not made for this size (before the page's worker delivers one) is made here, once.
    const QSize cells(static_cast<int>(layout_.matrix.width()), static_cast<int>(layout_.matrix.height()));
    if (layout_.rows > 0 && painter_.image().size() != cells)
        painter_.setImage(HeatmapPainter::renderImage(painter_.slice(), painter_.scale(), cells));
    QPainter p(this);
    painter_.paint(p, layout_, RenderStyle::fromPalette(palette(), backgroundRole()));
    if (hasFocus())
        paintCurrentCell(p);
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event)
{
    const auto hit = cellUnder(event->position());
    if (!hit) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), describe(*hit), this);
    Q_EMIT hovered(*hit);
}

void HeatmapWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT clicked();
}

} // namespace attnlab::ui
