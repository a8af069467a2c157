#include "render/shape_diagram_follow.h"

#include <algorithm>
#include <set>

namespace attnlab::ui {

namespace {

int dimOf(const Stage& stage, Axis axis)
{
    const auto it = std::find(stage.axes.begin(), stage.axes.end(), axis);
    return it == stage.axes.end() ? -1 : static_cast<int>(it - stage.axes.begin());
}

// The band of coordinates [first, last] along a block: at least a few pixels, so one of 768 shows.
QRectF band(const ShapeBlock& b, std::int64_t first, std::int64_t last, double scale)
{
    const double unit = b.rect.width() / static_cast<double>(std::max<std::int64_t>(b.size, 1));
    double left = b.rect.left() + unit * static_cast<double>(first);
    double width = unit * static_cast<double>(last - first + 1);
    const double least = 6 * scale;
    if (width < least) {
        left = std::clamp(left + width / 2 - least / 2, b.rect.left(), b.rect.right() - least);
        width = least;
    }
    return QRectF(left, b.rect.top(), width, b.rect.height());
}

void markRow(std::vector<ShapeFollowMark>& out, const std::vector<ShapeBlock>& row, bool previous,
             const std::vector<Index>& indices, ShapeFollowMark::Kind kind, double scale)
{
    for (const ShapeBlock& b : row) {
        if (b.dim < 0)
            continue;
        std::set<std::int64_t> at;
        for (const Index& i : indices)
            if (static_cast<std::size_t>(b.dim) < i.size())
                at.insert(i[static_cast<std::size_t>(b.dim)]);
        // Runs of neighbouring coordinates as one band (a source row reads a whole axis).
        for (auto it = at.begin(); it != at.end();) {
            const std::int64_t first = *it;
            std::int64_t last = first;
            while (++it != at.end() && *it == last + 1)
                last = *it;
            if (first >= 0 && last < b.size)
                out.push_back({kind, previous, b.dim, first, last, band(b, first, last, scale)});
        }
    }
}

} // namespace

const Stage* diagramRowStage(const Trace& trace, const ShapeDiagramLayout& layout, bool previous)
{
    if (layout.stage < 0 || layout.stage >= static_cast<int>(trace.stages.size()))
        return nullptr;
    const Stage& stage = trace.stages[static_cast<std::size_t>(layout.stage)];
    return previous ? previousShapeStage(trace, stage) : &stage;
}

std::optional<DiagramElement> diagramElementAt(const Trace& trace, const ShapeDiagramLayout& layout,
                                               const ShapeHit& hit, const ElementFollow* followed, int batch, int head)
{
    const Stage* stage = diagramRowStage(trace, layout, hit.previous);
    if (!stage || hit.dim < 0 || hit.dim >= stage->tensor.dim() || hit.at < 0)
        return std::nullopt;
    const Shape& shape = stage->tensor.shape();
    Index index(shape.size(), 0);
    bool placed = false;
    if (followed)
        for (const ElementPlace& p : followed->places)
            if (p.stage == stage->name && p.index.size() == shape.size()) {
                index = p.index;
                placed = true;
                break;
            }
    const auto set = [&](int dim, std::int64_t value) {
        if (dim >= 0 && static_cast<std::size_t>(dim) < shape.size() && value >= 0 &&
            value < shape[static_cast<std::size_t>(dim)])
            index[static_cast<std::size_t>(dim)] = value;
    };
    if (!placed) { // the first element of what the page shows: its sequence and head
        set(dimOf(*stage, Axis::b), batch);
        set(dimOf(*stage, Axis::num_heads), head);
    }
    if (hit.axis == Axis::head_dim && hit.head >= 0) // the block holds that head's features
        set(dimOf(*stage, Axis::num_heads), hit.head);
    set(hit.dim, hit.at);
    return DiagramElement{stage->name, index};
}

std::vector<ShapeFollowMark> diagramFollowMarks(const Trace& trace, const ShapeDiagramLayout& layout,
                                                const ElementFollow& followed)
{
    std::vector<ShapeFollowMark> out;
    for (const bool previous : {false, true}) {
        const Stage* stage = diagramRowStage(trace, layout, previous);
        if (!stage)
            continue;
        const std::vector<ShapeBlock>& row = previous ? layout.before : layout.after;
        // A layout step's source is the same number as one of its places: banded once, as the place.
        std::vector<Index> sources;
        for (const Operand& op : followed_operands(followed))
            if (!op.parameter && op.tensor == stage->name)
                for (const Index& i : op.indices)
                    if (std::none_of(followed.places.begin(), followed.places.end(),
                                     [&](const ElementPlace& p) { return p.stage == stage->name && p.index == i; }))
                        sources.push_back(i);
        markRow(out, row, previous, sources, ShapeFollowMark::Kind::Source, layout.scale);
        for (const ElementPlace& p : followed.places)
            if (p.stage == stage->name)
                markRow(out, row, previous, {p.index},
                        p.placement == Placement::Copy ? ShapeFollowMark::Kind::Copy : ShapeFollowMark::Kind::Followed,
                        layout.scale);
    }
    return out;
}

} // namespace attnlab::ui
