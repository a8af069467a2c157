// HeatmapWidget from the keyboard: a highlighted cell moved by the arrows stands in for the mouse
// pointer, so the readout, the click (Enter/Space) and the screen reader's focused cell all work
// without a mouse.
#include "widgets/heatmap_accessible.h"
#include "widgets/heatmap_widget.h"

#include <QKeyEvent>
#include <QPainter>

#include <algorithm>

namespace attnlab::ui {

namespace {

bool navigationKey(const QKeyEvent* e)
{
    switch (e->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Home:
    case Qt::Key_End:
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space: return (e->modifiers() & ~(Qt::ShiftModifier | Qt::ControlModifier | Qt::KeypadModifier)) == 0;
    default: return false;
    }
}

} // namespace

QString HeatmapWidget::tokenLabel(int index) const
{
    const QStringList& labels = painter_.tokens();
    return index >= 0 && index < labels.size() ? labels[index] : QString::number(index);
}

QRect HeatmapWidget::cellRect(int row, int col) const
{
    const QRectF cell = layout_.cellRect(row, col);
    if (cell.isNull())
        return {};
    const QPointF centre = cell.center();
    // At 1,024 tokens a cell is a fraction of a pixel: keep the highlight big enough to see.
    const double side = std::max(6.0, std::min(cell.width(), cell.height()));
    return QRectF(centre.x() - side / 2, centre.y() - side / 2, side, side).toAlignedRect();
}

void HeatmapWidget::setCurrentCell(int row, int col)
{
    const HeatmapSlice& s = painter_.slice();
    if (!s.valid())
        return;
    row_ = std::clamp(row, 0, s.rows - 1);
    col_ = std::clamp(col, 0, s.cols - 1);
    update();
    if (const auto hit = cellAt(row_, col_))
        Q_EMIT hovered(*hit);
    notifyHeatmapCellFocus(this);
    Q_EMIT currentCellChanged(row_, col_);
}

void HeatmapWidget::showCell(int row, int col)
{
    const HeatmapSlice& s = painter_.slice();
    if (!s.valid() || (row == row_ && col == col_))
        return;
    row_ = std::clamp(row, 0, s.rows - 1);
    col_ = std::clamp(col, 0, s.cols - 1);
    update();
}

bool HeatmapWidget::event(QEvent* event)
{
    // The window binds Left/Right/Space to the stages; over a focused heatmap they move the cell.
    if (event->type() == QEvent::ShortcutOverride && navigationKey(static_cast<QKeyEvent*>(event))) {
        event->accept();
        return true;
    }
    return QWidget::event(event);
}

void HeatmapWidget::keyPressEvent(QKeyEvent* event)
{
    const HeatmapSlice& s = painter_.slice();
    if (!s.valid() || !navigationKey(event)) {
        QWidget::keyPressEvent(event);
        return;
    }
    // Shift or Ctrl with an arrow jumps a tenth of the matrix: 1,024 tokens are many single steps.
    const int jump = event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier) ? std::max(1, s.rows / 10) : 1;
    switch (event->key()) {
    case Qt::Key_Left: setCurrentCell(row_, col_ - jump); break;
    case Qt::Key_Right: setCurrentCell(row_, col_ + jump); break;
    case Qt::Key_Up: setCurrentCell(row_ - jump, col_); break;
    case Qt::Key_Down: setCurrentCell(row_ + jump, col_); break;
    case Qt::Key_Home: setCurrentCell(event->modifiers() & Qt::ControlModifier ? 0 : row_, 0); break;
    case Qt::Key_End: setCurrentCell(event->modifiers() & Qt::ControlModifier ? s.rows - 1 : row_, s.cols - 1); break;
    default: Q_EMIT clicked(); break; // Enter, Return, Space: what a click does
    }
    event->accept();
}

void HeatmapWidget::focusInEvent(QFocusEvent* event)
{
    QWidget::focusInEvent(event);
    setCurrentCell(row_, col_); // the readout says where the keyboard is
}

void HeatmapWidget::focusOutEvent(QFocusEvent* event)
{
    QWidget::focusOutEvent(event);
    update();
}

void HeatmapWidget::paintCurrentCell(QPainter& p) const
{
    const QRect r = cellRect(row_, col_);
    if (r.isEmpty())
        return;
    // Two rings, dark inside light, so the highlight shows on any colour of the scale.
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::Base), 4));
    p.drawRect(r.adjusted(-1, -1, 1, 1));
    p.setPen(QPen(palette().color(QPalette::Text), 2));
    p.drawRect(r.adjusted(-1, -1, 1, 1));
}

} // namespace attnlab::ui
