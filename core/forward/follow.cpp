// Where one number lives: the stages that share its storage (found by inverting their strides, so a
// view and a transpose are followed exactly as PyTorch lays them out) and the copies contiguous() and
// torch.cat made of it. follow_sources.cpp says what it was computed from.
#include "forward/follow.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace attnlab {

ElementSources element_sources(const Trace& trace, const Stage& stage, const Index& index); // follow_sources.cpp

namespace {

std::int64_t storage_offset(const Tensor& t, const Index& index)
{
    std::int64_t offset = t.offset();
    for (std::size_t a = 0; a < index.size(); ++a)
        offset += index[a] * t.strides()[a];
    return offset;
}

// The index of `t` whose element sits at `offset` of its storage, if one does.
std::optional<Index> index_at_offset(const Tensor& t, std::int64_t offset)
{
    std::int64_t rest = offset - t.offset();
    if (rest < 0)
        return std::nullopt;
    std::vector<std::size_t> axes(static_cast<std::size_t>(t.dim()));
    std::iota(axes.begin(), axes.end(), 0);
    std::stable_sort(axes.begin(), axes.end(),
                     [&](std::size_t a, std::size_t b) { return t.strides()[a] > t.strides()[b]; });
    Index index(axes.size(), 0);
    for (std::size_t a : axes) {
        if (t.shape()[a] == 1 || t.strides()[a] <= 0)
            continue;
        index[a] = rest / t.strides()[a];
        if (index[a] >= t.shape()[a])
            return std::nullopt;
        rest -= index[a] * t.strides()[a];
    }
    if (rest != 0)
        return std::nullopt;
    return index;
}

std::int64_t flat_position(const Index& index, const Shape& shape)
{
    std::int64_t p = 0;
    for (std::size_t a = 0; a < shape.size(); ++a)
        p = p * shape[a] + index[a];
    return p;
}

Index from_flat_position(std::int64_t p, const Shape& shape)
{
    Index index(shape.size(), 0);
    for (std::size_t a = shape.size(); a-- > 0;) {
        index[a] = p % shape[a];
        p /= shape[a];
    }
    return index;
}

struct Found {
    const Stage* stage;
    Index index;
};

// repeat_interleave(group, dim=1): key/value head g of (b, G, T, hd) became heads g*group ... g*group+group-1.
std::vector<Found> repeats_of(const Stage& other, const Found& f, bool other_is_repeat, std::int64_t group)
{
    Index i = f.index;
    if (!other_is_repeat) {
        i[1] /= group;
        return {{&other, i}};
    }
    std::vector<Found> out;
    for (std::int64_t r = 0; r < group; ++r) {
        i[1] = f.index[1] * group + r;
        out.push_back({&other, i});
    }
    return out;
}

// The places one step away from `f` in another storage: the copy contiguous() made (in either
// direction, by logical order, which is the copy's memory order), the copies repeat_interleave made of a
// key/value head, and the wrapper's torch.cat.
std::vector<Found> copies_of(const Trace& trace, const Found& f)
{
    std::vector<Found> out;
    for (const Stage& other : trace.stages) {
        if (other.tensor.shares_storage_with(f.stage->tensor))
            continue;
        const bool copy_of_f = other.derived_from == f.stage->name, f_copy_of = f.stage->derived_from == other.name;
        const bool repeat =
            (copy_of_f && other.layout == LayoutOp::RepeatKv) || (f_copy_of && f.stage->layout == LayoutOp::RepeatKv);
        if (repeat && f.index.size() == 4) {
            const auto more = repeats_of(other, f, copy_of_f, trace.config.group_size());
            out.insert(out.end(), more.begin(), more.end());
        } else if (copy_of_f || f_copy_of)
            out.push_back(
                {&other, from_flat_position(flat_position(f.index, f.stage->tensor.shape()), other.tensor.shape())});
    }
    if (trace.config.kind != ModuleKind::MultiHeadAttentionWrapper || f.stage->tensor.dim() < 1)
        return out;
    const std::int64_t d = trace.config.d_out;
    if (f.stage->base_name == stage::context && f.stage->head >= 0) {
        if (const Stage* output = trace.find(stage::output)) {
            Index i = f.index;
            i.back() += f.stage->head * d;
            out.push_back({output, i});
        }
    } else if (f.stage->name == stage::output) {
        Index i = f.index;
        const std::int64_t head = i.back() / d;
        i.back() %= d;
        if (const Stage* context = trace.find(head_prefix(head) + stage::context))
            out.push_back({context, i});
    }
    return out;
}

std::vector<Found> places_of(const Trace& trace, const Found& asked)
{
    std::vector<Found> found{asked};
    const auto seen = [&](const Stage* s) {
        return std::any_of(found.begin(), found.end(), [&](const Found& f) { return f.stage == s; });
    };
    // A repeated key/value head holds one number in several places of one stage.
    const auto seen_at = [&](const Found& c) {
        return std::any_of(found.begin(), found.end(),
                           [&](const Found& f) { return f.stage == c.stage && f.index == c.index; });
    };
    for (std::size_t next = 0; next < found.size(); ++next) {
        const Found f = found[next];
        const std::int64_t offset = storage_offset(f.stage->tensor, f.index);
        for (const Stage& other : trace.stages)
            if (!seen(&other) && other.tensor.shares_storage_with(f.stage->tensor))
                if (auto i = index_at_offset(other.tensor, offset))
                    found.push_back({&other, *i});
        for (const Found& c : copies_of(trace, f))
            if (c.stage->layout == LayoutOp::RepeatKv || f.stage->layout == LayoutOp::RepeatKv ? !seen_at(c)
                                                                                               : !seen(c.stage))
                found.push_back(c);
    }
    std::stable_sort(found.begin() + 1, found.end(), [](const Found& a, const Found& b) { return a.stage < b.stage; });
    return found;
}

std::string_view layout_words(LayoutOp op)
{
    switch (op) {
    case LayoutOp::SplitHeads: return "view() cuts d_out into heads: the same float, read with new strides";
    case LayoutOp::HeadsFirst:
    case LayoutOp::TokensFirst: return "transpose(1, 2) swaps two strides: the same float, nothing moves";
    case LayoutOp::MergeHeads:
        return "contiguous() copied it, in the transposed order, into new storage that view() then reads as d_out";
    case LayoutOp::RepeatKv:
        return "repeat_interleave() copied its key/value head once for each query head of the group, into new storage";
    case LayoutOp::None: break;
    }
    return "a layout step";
}

// A stage that only re-lays out another: its element is one element of that stage, found among the places.
ElementSources layout_sources(const Stage& s, const std::vector<ElementPlace>& places)
{
    ElementSources out;
    out.combine = Combine::SameNumber;
    for (const ElementPlace& p : places)
        if (p.stage == s.derived_from)
            out.operands.push_back({p.stage, false, {p.index}});
    out.explanation = std::string(layout_words(s.layout)) + ".";
    return out;
}

} // namespace

std::string index_text(const Index& index)
{
    std::string s = "(";
    for (std::size_t a = 0; a < index.size(); ++a)
        s += (a ? ", " : "") + std::to_string(index[a]);
    return s + ")";
}

std::string offset_text(const ElementPlace& p)
{
    std::string s = std::to_string(p.storage_offset) + " =";
    if (p.tensor_offset)
        s.append(" ").append(std::to_string(p.tensor_offset)).append(" +");
    for (std::size_t a = 0; a < p.index.size(); ++a)
        s += (a ? " + " : " ") + std::to_string(p.index[a]) + "×" + std::to_string(p.strides[a]);
    return s;
}

ElementFollow follow_element(const Trace& trace, std::string_view stage, const Index& index)
{
    const Stage* s = trace.find(stage);
    if (!s) {
        std::string names;
        for (const Stage& st : trace.stages)
            names += (names.empty() ? "" : ", ") + st.name;
        // Quoted as a message may (a 100 KB argument was echoed whole, a byte that is not UTF-8 written raw).
        throw Error("there is no stage '" + printable(stage, 60) + "' in this module; its stages are " + names + ".");
    }
    const Shape& shape = s->tensor.shape();
    bool inside = index.size() == shape.size();
    for (std::size_t a = 0; inside && a < index.size(); ++a)
        inside = index[a] >= 0 && index[a] < shape[a];
    if (!inside)
        throw Error("the index " + index_text(index) + " is not inside " + s->name + ", whose shape is " +
                    shape_to_string(shape) + ": give " + std::to_string(shape.size()) +
                    " numbers, each from 0 to its axis's size minus 1.");
    ElementFollow out;
    out.stage = s->name;
    out.index = index;
    out.value = s->tensor.at(index);
    for (const Found& f : places_of(trace, {s, index})) {
        ElementPlace p;
        p.stage = f.stage->name;
        p.index = f.index;
        p.storage_offset = storage_offset(f.stage->tensor, f.index);
        p.tensor_offset = f.stage->tensor.offset();
        p.strides = f.stage->tensor.strides();
        p.placement = f.stage == s                                     ? Placement::Itself
                      : f.stage->tensor.shares_storage_with(s->tensor) ? Placement::SameStorage
                                                                       : Placement::Copy;
        out.places.push_back(std::move(p));
    }
    const auto sources_at = [&](const Stage& at, const Index& i) {
        return at.derived_from.empty() ? element_sources(trace, at, i) : layout_sources(at, out.places);
    };
    out.sources = sources_at(*s, index);
    // Back through the layout steps (at most view, transpose, contiguous and cat) to the computation.
    const ElementSources* step = &out.sources;
    for (int hops = 0; step->combine == Combine::SameNumber && hops < 8; ++hops) {
        const Operand& from = step->operands.at(0);
        const Stage* at = trace.find(from.tensor);
        if (!at || from.indices.empty())
            break;
        out.computed_at = at->name;
        out.computed_index = from.indices.front();
        out.computation = sources_at(*at, out.computed_index);
        step = &out.computation;
    }
    return out;
}

std::vector<Operand> followed_operands(const ElementFollow& f)
{
    std::vector<Operand> out = f.sources.operands;
    if (!f.computed_at.empty())
        out.insert(out.end(), f.computation.operands.begin(), f.computation.operands.end());
    return out;
}

} // namespace attnlab
