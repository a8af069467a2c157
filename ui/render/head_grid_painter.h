#pragma once
// The layers x heads overview (bertviz's model view): every head's attention as a thumbnail, with the
// numbers that tell heads apart under it. The cells come in the order given -- a layer a row, or ranked by
// a measure -- `columns` to a row; cells filtered out are drawn faded, so the grid keeps its places.
#include "render/render_style.h"
#include "tensor/tensor.h"

#include <QImage>
#include <QSize>
#include <QRectF>
#include <QString>

#include <optional>
#include <vector>

class QPainter;

namespace attnlab::ui {

struct HeadGridCell {
    int layer = 0;
    int head = 0;
    QImage image;          // headThumbnail() of the head
    QString title;         // "L3 H5"
    QString detail;        // the measures, one short line
    bool shown = true;     // false: filtered out, drawn faded
    bool selected = false; // the Session's layer and head
};

// A (n, n) attention thumbnail as n x n pixels: viridis, each row scaled to its largest weight (where each
// query looks, at any length), the causal mask's upper triangle transparent: the painter hatches it at
// screen resolution in the masked grey of the heatmaps (colormap.h), the same in every theme.
QImage headThumbnail(const Tensor& thumbnail);

class HeadGridPainter {
public:
    HeadGridPainter() = default;
    HeadGridPainter(std::vector<HeadGridCell> cells, int columns, int thumbnailPx);

    // The thumbnail size, in [lo, hi] pixels, at which `columns` cells fill `space`'s width, made smaller
    // still when then every one of `rows` rows fits its height (a deep model scrolls instead of shrinking
    // its heads to specks); `cells`' widest title or detail line widens a cell as it does when painted.
    static int fittingThumbnail(QSize space, const std::vector<HeadGridCell>& cells, int columns, int rows,
                                const QFont& font, int lo = 48, int hi = 240);

    QSize size(const QFont& font) const; // what the whole grid takes
    QRectF cellRect(std::size_t index, const QFont& font) const;
    std::optional<std::size_t> cellAt(const QPointF& pos, const QFont& font) const;
    // `focus`: the cell the keyboard is on, framed apart from the selected one.
    void paint(QPainter& painter, const RenderStyle& style, std::optional<std::size_t> focus = std::nullopt) const;
    const std::vector<HeadGridCell>& cells() const { return cells_; }
    int columns() const { return columns_; } // cells a row

private:
    QSizeF cellSize(const QFont& font) const;

    std::vector<HeadGridCell> cells_;
    int columns_ = 1;
    int thumbnail_ = 72;
    QImage hatch_; // under each thumbnail's transparent masked half, made once for its size
};

} // namespace attnlab::ui
