#pragma once
// Where the design comparison puts things: three columns (integrated, wrapper from the same call,
// wrapper with matched width), every weight a rectangle of rows x columns at ONE scale shared by
// all three, so areas compare honestly. A wrapper is drawn as its heads, one complete module each,
// wrapped into as many sub-columns as fit; the integrated module's shared blocks carry head slices.
// Pure geometry: the painter draws it, tests read it.
#include "designs/design_layout.h"

#include <QRectF>
#include <QString>

#include <vector>

namespace attnlab::ui {

struct DesignShape {
    enum class Kind { Weight, Bias, Slice, Unit, Mask };
    Kind kind = Kind::Weight;
    QRectF rect;
    std::size_t column = 0;
    Role role = Role::Query;
    int head = -1;       // the head that owns it (wrapper blocks, slices); -1 when shared
    int slicedAxis = 0;  // Slice: 0 = rows of a weight or bias, 1 = columns (out_proj reads head h)
    QString name;        // state_dict name of the block (slices: the block they cut)
    bool ofBias = false; // a bias or a slice of one: the geometry knows, so no painter parses `name`
};

struct DesignColumn {
    QRectF column, header, body, buffers, footer;
    int perRow = 1; // head modules side by side in a wrapper column
};

struct DesignMetrics {
    double headerHeight = 60;
    double footerHeight = 150;
    double columnGap = 28;
    double minColumnWidth = 260;
    double roleGap = 10;           // between W_query, W_key, ... of one module (pixels, not to scale)
    double biasWidth = 6;          // a bias is one column wide; drawn as a strip this thick
    double minBufferLane = 60;     // room for the buffers' label, however small the masks are drawn
    double bufferLabelWidth = 180; // beside the masks
};

struct DesignGeometry {
    double scale = 0; // pixels per matrix element, the same in every column
    std::vector<DesignColumn> columns;
    std::vector<DesignShape> shapes; // in drawing order

    // The block, bias, slice or mask under `pos` (within a pixel), the one drawn last where they overlap:
    // a slice rather than the block it cuts.
    const DesignShape* hitTest(const QPointF& pos) const;
};

DesignGeometry layoutDesigns(const DesignComparison& comparison, const QRectF& rect, const DesignMetrics& metrics);

} // namespace attnlab::ui
