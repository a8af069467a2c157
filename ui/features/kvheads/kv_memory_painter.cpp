#include "features/kvheads/kv_memory_painter.h"

#include <QFontMetricsF>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

QFont fontOf(int px, bool bold = false)
{
    QFont f;
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

} // namespace

double KvMemoryPainter::minBytes() const
{
    double lo = 1e300;
    for (const KvMemoryLine& l : m_.lines)
        for (const auto& pt : l.points)
            lo = std::min(lo, static_cast<double>(pt.second));
    return std::pow(10.0, std::floor(std::log10(std::max(1.0, lo))));
}

double KvMemoryPainter::maxBytes() const
{
    double hi = 1;
    for (const KvMemoryLine& l : m_.lines)
        for (const auto& pt : l.points)
            hi = std::max(hi, static_cast<double>(pt.second));
    return std::max(minBytes() * 10, std::pow(10.0, std::ceil(std::log10(hi))));
}

QRectF KvMemoryPainter::plotArea(const QRectF& rect) const
{
    const QFontMetricsF fm(fontOf(fontPx_));
    const double left = fm.horizontalAdvance(QStringLiteral("999 MB")) + fontPx_ * 0.8;
    // The config's label is bold, and its count may have three digits (Falcon's 71 heads, 128 in a student's call).
    const double right = QFontMetricsF(fontOf(fontPx_, true)).horizontalAdvance(QStringLiteral("MHA · 128 kv")) + 10;
    return rect.adjusted(left, fm.height() * 1.6, -right, -fm.height() * 2.4);
}

QPointF KvMemoryPainter::pointAt(const QRectF& rect, double tokens, double bytes) const
{
    const QRectF plot = plotArea(rect);
    const double xMax =
        std::max(1.0, std::log2(static_cast<double>(std::max<std::int64_t>(2, m_.shape.context_length))));
    const double lo = std::log10(minBytes()), hi = std::log10(maxBytes());
    const double x = std::log2(std::max(1.0, tokens)) / xMax;
    const double y = (std::log10(std::max(1.0, bytes)) - lo) / (hi - lo);
    return {plot.left() + x * plot.width(), plot.bottom() - y * plot.height()};
}

void KvMemoryPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(fontOf(fontPx_));
    if (m_.lines.empty()) {
        style.drawText(p, rect, Qt::AlignCenter | Qt::TextWordWrap,
                       m_.error.isEmpty() ? QStringLiteral("Nothing to count.") : m_.error, style.text,
                       style.background);
        p.restore();
        return;
    }
    const QRectF plot = plotArea(rect);
    const QString title = QStringLiteral("KV cache of %1, batch 1, %2: a line per number of key/value heads")
                              .arg(QString::fromStdString(m_.shape.name), QString::fromStdString(dtype_name(m_.dtype)));
    style.drawText(
        p, QRectF(rect.left(), rect.top(), rect.width(), plot.top() - rect.top()), Qt::AlignLeft | Qt::AlignTop,
        QFontMetricsF(p.font()).elidedText(title, Qt::ElideRight, rect.width()), style.text, style.background);
    paintAxes(p, plot, style);
    paintLines(p, rect, style);
    p.restore();
}

void KvMemoryPainter::paintAxes(QPainter& p, const QRectF& plot, const RenderStyle& style) const
{
    const QRectF& rect = plot;
    const QFontMetricsF fm(p.font());
    p.setPen(QPen(style.frame, 1));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    const double lo = std::log10(minBytes()), hi = std::log10(maxBytes());
    const int step = hi - lo > 8 ? 2 : 1;
    for (int e = static_cast<int>(lo); e <= static_cast<int>(hi); e += step) {
        const double y = plot.bottom() - (e - lo) / (hi - lo) * plot.height();
        p.setPen(QPen(style.grid, 1));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        style.drawText(p, QRectF(rect.left() - fm.height() * 8, y - fm.height() / 2, fm.height() * 8 - 6, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, kvBytesText(std::pow(10.0, e)), style.muted,
                       style.background);
    }
    const double xMax = std::log2(static_cast<double>(std::max<std::int64_t>(2, m_.shape.context_length)));
    const double labelW = fm.horizontalAdvance(QStringLiteral("128k")) + 8;
    const int every = std::max(1, static_cast<int>(std::ceil(labelW / (plot.width() / std::max(1.0, xMax)))));
    for (int e = 0; e <= static_cast<int>(xMax); e += every) {
        const double x = plot.left() + e / xMax * plot.width();
        p.setPen(QPen(style.grid, 1));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        style.drawText(p, QRectF(x - labelW, plot.bottom() + 3, labelW * 2, fm.height()), Qt::AlignHCenter,
                       kvTokensText(std::int64_t{1} << e), style.muted, style.background);
    }
    // Centred under the plot while it fits there, else from the left edge of the labels; shortened only as a last
    // resort.
    const QString axis = QStringLiteral("context length (tokens), up to %1").arg(m_.shape.context_length);
    const QRectF under(plot.left() - fm.horizontalAdvance(QStringLiteral("999 MB")), plot.bottom() + fm.height() * 1.2,
                       plot.width() + fm.horizontalAdvance(QStringLiteral("999 MB")), fm.height());
    style.drawText(p, under, Qt::AlignHCenter, fm.elidedText(axis, Qt::ElideRight, under.width()), style.text,
                   style.background);
    if (m_.shape.sliding_window && *m_.shape.sliding_window < m_.shape.context_length) {
        const double x = plot.left() + std::log2(static_cast<double>(*m_.shape.sliding_window)) / xMax * plot.width();
        p.setPen(QPen(style.warning, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        style.drawText(p, QRectF(x - 200, plot.top(), 196, fm.height()), Qt::AlignRight,
                       QStringLiteral("sliding window %1").arg(*m_.shape.sliding_window), style.warning,
                       style.background);
    }
}

void KvMemoryPainter::paintLines(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    const QRectF plot = plotArea(rect);
    const QFontMetricsF fm(p.font());
    std::vector<double> labelled; // the label heights drawn, so a later one never covers them
    // The config's line last, on top of the others.
    std::vector<const KvMemoryLine*> order;
    for (const KvMemoryLine& l : m_.lines)
        if (!l.is_config)
            order.push_back(&l);
    for (const KvMemoryLine& l : m_.lines)
        if (l.is_config)
            order.push_back(&l);
    for (const KvMemoryLine* l : order) {
        QPainterPath path;
        for (std::size_t i = 0; i < l->points.size(); ++i) {
            const QPointF at =
                pointAt(rect, static_cast<double>(l->points[i].first), static_cast<double>(l->points[i].second));
            i == 0 ? path.moveTo(at) : path.lineTo(at);
        }
        const QColor ink = l->is_config ? style.info : style.muted;
        p.setPen(QPen(ink, l->is_config ? 4.0 : 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const bool named = l->is_config || l->kind != QLatin1String("GQA");
        const double y = path.currentPosition().y();
        const bool free = std::none_of(labelled.begin(), labelled.end(),
                                       [&](double other) { return std::abs(other - y) < fm.height(); });
        if (!named || (!free && !l->is_config))
            continue;
        labelled.push_back(y);
        const QString label = QStringLiteral("%1 · %2 kv").arg(l->kind).arg(l->kv_heads);
        p.setFont(fontOf(fontPx_, l->is_config));
        style.drawText(p, QRectF(plot.right() + 6, y - fm.height() / 2, rect.right() - plot.right() - 6, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, label,
                       l->is_config ? style.readable(ink, style.background) : style.text, style.background);
        p.setFont(fontOf(fontPx_));
    }
}

} // namespace attnlab::ui
