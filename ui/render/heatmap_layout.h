#pragma once
// Where one heatmap puts things, computed without painting: the matrix square, the legend, the title
// fitted to its room, the token labels that fit without overlapping and the axis titles, all from the
// style, the tokens and the size. Hit-testing reads the same rectangles the painter fills, so the
// cell under the mouse, the keyboard's cell and the screen reader's cell are one.
#include "render/text_fit.h"

#include <QColor>
#include <QRectF>
#include <QStringList>
#include <QTransform>

#include <optional>
#include <vector>

namespace attnlab::ui {

struct HeatmapStyle {
    QString title;
    QColor accent = Qt::transparent; // the head's colour, as a frame and title chip
    bool axes = true;                // token labels, "query" / "key" axis titles
    bool legend = true;
    bool selected = false; // thicker frame (small multiples)
    int fontPx = 15;
    QString footer; // lines under the matrix, e.g. the head's measures (trained models)
    // The same lines abbreviated, for a heatmap too narrow for `footer` even broken at its " · " and in 3/4 type
    // (a small multiple of 16 heads); empty: none. A line that still does not fit is elided, never cut.
    QString footerShort;
};

// A piece of text: `rect` in the frame `transform` maps onto the canvas (the key labels run downwards).
struct HeatmapLabel {
    QRectF rect;
    int flags = 0;
    QString text;
    bool bold = false;
    QTransform transform;
    QRectF onCanvas() const { return transform.mapRect(rect); }
};

struct HeatmapCellIndex {
    int row = 0; // the query
    int col = 0; // the key
};

struct HeatmapLayout {
    QRectF bounds, matrix, legend; // legend empty without one
    QFont font;                    // the body type, at the style's size
    double line = 0;               // its line height
    int rows = 0, cols = 0;
    bool hasTitle = false;
    QRectF titleRect;   // from the matrix's left edge to the legend; the accent chip sits at its left
    HeatmapLabel title; // in `titleFont`
    QFont titleFont;
    std::vector<HeatmapLabel> labels; // token labels and axis titles, in `font` (bold where marked)
    QRectF footer;                    // the style's footer lines, when it has them
    QString footerText;               // those lines, broken further where one is wider than the heatmap
    QFont footerFont;                 // and their type, smaller where a part is still wider

    double cell() const { return cols > 0 ? matrix.width() / cols : 0; }
    std::optional<HeatmapCellIndex> hitTest(const QPointF& pos) const;
    QRectF cellRect(int row, int col) const;
};

// `font` gives the family (the painter's or widget's font); its size is the style's.
HeatmapLayout layoutHeatmap(const HeatmapStyle& style, int rows, int cols, const QStringList& tokens,
                            const QRectF& rect, QFont font = QFont());

} // namespace attnlab::ui
