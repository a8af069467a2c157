#include "features/kvheads/kv_cache_strip_painter.h"

#include <QFontMetricsF>

#include <algorithm>

namespace attnlab::ui {

namespace {

QFont fontOf(int px)
{
    QFont f;
    f.setPixelSize(px);
    return f;
}

} // namespace

double KvCacheStripPainter::rowHeight() const
{
    return fontPx_ * 1.5;
}

double KvCacheStripPainter::labelWidth() const
{
    return QFontMetricsF(fontOf(fontPx_)).horizontalAdvance(QStringLiteral("layer 12  values")) + 8;
}

double KvCacheStripPainter::preferredHeight() const
{
    // The token row, then per layer keys and values and a gap.
    return rowHeight() * 1.4 + s_.layers * (rowHeight() * 2 + fontPx_ * 0.6) + 4;
}

QRectF KvCacheStripPainter::cellRect(const QRectF& rect, int layer, bool values, int column) const
{
    const double left = rect.left() + labelWidth();
    const double w = std::min(fontPx_ * 3.0, (rect.right() - left) / std::max(1, columns()));
    const double top =
        rect.top() + rowHeight() * 1.4 + layer * (rowHeight() * 2 + fontPx_ * 0.6) + (values ? rowHeight() : 0);
    return {left + column * w, top, w, rowHeight()};
}

void KvCacheStripPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    p.save();
    p.setFont(fontOf(fontPx_));
    const QFontMetricsF fm(p.font());
    if (columns() == 0) {
        style.drawText(p, rect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                       QStringLiteral("The cache is empty: Step reads the prompt."), style.muted, style.background);
        p.restore();
        return;
    }
    const QColor oldFill = style.tint(style.info, 0.25), newFill = style.info;
    const bool tokensFit = cellRect(rect, 0, false, 0).width() >= fm.height() * 1.2;
    for (int c = 0; c < columns(); ++c) {
        const QRectF top = cellRect(rect, 0, false, c);
        if (tokensFit) {
            const QString t = fm.elidedText(s_.tokens[c].trimmed(), Qt::ElideRight, top.width() - 2);
            style.drawText(p, QRectF(top.left(), rect.top(), top.width(), rowHeight() * 1.3), Qt::AlignCenter, t,
                           c >= s_.newFrom ? style.text : style.muted, style.background);
        }
    }
    for (int l = 0; l < s_.layers; ++l) {
        for (int v = 0; v < 2; ++v) {
            const QRectF first = cellRect(rect, l, v == 1, 0);
            style.drawText(p, QRectF(rect.left(), first.top(), labelWidth() - 8, first.height()),
                           Qt::AlignRight | Qt::AlignVCenter,
                           v == 0 ? QStringLiteral("layer %1  keys").arg(l) : QStringLiteral("values"), style.text,
                           style.background);
            for (int c = 0; c < columns(); ++c) {
                const QRectF cell = cellRect(rect, l, v == 1, c).adjusted(0.5, 0.5, -0.5, -0.5);
                p.fillRect(cell, c >= s_.newFrom ? newFill : oldFill);
                if (cell.width() >= 3) {
                    p.setPen(QPen(style.background, 1));
                    p.drawRect(cell);
                }
            }
        }
    }
    p.restore();
}

} // namespace attnlab::ui
