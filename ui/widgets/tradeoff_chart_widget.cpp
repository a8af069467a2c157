#include "widgets/tradeoff_chart_widget.h"

#include "render/render_style.h"

#include "render/number_format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace attnlab::ui {

TradeoffChartWidget::TradeoffChartWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(500, 300);
}

void TradeoffChartWidget::setPainter(TradeoffChartPainter painter)
{
    painter_ = std::move(painter);
    update();
}

QRectF TradeoffChartWidget::chartRect() const
{
    return QRectF(rect()).adjusted(6, 6, -6, -4);
}

void TradeoffChartWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    painter_.paint(p, chartRect(), RenderStyle::fromPalette(palette(), QPalette::Base));
}

void TradeoffChartWidget::mouseMoveEvent(QMouseEvent* event)
{
    const auto row = painter_.hitTest(chartRect(), event->position());
    setCursor(row ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (!row) {
        QToolTip::hideText();
        return;
    }
    const HeadOption& o = painter_.tradeoffs().rows[*row];
    QToolTip::showText(event->globalPosition().toPoint(),
                       QStringLiteral("num_heads %1 · head_dim %2\n%3 parameters · %4 multiply-adds\nscores: %5\n"
                                      "click to use %1 heads")
                           .arg(o.num_heads)
                           .arg(o.head_dim)
                           .arg(groupedCount(o.parameters), shortCount(o.cost.total()), shortBytes(o.score_bytes)),
                       this);
}

void TradeoffChartWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto row = painter_.hitTest(chartRect(), event->position()))
        Q_EMIT headsClicked(painter_.tradeoffs().rows[*row].num_heads);
}

} // namespace attnlab::ui
