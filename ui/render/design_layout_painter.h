#pragma once
// Draws the three designs side by side (see design_geometry.h): weights as rectangles to one scale,
// filled with the head colours of the stepper (a wrapper head's own blocks; the integrated module's
// row slices; out_proj's column slices tinted, since it reads every head), biases as thin strips, the
// causal mask as a dashed buffer (state, not a parameter), and under each column the parameter
// count per role, the total and the output width -- or, for a design PyTorch cannot build, why not.
#include "render/design_geometry.h"
#include "render/render_style.h"

#include <QColor>
#include <QPainter>

namespace attnlab::ui {

struct DesignFooterLine {
    QString left, right; // "3 × W_query (768, 768)", "7,077,888"
    bool bold = false;   // the total and the output width
    bool trap = false;   // an output width that is not the d_out asked for
};

class DesignLayoutPainter {
public:
    DesignLayoutPainter() = default;
    explicit DesignLayoutPainter(DesignComparison comparison, int fontPx = 15);

    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    DesignGeometry geometry(const QRectF& rect) const;
    const DesignComparison& comparison() const { return comparison_; }
    bool valid() const { return !comparison_.designs.empty(); }

    // The colour a shape is filled with (tests compare pixels against it).
    QColor fillColor(const DesignShape& shape) const;
    // What the painter writes under a column: parameters per role, the total, the output width.
    std::vector<DesignFooterLine> footerLines(const DesignLayout& design) const;

    // The number written beside each head's colour (on its W_query block or slice), per column,
    // as the last paint placed it: tests and accessibility read these rather than pixels.
    struct HeadLabel {
        std::size_t column = 0;
        int head = 0;
        QRectF swatch, text;
        QString label;
    };
    const std::vector<HeadLabel>& headLabels() const { return headLabels_; }

private:
    DesignMetrics metrics() const;
    void paintHeader(QPainter& p, const DesignColumn& col, const DesignLayout& d) const;
    void paintFooter(QPainter& p, const DesignColumn& col, const DesignLayout& d) const;
    void paintMask(QPainter& p, const DesignColumn& col, const DesignShape& mask, const DesignLayout& d,
                   double scale) const;
    void paintRoleLabels(QPainter& p, const DesignGeometry& g) const;
    void paintHeadNumbers(QPainter& p, const DesignGeometry& g) const;

    DesignComparison comparison_;
    int fontPx_ = 15;
    mutable RenderStyle style_; // the one paint() was given
    mutable std::vector<HeadLabel> headLabels_;
};

} // namespace attnlab::ui
