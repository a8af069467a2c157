#include "render/head_grid_painter.h"

#include "render/colormap.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace attnlab::ui {

namespace {

constexpr double kGap = 8, kPad = 3;

// The widest title or detail line: a cell is at least this wide, whatever its thumbnail.
double longestLine(const std::vector<HeadGridCell>& cells, const QFontMetricsF& fm)
{
    double text = 0;
    for (const HeadGridCell& c : cells)
        text = std::max({text, fm.horizontalAdvance(c.title), fm.horizontalAdvance(c.detail)});
    return text;
}

} // namespace

QImage headThumbnail(const Tensor& thumbnail)
{
    if (thumbnail.dim() != 2 || thumbnail.numel() == 0)
        return {};
    const Tensor t = thumbnail.contiguous();
    const auto n = static_cast<int>(t.size(0));
    const float* w = t.data();
    QImage image(n, n, QImage::Format_ARGB32);
    for (int r = 0; r < n; ++r) {
        // Each row to its own largest weight: the first rows have few keys and weights near 1, which scaled
        // together left every later row -- where heads differ -- in the darkest colour.
        const float top = *std::max_element(w + r * n, w + r * n + n);
        const ColorScale scale = ColorScale::weightsToLargest(top > 0 ? top : 1.0f);
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
        for (int c = 0; c < n; ++c)
            line[c] = c > r ? qRgba(0, 0, 0, 0) : (scale.map(w[r * n + c]) | 0xff000000);
    }
    return image;
}

HeadGridPainter::HeadGridPainter(std::vector<HeadGridCell> cells, int columns, int thumbnailPx)
    : cells_(std::move(cells)), columns_(std::max(1, columns)), thumbnail_(std::max(8, thumbnailPx)),
      hatch_(maskedHatch({thumbnail_, thumbnail_}))
{
}

QSizeF HeadGridPainter::cellSize(const QFont& font) const
{
    const QFontMetricsF fm(font);
    return {std::max<double>(thumbnail_, longestLine(cells_, fm)) + 2 * kPad, thumbnail_ + 2 * fm.height() + 3 * kPad};
}

int HeadGridPainter::fittingThumbnail(QSize space, const std::vector<HeadGridCell>& cells, int columns, int rows,
                                      const QFont& font, int lo, int hi)
{
    const QFontMetricsF fm(font);
    const double longest = longestLine(cells, fm);
    columns = std::max(1, columns);
    rows = std::max(1, rows);
    const double across = space.width() / double(columns) - kGap - 2 * kPad;
    int thumb = std::clamp(static_cast<int>(across), lo, hi);
    if (longest > across) // the words set the cell's width, so the thumbnail cannot take all of it
        thumb = std::clamp(static_cast<int>(across - (longest - thumb)), lo, thumb);
    const double down = space.height() / double(rows) - kGap - 3 * kPad - 2 * fm.height();
    if (down >= lo)
        thumb = std::min(thumb, static_cast<int>(down));
    return thumb;
}

QSize HeadGridPainter::size(const QFont& font) const
{
    const QSizeF c = cellSize(font);
    const auto n = static_cast<int>(cells_.size());
    const int rows = (n + columns_ - 1) / columns_;
    const int cols = std::min(n, columns_);
    return QSizeF(cols * (c.width() + kGap), rows * (c.height() + kGap)).toSize();
}

QRectF HeadGridPainter::cellRect(std::size_t index, const QFont& font) const
{
    const QSizeF c = cellSize(font);
    const auto i = static_cast<int>(index);
    return {(i % columns_) * (c.width() + kGap), (i / columns_) * (c.height() + kGap), c.width(), c.height()};
}

std::optional<std::size_t> HeadGridPainter::cellAt(const QPointF& pos, const QFont& font) const
{
    for (std::size_t i = 0; i < cells_.size(); ++i)
        if (cellRect(i, font).contains(pos))
            return i;
    return std::nullopt;
}

void HeadGridPainter::paint(QPainter& p, const RenderStyle& style, std::optional<std::size_t> focus) const
{
    const QFont font = p.font();
    const QFontMetricsF fm(font);
    for (std::size_t i = 0; i < cells_.size(); ++i) {
        const HeadGridCell& cell = cells_[i];
        const QRectF r = cellRect(i, font);
        p.setPen(cell.selected ? QPen(style.info, 2) : QPen(style.frame, 1));
        p.setBrush(style.panel);
        p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        const QRectF thumb(r.left() + (r.width() - thumbnail_) / 2, r.top() + kPad, thumbnail_, thumbnail_);
        p.setOpacity(cell.shown ? 1.0 : 0.25);
        if (!cell.image.isNull()) {
            p.drawImage(thumb.topLeft(), hatch_);                    // under the transparent masked half
            p.setRenderHint(QPainter::SmoothPixmapTransform, false); // crisp cells, as many as fit
            p.drawImage(thumb, cell.image);
        }
        p.setOpacity(1.0); // the words stay readable: a filtered head is named in muted ink
        const QColor ink = cell.shown ? style.text : style.readable(style.muted, style.panel);
        const QRectF title(r.left() + kPad, thumb.bottom() + kPad, r.width() - 2 * kPad, fm.height());
        const QRectF detail(title.left(), title.bottom(), title.width(), fm.height());
        style.drawText(p, title, Qt::AlignLeft | Qt::AlignVCenter, cell.title, ink, style.panel);
        style.drawText(p, detail, Qt::AlignLeft | Qt::AlignVCenter, cell.detail, ink, style.panel);
    }
    if (focus && *focus < cells_.size()) {           // a dashed ring inside the cell, apart from the selected frame
        p.setPen(QPen(style.text, 2, Qt::DashLine)); // over the cell's frame, never over its thumbnail
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(cellRect(*focus, font).adjusted(1, 1, -1, -1), 3, 3);
    }
}

} // namespace attnlab::ui
