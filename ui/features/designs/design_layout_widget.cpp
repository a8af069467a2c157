#include "features/designs/design_layout_widget.h"

#include "render/render_style.h"

#include "render/number_format.h"

#include <QHelpEvent>

#include <algorithm>
#include <QPainter>
#include <QToolTip>

namespace attnlab::ui {

DesignLayoutWidget::DesignLayoutWidget(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(600, 360);
    setMouseTracking(true);
    setFocusPolicy(Qt::TabFocus); // a screen reader's user reaches the drawing and hears its description
    setAccessibleName(tr("Parameter layouts of the designs"));
    setAccessibleDescription(tr("Computing the layouts…"));
}

void DesignLayoutWidget::setPainter(DesignLayoutPainter painter)
{
    painter_ = std::move(painter);
    // What the hover tips say, for every block at once: the drawing in words.
    QStringList designs;
    for (const DesignLayout& d : painter_.comparison().designs) {
        if (!d.exists) {
            designs << QStringLiteral("%1: %2").arg(QString::fromStdString(d.call), QString::fromStdString(d.why_not));
            continue;
        }
        QStringList blocks;
        for (const Block& b : d.blocks)
            blocks << QStringLiteral("%1 %2").arg(QString::fromStdString(b.name),
                                                  QString::fromStdString(shape_to_string(b.shape)));
        designs << tr("%1: %2 parameters in %3")
                       .arg(QString::fromStdString(d.call), groupedCount(d.parameters),
                            blocks.join(QStringLiteral(", ")));
    }
    setAccessibleDescription(designs.isEmpty() ? tr("Computing the layouts…") : designs.join(QStringLiteral(". ")));
    relayout();
    update();
}

void DesignLayoutWidget::relayout()
{
    // Near the window's type (presenting grows it: the labels were 15 px whatever the type around them), a little
    // under it so three columns of it still fit a 1280-pixel projector beside their blocks; the drawing grows as
    // tall as its taller text needs, and the page scrolls.
    const int px = std::max(15, QFontInfo(font()).pixelSize() * 4 / 5);
    painter_.setFontPx(px);
    setMinimumSize(600, 24 * px);
    drawing_ = painter_.layout(drawingRect(), font());
}

void DesignLayoutWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

QRectF DesignLayoutWidget::drawingRect() const
{
    return QRectF(rect()).adjusted(8, 6, -8, -4);
}

QString DesignLayoutWidget::describe(QPointF pos) const
{
    if (!painter_.valid())
        return {};
    const DesignShape* s = drawing_.geometry.hitTest(pos);
    if (!s)
        return {};
    QString found;
    const DesignLayout& d = painter_.comparison().designs[s->column];
    for (const Block& b : s->kind == DesignShape::Kind::Mask ? d.buffers : d.blocks) {
        if (QString::fromStdString(b.name) != s->name)
            continue;
        found = QStringLiteral("%1  %2  ·  %3")
                    .arg(s->name, QString::fromStdString(shape_to_string(b.shape)),
                         b.is_buffer ? QStringLiteral("buffer, not a parameter")
                                     : groupedCount(b.parameters) + QStringLiteral(" parameters"));
        for (const HeadSlice& h : b.head_slices)
            if (s->kind == DesignShape::Kind::Slice && h.head == s->head)
                found += QStringLiteral("\nhead %1 %2 %3–%4")
                             .arg(h.head)
                             .arg(h.axis == 0 ? QStringLiteral("owns rows") : QStringLiteral("is read by columns"))
                             .arg(h.begin)
                             .arg(h.end - 1);
    }
    return found;
}

void DesignLayoutWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    painter_.paint(p, drawing_, RenderStyle::fromPalette(palette(), QPalette::Base));
}

bool DesignLayoutWidget::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QString text = describe(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    if (e->type() == QEvent::FontChange)
        relayout();
    return QWidget::event(e);
}

} // namespace attnlab::ui
