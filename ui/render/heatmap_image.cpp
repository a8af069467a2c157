// The heatmap's pixels: each pixel is the mean of the cells under it (masked and non-finite cells
// left out), so a 1,024 x 1,024 head drawn in 200 px keeps its structure instead of aliasing.
// This runs on the GUI thread for every head after each edit, so it walks the rows in memory order
// with the column bins computed once: all twelve GPT-2 heads at 1,024 tokens in tens of ms.
#include "render/heatmap_painter.h"

#include <QImage>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnlab::ui {

namespace {

// The cells [first, last) under each pixel; with more pixels than cells, a pixel shows one cell.
struct Bins {
    std::vector<int> first, last;
    Bins(int cells, int pixels) : first(pixels), last(pixels)
    {
        for (int p = 0; p < pixels; ++p) {
            first[p] = static_cast<int>(static_cast<std::int64_t>(p) * cells / pixels);
            last[p] = std::max(first[p] + 1, static_cast<int>(static_cast<std::int64_t>(p + 1) * cells / pixels));
        }
    }
};

bool maskedCell(float maskValue)
{
    return std::isinf(maskValue) && maskValue < 0;
}

// Fewer cells than pixels (the book's 6 x 6): each cell's colour once, then copied to its pixels.
QImage renderCells(const HeatmapSlice& s, const ColorScale& scale, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    const int w = size.width(), h = size.height();
    constexpr QRgb kMasked = 0x00000000; // alpha 0 never comes out of a colour map (all opaque)
    std::vector<QRgb> cell(static_cast<std::size_t>(s.rows) * s.cols);
    for (int r = 0; r < s.rows; ++r)
        for (int c = 0; c < s.cols; ++c) {
            const float v = s.value(r, c);
            cell[static_cast<std::size_t>(r) * s.cols + c] =
                s.masked(r, c) || !std::isfinite(v) ? kMasked : scale.map(v);
        }
    const Bins cols(s.cols, w), rows(s.rows, h);
    for (int py = 0; py < h; ++py) {
        const QRgb* src = cell.data() + static_cast<std::size_t>(rows.first[py]) * s.cols;
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(py));
        for (int px = 0; px < w; ++px) {
            const QRgb colour = src[cols.first[px]];
            line[px] = colour == kMasked ? maskedColor(px, py) : colour;
        }
    }
    return image;
}

} // namespace

QImage HeatmapPainter::renderImage(const HeatmapSlice& s, const ColorScale& scale, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    if (!s.valid() || size.isEmpty()) {
        image.fill(Qt::white);
        return image;
    }
    const int w = size.width(), h = size.height();
    if (s.rows <= h && s.cols <= w)
        return renderCells(s, scale, size);
    const Bins cols(s.cols, w), rows(s.rows, h);
    std::vector<double> sum(w);
    std::vector<int> count(w);
    for (int py = 0; py < h; ++py) {
        std::fill(sum.begin(), sum.end(), 0.0);
        std::fill(count.begin(), count.end(), 0);
        for (int r = rows.first[py]; r < rows.last[py]; ++r) {
            const float* row = s.values + static_cast<std::size_t>(r) * s.cols;
            const float* mask = s.maskSource ? s.maskSource + static_cast<std::size_t>(r) * s.cols : nullptr;
            for (int px = 0; px < w; ++px) {
                double acc = 0;
                int n = 0;
                for (int c = cols.first[px]; c < cols.last[px]; ++c) {
                    const float v = row[c];
                    if (std::isfinite(v) && !(mask && maskedCell(mask[c]))) {
                        acc += v;
                        ++n;
                    }
                }
                sum[px] += acc;
                count[px] += n;
            }
        }
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(py));
        // A pixel is masked only when every cell under it is: the diagonal stays coloured.
        for (int px = 0; px < w; ++px)
            line[px] = count[px] == 0 ? maskedColor(px, py) : scale.map(sum[px] / count[px]);
    }
    return image;
}

} // namespace attnlab::ui
