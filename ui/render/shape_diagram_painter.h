#pragma once
// The tensor shape of one stage, drawn rather than printed: each axis a labelled block with its size.
// Stages that reshape show where they came from: view splits d_out into num_heads × head_dim (one
// colour per head, kept in later stages), transpose(1, 2) draws axes trading places, and the merge
// glues heads back. Strides, contiguity and the expected shape sit underneath. Where everything goes
// is ShapeDiagramLayout's (render/shape_diagram_layout.h); this draws a layout and fits one to a pane.
#include "forward/trace.h"
#include "render/render_style.h"
#include "render/shape_diagram_layout.h"

#include <QPainter>
#include <QRectF>

namespace attnlab::ui {

class ShapeDiagramPainter {
public:
    using HeadLabel = ShapeHeadLabel;

    ShapeDiagramPainter(const Trace& trace, int stageIndex, int selectedHead);
    // The layout at the largest scale at which everything, down to the badges, fits `rect`; `type`
    // is the type around the drawing (presentation type, zoom), which the drawing grows with.
    ShapeDiagramLayout layout(const QRectF& rect, const QFont& type = QFont()) const;
    // How tall a rect `width` wide must be for the smallest boxes with their text at `type` (what a
    // lesson pointing at the diagram asks its pane for), with the stage's sentence or without it.
    double heightAtType(double width, const QFont& type, bool caption = true) const;
    void paint(QPainter& painter, const ShapeDiagramLayout& layout,
               const RenderStyle& style = RenderStyle::print()) const;
    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    QString describe() const; // what paint() shows, in words (the widget's accessible description)

private:
    QRectF ink(const ShapeDiagramLayout& layout, const QFont& type) const; // where a trial painting puts ink

    const Trace& trace_;
    int stageIndex_;
    const Stage& stage_;
    int head_;
    static constexpr double kMinScale = 0.45; // below this the type is too small to read
};

} // namespace attnlab::ui
