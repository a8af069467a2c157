#include "render/heatmap_painter.h"

#include "render/render_style.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

constexpr double kGap = 8;

int legendWidth(int fontPx)
{
    return fontPx * 6;
}

// Black or white, whichever reads on a data cell: the colour scales stay fixed in every theme.
QColor inkOnCell(const QColor& cell)
{
    return contrastRatio(Qt::black, cell) >= contrastRatio(Qt::white, cell) ? QColor(Qt::black) : QColor(Qt::white);
}

double labelWidth(const QFont& font, const QStringList& tokens)
{
    const QFontMetricsF fm(font);
    double w = 0;
    for (const QString& t : tokens)
        w = std::max(w, fm.horizontalAdvance(t));
    return w;
}

// Shows every step-th label so they never overlap, however many tokens there are.
int labelStep(double cellSize, double textHeight)
{
    return std::max(1, static_cast<int>(std::ceil(textHeight / std::max(cellSize, 0.01))));
}

} // namespace

QString formatValue(float value)
{
    if (std::isinf(value))
        return value < 0 ? QStringLiteral("−∞") : QStringLiteral("∞");
    return QString::number(value, 'f', std::abs(value) >= 100 ? 1 : 3);
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

QRectF HeatmapPainter::legendRect(const QRectF& rect) const
{
    if (!style_.legend)
        return {};
    return QRectF(rect.right() - legendWidth(style_.fontPx), rect.top(), legendWidth(style_.fontPx), rect.height());
}

QRectF HeatmapPainter::matrixRect(const QRectF& rect) const
{
    QFont font;
    font.setPixelSize(style_.fontPx);
    const double line = QFontMetricsF(font).height();
    double left = rect.left() + 2, top = rect.top() + (style_.title.isEmpty() ? 2 : line * 1.4);
    double right = rect.right() - 2, bottom = rect.bottom() - 2;
    if (!style_.footer.isEmpty())
        bottom -= line * (style_.footer.count(QLatin1Char('\n')) + 1) + kGap;
    if (style_.axes) {
        const double labels = std::min(labelWidth(font, tokens_), style_.fontPx * 7.0) + kGap;
        left += line + kGap + labels; // "query" title, then row labels
        bottom -= line + labels;      // column labels (vertical), then "key" title
    }
    if (style_.legend)
        right -= legendWidth(style_.fontPx) + kGap;
    const double side = std::max(0.0, std::min(right - left, bottom - top));
    return QRectF(left, top, side, side);
}

HeatmapPainter::FittedTitle HeatmapPainter::fitTitle(const QString& title, QFont font, double width)
{
    const int px = font.pixelSize() > 0 ? font.pixelSize() : 16;
    for (int size = px; size >= (px * 3 + 3) / 4; --size) {
        font.setPixelSize(size);
        if (QFontMetricsF(font).horizontalAdvance(title) <= width)
            return {font, title};
    }
    return {font, QFontMetricsF(font).elidedText(title, Qt::ElideRight, std::max(0.0, width))};
}

void HeatmapPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& rs) const
{
    p.save();
    QFont font = p.font();
    font.setPixelSize(style_.fontPx);
    p.setFont(font);
    const QRectF m = matrixRect(rect);
    if (!style_.title.isEmpty()) {
        QFont bold = font;
        bold.setBold(true);
        // The title runs from the matrix's left edge to the legend (or the edge): a long one ("head 0 of 4 ·
        // Weights (softmax) · 57 × 57 tokens" over a narrow matrix) is set smaller, then elided, never cut.
        const double end = style_.legend ? legendRect(rect).left() - kGap : rect.right();
        const QRectF titleRect(m.left(), rect.top(), std::max(m.width(), end - m.left()), m.top() - rect.top());
        const QRectF textRect = titleRect.adjusted(style_.accent.alpha() > 0 ? 11 : 0, 0, 0, 0);
        const FittedTitle fitted = fitTitle(style_.title, bold, textRect.width());
        p.setFont(fitted.font);
        if (style_.accent.alpha() > 0)
            p.fillRect(QRectF(titleRect.left(), titleRect.top() + 3, 6, titleRect.height() - 8), style_.accent);
        rs.drawText(p, textRect, Qt::AlignLeft | Qt::AlignVCenter, fitted.text, rs.text, rs.background);
        p.setFont(font);
    }
    if (!slice_.valid() || m.width() < 2) {
        p.restore();
        return;
    }
    const QSize size(static_cast<int>(m.width()), static_cast<int>(m.height()));
    if (cache_.size() != size)
        cache_ = renderImage(slice_, scale_, size);
    p.drawImage(m.topLeft(), cache_);
    const double cell = m.width() / slice_.cols;
    if (cell >= 14 && slice_.rows <= 64) { // grid lines only where cells are big enough to need them
        p.setPen(QPen(QColor(255, 255, 255, 140), 1));
        // One-pixel fills, not lines: a stroked line through fractional points took ~2 ms per edit.
        const QColor line = p.pen().color();
        for (int i = 1; i < slice_.cols; ++i)
            p.fillRect(QRectF(std::round(m.left() + i * cell), m.top(), 1, m.height()), line);
        for (int i = 1; i < slice_.rows; ++i)
            p.fillRect(QRectF(m.left(), std::round(m.top() + i * cell), m.width(), 1), line);
    }
    paintValues(p, m, rs);
    p.setPen(QPen(style_.accent.alpha() > 0 ? style_.accent : rs.frame, style_.selected ? 5 : 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(m.adjusted(-1, -1, 1, 1));
    if (style_.axes)
        paintAxes(p, m, rs);
    if (style_.legend)
        paintLegend(p, legendRect(rect), rs);
    if (!style_.footer.isEmpty()) {
        rs.drawText(
            p, QRectF(m.left(), m.bottom() + kGap, std::max(m.width(), rect.width() - 4), rect.bottom() - m.bottom()),
            Qt::AlignLeft | Qt::AlignTop, style_.footer, rs.text, rs.background);
    }
    p.restore();
}

std::optional<HeatmapHit> HeatmapPainter::hitTest(const QRectF& rect, const QPointF& pos) const
{
    const QRectF m = matrixRect(rect);
    if (!slice_.valid() || !m.contains(pos) || m.width() <= 0)
        return std::nullopt;
    HeatmapHit hit;
    hit.query = std::clamp(static_cast<int>((pos.y() - m.top()) / m.height() * slice_.rows), 0, slice_.rows - 1);
    hit.key = std::clamp(static_cast<int>((pos.x() - m.left()) / m.width() * slice_.cols), 0, slice_.cols - 1);
    hit.value = slice_.value(hit.query, hit.key); // the exact cell, whatever the display averaged
    hit.masked = slice_.masked(hit.query, hit.key);
    return hit;
}

void HeatmapPainter::paintValues(QPainter& p, const QRectF& m, const RenderStyle& rs) const
{
    const double cell = m.width() / slice_.cols;
    if (cell < style_.fontPx * 3.4)
        return; // numbers only where they fit; hover gives them everywhere else
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
}

void HeatmapPainter::paintAxes(QPainter& p, const QRectF& m, const RenderStyle& rs) const
{
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    const double cell = m.height() / slice_.rows;
    const int step = labelStep(cell, line * 0.95);
    const double labels = std::min(labelWidth(p.font(), tokens_), style_.fontPx * 7.0);
    const QColor ink = rs.text, bg = rs.background;
    for (int r = 0; r < slice_.rows && r < tokens_.size(); r += step) {
        const QRectF box(m.left() - kGap - labels, m.top() + r * cell + cell / 2 - line / 2, labels, line);
        rs.drawText(p, box, Qt::AlignRight | Qt::AlignVCenter, fm.elidedText(tokens_[r], Qt::ElideRight, labels), ink,
                    bg);
    }
    for (int c = 0; c < slice_.cols && c < tokens_.size(); c += step) { // vertical key labels under the matrix
        p.save();
        p.translate(m.left() + c * cell + cell / 2 + line / 2 - 2, m.bottom() + kGap);
        p.rotate(90);
        rs.drawText(p, QRectF(0, 0, labels, line), Qt::AlignLeft | Qt::AlignVCenter,
                    fm.elidedText(tokens_[c], Qt::ElideRight, labels), ink, bg);
        p.restore();
    }
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    rs.drawText(p, QRectF(m.left(), m.bottom() + kGap + labels, m.width(), line), Qt::AlignCenter,
                QStringLiteral("key  (the token attended to) →"), ink, bg);
    p.save();
    p.translate(m.left() - 2 * kGap - labels - line, m.bottom());
    p.rotate(-90);
    rs.drawText(p, QRectF(0, 0, m.height(), line), Qt::AlignCenter, QStringLiteral("query  (the token looking) →"), ink,
                bg);
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
    const QRectF bar(area.left(), barTop, style_.fontPx * 1.4, std::min(area.height() * 0.55, 320.0));
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
    QImage hatch(swatch.size().toSize(), QImage::Format_RGB32);
    for (int y = 0; y < hatch.height(); ++y)
        for (int x = 0; x < hatch.width(); ++x)
            hatch.setPixel(x, y, maskedColor(x, y));
    p.drawImage(swatch.topLeft(), hatch);
    p.setPen(rs.frame);
    p.drawRect(swatch);
    rs.drawText(p, QRectF(area.left(), swatch.bottom() + 4, area.width(), line * 2.2), Qt::AlignLeft | Qt::TextWordWrap,
                QStringLiteral("masked\n(future)"), ink, bg);
}

} // namespace attnlab::ui
