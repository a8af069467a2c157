#include "features/tradeoffs/tradeoff_chart_widget.h"

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
    setFocusPolicy(Qt::StrongFocus);
}

void TradeoffChartWidget::setPainter(TradeoffChartPainter painter)
{
    painter_ = std::move(painter);
    QStringList columns;
    for (const HeadOption& o : painter_.tradeoffs().rows)
        columns << tr("num_heads %1%2: head_dim %3, %4 parameters, %5 multiply-adds, scores %6")
                       .arg(o.num_heads)
                       .arg(o.num_heads == painter_.selectedHeads() ? tr(" (in use)") : QString())
                       .arg(o.head_dim)
                       .arg(groupedCount(o.parameters), shortCount(o.cost.total()), shortBytes(o.score_bytes));
    setAccessibleDescription(columns.isEmpty()
                                 ? tr("No head counts divide d_out.")
                                 : tr("Left and Right choose num_heads. ") + columns.join(QStringLiteral("; ")));
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

void TradeoffChartWidget::keyPressEvent(QKeyEvent* event)
{
    const auto& rows = painter_.tradeoffs().rows;
    int at = -1;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].num_heads == painter_.selectedHeads())
            at = static_cast<int>(i);
    int to = at;
    switch (event->key()) {
    case Qt::Key_Left: to = std::max(0, at - 1); break;
    case Qt::Key_Right: to = at + 1; break;
    case Qt::Key_Home: to = 0; break;
    case Qt::Key_End: to = static_cast<int>(rows.size()) - 1; break;
    default: QWidget::keyPressEvent(event); return;
    }
    if (to >= 0 && to < static_cast<int>(rows.size()) && to != at)
        Q_EMIT headsClicked(rows[static_cast<std::size_t>(to)].num_heads);
    event->accept();
}

void TradeoffChartWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto row = painter_.hitTest(chartRect(), event->position()))
        Q_EMIT headsClicked(painter_.tradeoffs().rows[*row].num_heads);
}

} // namespace attnlab::ui
