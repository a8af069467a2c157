#include "features/overview/head_grid_widget.h"
#include "widgets/lesson_target.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace attnlab::ui {

HeadGridWidget::HeadGridWidget(QWidget* parent) : QWidget(parent)
{
    nameTarget(this, QStringLiteral("overview-grid"));
    setAccessibleName(tr("Every layer's heads"));
    setMouseTracking(false);
    setFocusPolicy(Qt::StrongFocus);
    setGrid({}, {});
}

void HeadGridWidget::setGrid(HeadGridPainter painter, QStringList tips)
{
    // The keyboard stays on the same head when the grid is redrawn (another order, another size).
    const auto& old = painter_.cells();
    std::optional<std::pair<int, int>> kept;
    if (current_ >= 0 && current_ < static_cast<int>(old.size()))
        kept =
            std::make_pair(old[static_cast<std::size_t>(current_)].layer, old[static_cast<std::size_t>(current_)].head);
    painter_ = std::move(painter);
    tips_ = std::move(tips);
    const auto& cells = painter_.cells();
    int next = cells.empty() ? -1 : 0;
    for (int i = 0; i < static_cast<int>(cells.size()); ++i) {
        const HeadGridCell& c = cells[static_cast<std::size_t>(i)];
        if (kept ? (c.layer == kept->first && c.head == kept->second) : c.selected)
            next = i;
    }
    current_ = -2; // so setCurrent names the grid again, even at the same index
    setCurrent(next);
    setMinimumSize(painter_.size(font()));
    updateGeometry();
    update();
}

void HeadGridWidget::setCurrent(int index)
{
    if (index == current_)
        return;
    current_ = index;
    const QString keys = tr("Arrow keys move between heads; Enter opens one in the heatmaps.");
    if (current_ >= 0 && current_ < static_cast<int>(tips_.size())) {
        setAccessibleName(tr("Every layer's heads: %1").arg(tips_[current_]));
        setAccessibleDescription(keys);
    } else {
        setAccessibleName(tr("Every layer's heads"));
        setAccessibleDescription(tips_.isEmpty() ? tr("No heads yet.") : keys);
    }
    if (current_ >= 0 && hasFocus())
        Q_EMIT currentMoved(cellRect(static_cast<std::size_t>(current_)));
    update();
}

void HeadGridWidget::keyPressEvent(QKeyEvent* event)
{
    const int n = static_cast<int>(painter_.cells().size());
    if (n == 0 || current_ < 0)
        return QWidget::keyPressEvent(event);
    int next = current_;
    switch (event->key()) {
    case Qt::Key_Left: next = current_ - 1; break;
    case Qt::Key_Right: next = current_ + 1; break;
    case Qt::Key_Up: next = current_ - painter_.columns(); break;
    case Qt::Key_Down: next = current_ + painter_.columns(); break;
    case Qt::Key_Home: next = 0; break;
    case Qt::Key_End: next = n - 1; break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space: {
        // Copies: a slot may redraw the grid, and every later slot reads the signal's arguments.
        const int layer = painter_.cells()[static_cast<std::size_t>(current_)].layer;
        const int head = painter_.cells()[static_cast<std::size_t>(current_)].head;
        Q_EMIT headClicked(layer, head);
        return;
    }
    default: return QWidget::keyPressEvent(event);
    }
    if (next >= 0 && next < n)
        setCurrent(next);
}

void HeadGridWidget::focusInEvent(QFocusEvent* event)
{
    QWidget::focusInEvent(event);
    if (current_ >= 0)
        Q_EMIT currentMoved(cellRect(static_cast<std::size_t>(current_)));
    update();
}

void HeadGridWidget::focusOutEvent(QFocusEvent* event)
{
    QWidget::focusOutEvent(event);
    update();
}

QRect HeadGridWidget::cellRect(std::size_t index) const
{
    return painter_.cellRect(index, font()).toAlignedRect();
}

QSize HeadGridWidget::sizeHint() const
{
    return painter_.size(font());
}

void HeadGridWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing);
    std::optional<std::size_t> focus;
    if (hasFocus() && current_ >= 0)
        focus = static_cast<std::size_t>(current_);
    painter_.paint(p, RenderStyle::fromPalette(palette(), backgroundRole()), focus);
}

void HeadGridWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto i = painter_.cellAt(event->position(), font())) {
        setCurrent(static_cast<int>(*i));
        const int layer = painter_.cells()[*i].layer, head = painter_.cells()[*i].head; // copies, as above
        Q_EMIT headClicked(layer, head);
    }
}

bool HeadGridWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const auto i = painter_.cellAt(help->pos(), font());
        if (i && *i < static_cast<std::size_t>(tips_.size()))
            QToolTip::showText(help->globalPos(), tips_[static_cast<qsizetype>(*i)], this, cellRect(*i));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace attnlab::ui
