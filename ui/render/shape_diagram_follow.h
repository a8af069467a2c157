#pragma once
// The followed element on the shape diagram: a block clicked (or reached with the keyboard) picks one
// element of its stage, and the blocks of a stage that holds the followed number, or that it was
// computed from, carry a band at its coordinate along each axis. Pure geometry over a laid-out
// diagram and core's ElementFollow: nothing here recomputes where a number lives.
#include "forward/follow.h"
#include "render/shape_diagram_layout.h"

#include <optional>

namespace attnlab::ui {

// The stage a row of the diagram draws: this stage's (after), or the one it came from (before).
const Stage* diagramRowStage(const Trace& trace, const ShapeDiagramLayout& layout, bool previous);

struct DiagramElement {
    std::string stage;
    Index index;
};

// The element a block hit picks in its row's stage: the followed element's place there when it has one,
// else the first element of the shown sequence and head; the hit's axis set to the hit's coordinate,
// and a head_dim block's head as its num_heads coordinate.
std::optional<DiagramElement> diagramElementAt(const Trace& trace, const ShapeDiagramLayout& layout,
                                               const ShapeHit& hit, const ElementFollow* followed, int batch, int head);

// Bands on every block of a row whose stage holds the followed number (or a copy) or that it read.
std::vector<ShapeFollowMark> diagramFollowMarks(const Trace& trace, const ShapeDiagramLayout& layout,
                                                const ElementFollow& followed);

} // namespace attnlab::ui
