#pragma once
// Draws the three designs side by side (see design_geometry.h): weights as rectangles to one scale,
// filled with the head colours of the stepper (a wrapper head's own blocks; the integrated module's
// row slices; out_proj's column slices tinted, since it reads every head), biases as thin strips, the
// causal mask as a dashed buffer (state, not a parameter), and under each column the parameter
// count per role, the total and the output width -- or, for a design PyTorch cannot build, why not.
#include "render/design_geometry.h"
#include "render/render_style.h"

#include <QColor>
#include <QFont>

#include <algorithm>
#include <QPainter>

namespace attnlab::ui {

struct DesignFooterLine {
    QString left, right; // "3 × W_query (768, 768)", "7,077,888"
    bool bold = false;   // the total and the output width
    bool trap = false;   // an output width that is not the d_out asked for
};

// The number written beside each head's colour (on its W_query block or slice), per column: tests
// and accessibility read these rather than pixels.
struct DesignHeadLabel {
    std::size_t column = 0;
    int head = 0;
    QRectF swatch, text;
    QString label;
    QFont font;
    bool inside = false; // on the colour (in ink that reads on `fill`), else beside it in the text colour
    QColor fill;
};

// A role's name over the first module's weight block of each column ("W_query", or "W_q" / "Q" where
// the blocks stand too close for it): never wider than half the way to the next block's centre on each side.
struct DesignRoleLabel {
    std::size_t column = 0;
    QRectF rect;
    QString label;
};

// Everything the painter draws where: the geometry, the role names and the head numbers at one size.
struct DesignDrawing {
    DesignGeometry geometry;
    QFont font; // the body type
    std::vector<DesignRoleLabel> roleLabels;
    std::vector<DesignHeadLabel> headLabels;
};

class DesignLayoutPainter {
public:
    DesignLayoutPainter() = default;
    explicit DesignLayoutPainter(DesignComparison comparison, int fontPx = 15);

    DesignGeometry geometry(const QRectF& rect) const;
    const DesignComparison& comparison() const { return comparison_; }
    bool valid() const { return !comparison_.designs.empty(); }
    // The body type in pixels: the window's, so a projector's larger type reaches the drawing's labels too.
    void setFontPx(int px) { fontPx_ = std::max(9, px); }
    int fontPx() const { return fontPx_; }

    // The colour a shape is filled with (tests compare pixels against it).
    QColor fillColor(const DesignShape& shape) const;
    // What the painter writes under a column: parameters per role, the total, the output width.
    std::vector<DesignFooterLine> footerLines(const DesignLayout& design) const;

    using HeadLabel = DesignHeadLabel;
    // The geometry at this size, with the head numbers placed in `font`'s family.
    DesignDrawing layout(const QRectF& rect, QFont font = QFont()) const;
    void paint(QPainter& painter, const DesignDrawing& drawing, const RenderStyle& style = RenderStyle::print()) const;
    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;

private:
    DesignMetrics metrics() const;
    void paintHeader(QPainter& p, const DesignColumn& col, const DesignLayout& d, const RenderStyle& rs) const;
    void paintFooter(QPainter& p, const DesignColumn& col, const DesignLayout& d, const RenderStyle& rs) const;
    void paintMask(QPainter& p, const DesignColumn& col, const DesignShape& mask, const DesignLayout& d, double scale,
                   const RenderStyle& rs) const;
    static std::vector<DesignRoleLabel> placeRoleLabels(const DesignGeometry& g, const QFont& font);
    void paintHeadNumbers(QPainter& p, const DesignDrawing& drawing, const RenderStyle& rs) const;
    // Drops numbers beside their slices that would overlap another's, keeping each column's first and last.
    static void keepBesideLabelsApart(std::vector<DesignHeadLabel>& labels);

    DesignComparison comparison_;
    int fontPx_ = 15;
};

} // namespace attnlab::ui
