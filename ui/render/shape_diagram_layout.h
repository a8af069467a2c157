#pragma once
// Where the shape diagram puts things at one scale, computed without painting: the header lines, one
// or two rows of axis blocks (the previous stage's above or below this one's), each block's head
// stripes with the numbers that fit them, its name plate, the connectors, the strides, the expected
// and produced shapes and the badges. The painter draws exactly this; hit-testing reads it.
#include "forward/trace.h"
#include "render/text_fit.h"

#include <QRectF>
#include <QTransform>

#include <optional>
#include <string>
#include <vector>

namespace attnlab::ui {

enum class ShapeOp { None, Split, Transpose, Merge };
ShapeOp shapeOp(const Trace& trace, const Stage& stage); // the axis move `stage` makes from derived_from
const Stage* previousShapeStage(const Trace& trace, const Stage& stage); // the stage whose axes it rearranges
QString shapeOpLabel(const Trace& trace, const Stage& stage); // the arithmetic or axis move the stage performs

// A head's colour with the number written on it (tests and accessibility read these rather than pixels).
struct ShapeHeadLabel {
    int head = 0;
    QRectF swatch; // where the colour is
    QRectF text;   // where its number is, on the canvas
    QString label;
};

// The ink a piece of text takes from the style.
enum class ShapeInk { Text, Muted, Moved, Same, Differs };

struct ShapeText {
    QRectF rect; // or, with atBaseline, a baseline start at rect.topLeft()
    int flags = 0;
    QString text;
    QFont font;
    ShapeInk ink = ShapeInk::Text;
    bool atBaseline = false;
};

struct ShapeHeadMark {
    int head = 0;
    QRectF text; // in the frame `transform` maps onto the canvas (numbers on their side in thin stripes)
    QTransform transform;
    QString label; // what is drawn: the stripe's number, or head_dim's "head N" (just N where that would be covered)
};

struct ShapeBlock {
    Axis axis = Axis::b;
    std::int64_t size = 0;
    QRectF rect;
    int dim = -1;
    bool previous = false;            // in the row of the stage this one comes from
    bool striped = false;             // one stripe per head (num_heads)
    bool headColoured = false;        // one head's features (head_dim), or d_out coloured by its heads
    std::vector<QRectF> stripes;      // per head, when striped
    std::vector<ShapeHeadMark> marks; // the numbers on the stripes (or head_dim's corner)
    QFont markFont;
    QRectF plate;                     // name and size, on a panel where stripes would fight with them
    ShapeText name, sizeText, framed; // framed: the framed head's number, when the stripes carry none
    bool hasFramed = false;
};

struct ShapeArrow {
    QPointF from, to;
    bool moved = true;
    double width = 1;
};

struct ShapeBadge {
    QRectF rect;
    ShapeText text;
    enum class Kind { Same, Warning, Info, Plain } kind = Kind::Plain;
};

// What is under a point: a block (an axis of this stage or of the one it came from) or a head's stripe.
struct ShapeHit {
    enum class Kind { Block, Head } kind = Kind::Block;
    int stage = -1;
    bool previous = false; // the block belongs to the stage this one comes from
    int dim = -1;
    Axis axis = Axis::b;
    int head = -1;        // Kind::Head, or the head whose features a head_dim block holds
    std::int64_t at = -1; // the coordinate along the block's axis under the point
};

// Where the followed number sits along one block's axis (or, for a source, the run of coordinates it read).
struct ShapeFollowMark {
    enum class Kind { Followed, Copy, Source } kind = Kind::Followed;
    bool previous = false;
    int dim = -1;
    std::int64_t first = 0, last = 0;
    QRectF rect;
};

struct ShapeDiagramLayout {
    QRectF rect;
    double scale = 1;
    int stage = -1, selectedHead = -1, heads = 1;
    std::vector<ShapeText> header, dimsBefore, dimsAfter, notes;
    std::vector<ShapeBlock> before, after; // drawn in this order, connectors between them
    std::vector<ShapeArrow> arrows;
    std::vector<ShapeBadge> badges;
    std::vector<ShapeFollowMark> follow; // set by the host from the followed element (shape_diagram_follow.h)

    std::vector<ShapeHeadLabel> headLabels() const;
    std::optional<ShapeHit> hitTest(const QPointF& pos) const;
};

// The coordinate along `block`'s axis under `pos`: the block's width split evenly among its size.
std::int64_t blockCoordinateAt(const ShapeBlock& block, const QPointF& pos);

// `typePx`: the window's type size, under which no text a student reads is drawn (the boxes shrink instead).
// `caption`: the stage's sentence under its name; a pane too short for it in projector type leaves it out
// (the formula line and the boxes still say what the step does; the sentence stays in the description).
ShapeDiagramLayout layoutShapeDiagram(const Trace& trace, int stageIndex, int selectedHead, const QRectF& rect,
                                      double scale, double typePx = 0, bool caption = true);

} // namespace attnlab::ui
