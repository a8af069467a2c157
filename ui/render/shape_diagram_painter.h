#pragma once
// The tensor shape of one stage, drawn rather than printed: each axis a labelled block with its size.
// Stages that reshape show where they came from: view splits d_out into num_heads × head_dim (one
// colour per head, kept in later stages), transpose(1, 2) draws axes trading places, and the merge
// glues heads back. Strides, contiguity and the expected shape sit underneath.
#include "forward/trace.h"
#include "render/render_style.h"

#include <QPainter>
#include <QRectF>

namespace attnlab::ui {

class ShapeDiagramPainter {
public:
    ShapeDiagramPainter(const Trace& trace, int stageIndex, int selectedHead);
    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    QString describe() const; // what paint() shows, in words (the widget's accessible description)

    // Every head colour the last paint drew, with the number written beside it (tests and
    // accessibility read these rather than pixels).
    struct HeadLabel {
        int head = 0;
        QRectF swatch; // where the colour is
        QRectF text;   // where its number is
        QString label;
    };
    const std::vector<HeadLabel>& headLabels() const { return headLabels_; }

private:
    enum class Op { None, Split, Transpose, Merge };
    struct Block {
        Axis axis = Axis::b;
        std::int64_t size = 0;
        QRectF rect;
        int dim = -1;
    };

    const Stage* previousShapeStage() const; // the stage whose axes this one rearranges
    Op op() const;
    QString opLabel() const; // the arithmetic or axis move this stage performs
    double blockWidth(Axis axis, std::int64_t size) const;
    std::vector<Block> layoutRow(const std::vector<Axis>& axes, const Shape& shape, double top, double left) const;
    void drawBlock(QPainter& p, const Block& b, bool dOutStriped) const;
    bool drawHeadStripes(QPainter& p, const QRectF& r) const; // false: too narrow to number each
    void drawHeadLabel(QPainter& p, int head, const QRectF& swatch, const QRectF& drawAt, const QRectF& onPage,
                       const QString& label, const QColor& fill) const;
    void drawFooter(QPainter& p, const QRectF& area, const std::vector<Block>& row) const;
    double paintHeader(QPainter& p, const QRectF& rect) const;

    const Trace& trace_;
    const Stage& stage_;
    int head_;
    int heads_;
    static constexpr double kMinScale = 0.45; // below this the type is too small to read
    void paintAtScale(QPainter& p, const QRectF& rect, const RenderStyle& style, double scale) const;
    mutable double scale_ = 1.0; // fitted to the rect on every paint
    mutable RenderStyle style_;  // the one paint() was given
    mutable std::vector<HeadLabel> headLabels_;
};

} // namespace attnlab::ui
