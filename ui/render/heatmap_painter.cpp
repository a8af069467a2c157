#include "render/heatmap_painter.h"
#include "render/text_fit.h"

#include "render/render_style.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

constexpr double kGap = 8;

// Black or white, whichever reads on a data cell: the colour scales stay fixed in every theme.
QColor inkOnCell(const QColor& cell)
{
    return contrastRatio(Qt::black, cell) >= contrastRatio(Qt::white, cell) ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace

QString formatValue(float value)
{
    if (std::isinf(value))
        return value < 0 ? QStringLiteral("−∞") : QStringLiteral("∞");
    return QString::number(value, 'f', std::abs(value) >= 100 ? 1 : 4); // four decimals, as the book prints
}

QString formatExact(float value, int digits)
{
    if (value != 0 && std::isfinite(value) && std::abs(value) < 0.01)
        return QString::number(value, 'g', digits); // 1/1,024 reads 0.0009766, not 0.001
    return formatValue(value);
}

HeatmapPainter::HeatmapPainter(HeatmapSlice slice, ColorScale scale, QStringList tokens, HeatmapStyle style)
    : slice_(std::move(slice)), scale_(std::move(scale)), tokens_(std::move(tokens)), style_(std::move(style))
{
}

QString describeHeatmapCell(const HeatmapHit& hit)
{
    auto token = [](const QString& label, int i) {
        return !label.isEmpty() && label != QString::number(i) ? QStringLiteral("'%1' (%2)").arg(label).arg(i)
                                                               : QStringLiteral("#%1").arg(i);
    };
    QString what = hit.masked ? QStringLiteral("masked (a later token), value %1").arg(formatExact(hit.value))
                              : formatExact(hit.value);
    if (hit.masked && std::isinf(hit.value))
        what = QStringLiteral("−∞ (masked: a later token)");
    return QStringLiteral("query %1 → key %2:  %3")
        .arg(token(hit.queryToken, hit.query), token(hit.keyToken, hit.key), what);
}

HeatmapLayout HeatmapPainter::layout(const QRectF& rect, const QFont& font) const
{
    return layoutHeatmap(style_, slice_.valid() ? slice_.rows : 0, slice_.valid() ? slice_.cols : 0, tokens_, rect,
                         font);
}

std::optional<HeatmapHit> HeatmapPainter::cell(int row, int col) const
{
    if (!slice_.valid() || row < 0 || col < 0 || row >= slice_.rows || col >= slice_.cols)
        return std::nullopt;
    auto token = [&](int i) { return i < tokens_.size() ? tokens_[i] : QString(); };
    return HeatmapHit{row, col, slice_.value(row, col), slice_.masked(row, col), token(row), token(col)};
}

std::optional<HeatmapHit> HeatmapPainter::hitTest(const QRectF& rect, const QPointF& pos) const
{
    const auto at = layout(rect).hitTest(pos);
    return at ? cell(at->row, at->col) : std::nullopt;
}

void HeatmapPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& rs) const
{
    paint(p, layout(rect, p.font()), rs);
}

void HeatmapPainter::paint(QPainter& p, const HeatmapLayout& l, const RenderStyle& rs) const
{
    p.save();
    p.setFont(l.font);
    const QRectF& m = l.matrix;
    if (l.hasTitle) {
        p.setFont(l.titleFont);
        if (style_.accent.alpha() > 0)
            p.fillRect(QRectF(l.titleRect.left(), l.titleRect.top() + 3, 6, l.titleRect.height() - 8), style_.accent);
        rs.drawText(p, l.title.rect, l.title.flags, l.title.text, rs.text, rs.background);
        p.setFont(l.font);
    }
    if (l.rows <= 0 || l.cols <= 0 || !slice_.valid()) {
        p.restore();
        return;
    }
    const QSize size(static_cast<int>(m.width()), static_cast<int>(m.height()));
    p.drawImage(m.topLeft(), image_.size() == size ? image_ : renderImage(slice_, scale_, size));
    const double cell = l.cell();
    if (cell >= 14 && slice_.rows <= 64) { // grid lines only where cells are big enough to need them
        // One-pixel fills, not lines: a stroked line through fractional points took ~2 ms per edit.
        const QColor line(255, 255, 255, 140);
        for (int i = 1; i < slice_.cols; ++i)
            p.fillRect(QRectF(std::round(m.left() + i * cell), m.top(), 1, m.height()), line);
        for (int i = 1; i < slice_.rows; ++i)
            p.fillRect(QRectF(m.left(), std::round(m.top() + i * cell), m.width(), 1), line);
    }
    paintValues(p, m, rs);
    p.setPen(QPen(style_.accent.alpha() > 0 ? style_.accent : rs.frame, style_.selected ? 5 : 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(m.adjusted(-1, -1, 1, 1));
    QFont bold = l.font;
    bold.setBold(true);
    for (const HeatmapLabel& label : l.labels) {
        p.save();
        p.setFont(label.bold ? bold : l.font);
        p.setTransform(label.transform, true);
        rs.drawText(p, label.rect, label.flags, label.text, rs.text, rs.background);
        p.restore();
    }
    if (style_.axes)
        p.setFont(bold); // the legend and footer have always been set in the axis titles' bold
    if (style_.legend)
        paintLegend(p, l.legend, rs);
    if (!l.footer.isEmpty()) {
        p.setFont(l.footerFont);
        rs.drawText(p, l.footer, Qt::AlignLeft | Qt::AlignTop, l.footerText, rs.text, rs.background);
    }
    p.restore();
}

void HeatmapPainter::paintValues(QPainter& p, const QRectF& m, const RenderStyle& rs) const
{
    const double cell = m.width() / slice_.cols;
    // Numbers only where they fit, in the type or down to three quarters of it (a projector's 6 × 6 book
    // matrix has cells too small for four decimals in its 22-pixel type); hover gives them everywhere else.
    QFont font = p.font();
    font.setPixelSize(style_.fontPx);
    const QString widest = QStringLiteral("-0.0000");
    const auto fits = [&](const QFontMetricsF& fm) { return fm.horizontalAdvance(widest) + 6 <= cell; };
    const std::optional<QFont> fitting = largestFitting(font, style_.fontPx, std::max(10, style_.fontPx * 3 / 4), fits);
    if (!fitting)
        return;
    p.save();
    p.setFont(*fitting);
    for (int r = 0; r < slice_.rows; ++r)
        for (int c = 0; c < slice_.cols; ++c) {
            const QRectF box(m.left() + c * cell, m.top() + r * cell, cell, cell);
            // Masked cells speak through the hatch; a printed 0 there would read as a learned zero.
            const float v = slice_.value(r, c);
            if (slice_.masked(r, c) && !std::isinf(v))
                continue;
            // On the hatch the text crosses both greys: the darker one is the one to read against.
            const QColor bg = slice_.masked(r, c) ? QColor(kMaskedDark) : QColor(scale_.map(v));
            rs.drawText(p, box, Qt::AlignCenter, formatValue(v), inkOnCell(bg), bg);
        }
    p.restore();
}

void HeatmapPainter::paintLegend(QPainter& p, const QRectF& area, const RenderStyle& rs) const
{
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    QFont small = p.font();
    small.setPixelSize(std::max(10, style_.fontPx - 3));
    small.setItalic(true);
    // Which kind of scale (diverging around 0 for signed scores, sequential for weights), then which
    // mapping: a log scale read as linear would mislead as much as a diverging one read as sequential.
    const QString kind = scale_.kindName(), mapping = scale_.scaleName;
    const double smallLine = QFontMetricsF(small).height();
    const QRectF kindRect(
        area.left(), area.top() + line * 1.3, area.width() + kGap,
        QFontMetricsF(small).boundingRect(QRectF(0, 0, area.width() + kGap, 1000), Qt::TextWordWrap, kind).height());
    const double barTop = kindRect.bottom() + smallLine * (mapping.isEmpty() ? 0.4 : 1.4);
    // A sliding window hides the keys too far back as well as the future ones, with the same -inf: the swatch's
    // caption takes a line more, which the bar gives up.
    const bool window = slice_.trace && slice_.trace->config.window_size.has_value();
    const QRectF bar(area.left(), barTop, style_.fontPx * 1.4, std::min(area.height() * (window ? 0.45 : 0.55), 320.0));
    QImage ramp(1, 256, QImage::Format_RGB32);
    for (int i = 0; i < 256; ++i)
        ramp.setPixel(0, 255 - i, scale_.map(scale_.valueAt(i / 255.0)));
    p.drawImage(bar, ramp);
    p.setPen(rs.frame);
    p.drawRect(bar);
    const QColor ink = rs.text, bg = rs.background;
    rs.drawText(p, QRectF(area.left(), area.top(), area.width(), line * 1.4), Qt::AlignLeft | Qt::AlignVCenter,
                scale_.kind == ColorScale::Kind::Sequential ? QStringLiteral("weight") : QStringLiteral("score"), ink,
                bg);
    p.save();
    p.setFont(small);
    rs.drawText(p, kindRect, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, kind, rs.muted, bg);
    if (!mapping.isEmpty())
        rs.drawText(p, QRectF(area.left(), kindRect.bottom(), area.width() + kGap, smallLine * 1.2),
                    Qt::AlignLeft | Qt::AlignVCenter, mapping, rs.muted, bg);
    p.restore();
    const double tx = bar.right() + 5;
    rs.drawText(p, QPointF(tx, bar.top() + line * 0.7), formatExact(static_cast<float>(scale_.valueAt(1.0)), 2), ink,
                bg);
    rs.drawText(p, QPointF(tx, bar.center().y() + line * 0.3), formatExact(static_cast<float>(scale_.valueAt(0.5)), 2),
                ink, bg);
    rs.drawText(p, QPointF(tx, bar.bottom()), formatExact(static_cast<float>(scale_.valueAt(0.0)), 2), ink, bg);
    if (!slice_.maskSource)
        return;
    const QRectF swatch(area.left(), bar.bottom() + line, bar.width(), bar.width());
    p.drawImage(swatch.topLeft(), maskedHatch(swatch.size().toSize()));
    p.setPen(rs.frame);
    p.drawRect(swatch);
    rs.drawText(p, QRectF(area.left(), swatch.bottom() + 4, area.width(), line * (window ? 3.3 : 2.2)),
                Qt::AlignLeft | Qt::TextWordWrap,
                window ? QStringLiteral("masked\n(future or\nwindow)") : QStringLiteral("masked\n(future)"), ink, bg);
}

} // namespace attnlab::ui
