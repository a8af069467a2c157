#include "render/heatmap_layout.h"

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

constexpr double kGap = 8;

int legendWidth(int fontPx)
{
    return fontPx * 6;
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

// A footer line wider than the heatmap is broken at its " · " separators, and a part still too wide is
// set smaller (to 3/4 at most, as titles are): in projector type a small head's measures would otherwise
// run past its edge and be cut. Where even that is too wide, the abbreviated footer is tried the same way,
// and a line that still does not fit is elided.
FittedText fitFooterLines(const QString& footer, QFont font, double width)
{
    QStringList lines;
    for (const QString& line : footer.split(QLatin1Char('\n'))) {
        if (QFontMetricsF(font).horizontalAdvance(line) <= width)
            lines << line;
        else
            lines << line.split(QStringLiteral(" · "));
    }
    QString widest;
    for (const QString& line : lines)
        if (QFontMetricsF(font).horizontalAdvance(line) > QFontMetricsF(font).horizontalAdvance(widest))
            widest = line;
    return {fitTitle(widest, font, width).font, lines.join(QLatin1Char('\n'))};
}

bool fitsWidth(const FittedText& fitted, double width)
{
    const QFontMetricsF fm(fitted.font);
    for (const QString& line : fitted.text.split(QLatin1Char('\n')))
        if (fm.horizontalAdvance(line) > width)
            return false;
    return true;
}

FittedText fitFooter(const HeatmapStyle& style, const QFont& font, double width)
{
    FittedText fitted = fitFooterLines(style.footer, font, width);
    if (!fitsWidth(fitted, width) && !style.footerShort.isEmpty())
        fitted = fitFooterLines(style.footerShort, font, width);
    if (!fitsWidth(fitted, width)) {
        const QFontMetricsF fm(fitted.font);
        QStringList lines = fitted.text.split(QLatin1Char('\n'));
        for (QString& line : lines)
            line = fm.elidedText(line, Qt::ElideRight, std::max(0.0, width));
        fitted.text = lines.join(QLatin1Char('\n'));
    }
    return fitted;
}

QRectF matrixIn(const HeatmapStyle& style, const QString& footer, const QStringList& tokens, const QRectF& rect)
{
    QFont font;
    font.setPixelSize(style.fontPx);
    const double line = QFontMetricsF(font).height();
    double left = rect.left() + 2, top = rect.top() + (style.title.isEmpty() ? 2 : line * 1.4);
    double right = rect.right() - 2, bottom = rect.bottom() - 2;
    if (!footer.isEmpty())
        bottom -= line * (footer.count(QLatin1Char('\n')) + 1) + kGap;
    if (style.axes) {
        const double labels = std::min(labelWidth(font, tokens), style.fontPx * 7.0) + kGap;
        left += line + kGap + labels; // "query" title, then row labels
        bottom -= line + labels;      // column labels (vertical), then "key" title
    }
    if (style.legend)
        right -= legendWidth(style.fontPx) + kGap;
    const double side = std::max(0.0, std::min(right - left, bottom - top));
    return QRectF(left, top, side, side);
}

void addAxes(HeatmapLayout& l, const QStringList& tokens, int fontPx)
{
    const QFontMetricsF fm(l.font);
    const QRectF& m = l.matrix;
    const double line = l.line, cell = m.height() / l.rows;
    const int step = labelStep(cell, line * 0.95);
    const double labels = std::min(labelWidth(l.font, tokens), fontPx * 7.0);
    for (int r = 0; r < l.rows && r < tokens.size(); r += step)
        l.labels.push_back({QRectF(m.left() - kGap - labels, m.top() + r * cell + cell / 2 - line / 2, labels, line),
                            Qt::AlignRight | Qt::AlignVCenter,
                            fm.elidedText(tokens[r], Qt::ElideRight, labels),
                            false,
                            {}});
    for (int c = 0; c < l.cols && c < tokens.size(); c += step) { // vertical key labels under the matrix
        QTransform down;
        down.translate(m.left() + c * cell + cell / 2 + line / 2 - 2, m.bottom() + kGap);
        down.rotate(90);
        l.labels.push_back({QRectF(0, 0, labels, line), Qt::AlignLeft | Qt::AlignVCenter,
                            fm.elidedText(tokens[c], Qt::ElideRight, labels), false, down});
    }
    // The axis titles in full where the matrix is long enough for them, else their first word: in projector
    // type beside the heads the full titles ran past both ends of a small matrix ("uery", "ey").
    QFont bold = l.font;
    bold.setBold(true);
    const auto title = [&bold](const QString& full, const QString& brief, double room) {
        return QFontMetricsF(bold).horizontalAdvance(full) <= room ? full : brief;
    };
    l.labels.push_back({QRectF(m.left(), m.bottom() + kGap + labels, m.width(), line),
                        Qt::AlignCenter,
                        title(QStringLiteral("key  (the token attended to) →"), QStringLiteral("key →"), m.width()),
                        true,
                        {}});
    // The query title reads downwards, the way the query index grows, so its arrow points down the rows.
    QTransform down_rows;
    down_rows.translate(m.left() - 2 * kGap - labels, m.top());
    down_rows.rotate(90);
    l.labels.push_back({QRectF(0, 0, m.height(), line), Qt::AlignCenter,
                        title(QStringLiteral("query  (the token looking) →"), QStringLiteral("query →"), m.height()),
                        true, down_rows});
}

} // namespace

std::optional<HeatmapCellIndex> HeatmapLayout::hitTest(const QPointF& pos) const
{
    if (rows <= 0 || cols <= 0 || !matrix.contains(pos) || matrix.width() <= 0)
        return std::nullopt;
    return HeatmapCellIndex{
        std::clamp(static_cast<int>((pos.y() - matrix.top()) / matrix.height() * rows), 0, rows - 1),
        std::clamp(static_cast<int>((pos.x() - matrix.left()) / matrix.width() * cols), 0, cols - 1)};
}

QRectF HeatmapLayout::cellRect(int row, int col) const
{
    if (rows <= 0 || cols <= 0)
        return {};
    const double w = matrix.width() / cols, h = matrix.height() / rows;
    return QRectF(matrix.left() + col * w, matrix.top() + row * h, w, h);
}

HeatmapLayout layoutHeatmap(const HeatmapStyle& style, int rows, int cols, const QStringList& tokens,
                            const QRectF& rect, QFont font)
{
    HeatmapLayout l;
    l.bounds = rect;
    font.setPixelSize(style.fontPx);
    l.font = font;
    l.line = QFontMetricsF(font).height();
    QFont footerFont = font; // as the painter sets it: in the axis titles' bold when there are axes
    footerFont.setBold(style.axes);
    if (!style.footer.isEmpty()) {
        const FittedText footer = fitFooter(style, footerFont, rect.width() - 4);
        l.footerText = footer.text;
        l.footerFont = footer.font;
    }
    l.matrix = matrixIn(style, l.footerText, tokens, rect);
    if (style.legend)
        l.legend =
            QRectF(rect.right() - legendWidth(style.fontPx), rect.top(), legendWidth(style.fontPx), rect.height());
    if (!style.title.isEmpty()) {
        // The title runs from the matrix's left edge to the legend (or the edge): a long one ("head 0 of 4 ·
        // Weights (softmax) · 57 × 57 tokens" over a narrow matrix) is set smaller, then elided, never cut.
        QFont bold = font;
        bold.setBold(true);
        const QRectF& m = l.matrix;
        const double end = style.legend ? l.legend.left() - kGap : rect.right();
        l.hasTitle = true;
        l.titleRect = QRectF(m.left(), rect.top(), std::max(m.width(), end - m.left()), m.top() - rect.top());
        const QRectF textRect = l.titleRect.adjusted(style.accent.alpha() > 0 ? 11 : 0, 0, 0, 0);
        const FittedText fitted = fitTitle(style.title, bold, textRect.width());
        l.titleFont = fitted.font;
        l.title = {textRect, Qt::AlignLeft | Qt::AlignVCenter, fitted.text, true, {}};
    }
    if (rows <= 0 || cols <= 0 || l.matrix.width() < 2)
        return l; // nothing to draw but the title
    l.rows = rows;
    l.cols = cols;
    if (style.axes)
        addAxes(l, tokens, style.fontPx);
    if (!style.footer.isEmpty())
        l.footer = QRectF(l.matrix.left(), l.matrix.bottom() + kGap, std::max(l.matrix.width(), rect.width() - 4),
                          rect.bottom() - l.matrix.bottom());
    return l;
}

} // namespace attnlab::ui
