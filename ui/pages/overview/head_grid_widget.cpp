#include "pages/overview/head_grid_widget.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace attnlab::ui {

HeadGridWidget::HeadGridWidget(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("overview-grid"));
    setAccessibleName(tr("Every layer's heads"));
    setMouseTracking(false);
}

void HeadGridWidget::setGrid(HeadGridPainter painter, QStringList tips)
{
    painter_ = std::move(painter);
    tips_ = std::move(tips);
    setAccessibleDescription(tips_.join(QStringLiteral("; ")));
    setMinimumSize(painter_.size(font()));
    updateGeometry();
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
    painter_.paint(p, RenderStyle::fromPalette(palette(), backgroundRole()));
}

void HeadGridWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (const auto i = painter_.cellAt(event->position(), font())) {
        const HeadGridCell& c = painter_.cells()[*i];
        Q_EMIT headClicked(c.layer, c.head);
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
