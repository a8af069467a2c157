// MultiHeadAttention's forward written once over the generic ops, with each catalogued bug a switch
// on the line it changes. Each stage records what the (possibly mistaken) code holds right after the
// line that produces it in the book; a removed line leaves the previous value in place.
#include "lessons/bugs.h"

#include "tensor/error.h"
#include "forward/stage_recorder.h"
#include "tensor/tensor_ops.h"

#include <cmath>
#include <limits>

namespace attnlab {

namespace {

const Tensor* find_param(const StateDict& w, const std::string& name)
{
    auto it = w.find(name);
    return it == w.end() ? nullptr : &it->second;
}

const Tensor& need_param(const StateDict& w, const std::string& name)
{
    if (const Tensor* t = find_param(w, name))
        return *t;
    throw Error("the weights have no tensor '" + name + "', which this module needs.");
}

// The weights the constructed module holds: the book's where the shapes are the same. When the swap
// changes the shapes, zeros stand in: x no longer fits W_query, so the run stops before using them.
StateDict weights_for(const Config& constructed, const Config& book, const StateDict& weights)
{
    if (constructed == book)
        return weights;
    StateDict out;
    for (const auto& spec : parameter_specs(constructed))
        out[spec.name] = Tensor::zeros(spec.shape);
    return out;
}

// What the book's __init__ would raise for this config, in Python's words; empty when it builds.
std::string constructor_error(const Config& c)
{
    if (c.heads_split_d_out())
        return {};
    for (const auto& d : validate(c))
        if (d.severity == Severity::Error)
            return d.code == DiagnosticCode::HeadSplit ? "d_out must be divisible by num_heads" : d.message;
    return {};
}

void forward(StageRecorder& rec, const Config& c, const StateDict& w, const Tensor& x, Bug bug)
{
    const std::int64_t b = x.size(0), T = x.size(1), H = c.num_heads, hd = c.d_out / c.num_heads;
    rec.begin(stage::x);
    rec.add(x);
    // Indexed query, key, value; walked in the book's statement order (keys first), as trace_forward records.
    const auto index = [](const stage::Projection& role) {
        return role.computed == stage::queries ? 0 : role.computed == stage::keys ? 1 : 2;
    };
    const char* prefix[] = {"W_query", "W_key", "W_value"};
    Tensor proj[3], viewed[3], split_heads[3];
    for (const auto& role : stage::projected_order) {
        const int i = index(role);
        rec.begin(role.computed);
        const std::string p = prefix[i];
        proj[i] =
            rec.add(ops::linear(x, need_param(w, p + ".weight"), c.qkv_bias ? &need_param(w, p + ".bias") : nullptr));
    }
    const Shape view_shape = bug == Bug::ViewHeadsFirst ? Shape{b, H, T, hd} : Shape{b, T, H, hd};
    for (const auto& role : stage::split_order) {
        const int i = index(role);
        rec.begin(role.split);
        viewed[i] = rec.add(ops::view(proj[i], view_shape), role.computed);
    }
    const bool transpose_heads = bug != Bug::SkipHeadTranspose && bug != Bug::ViewHeadsFirst;
    for (const auto& role : stage::heads_first_order) {
        const int i = index(role);
        rec.begin(role.heads_first);
        split_heads[i] = rec.add(transpose_heads ? viewed[i].transpose(1, 2) : viewed[i], role.computed);
    }
    const Tensor &q = split_heads[0], &k = split_heads[1], &v = split_heads[2];

    rec.begin(stage::attn_scores);
    const Tensor scores = rec.add(ops::matmul(q, k.transpose(2, 3)));
    rec.begin(stage::attn_scores_masked);
    const Tensor mask = ops::slice2d(ops::triu_ones(c.context_length, bug == Bug::MaskDiagonal0 ? 0 : 1), T, T);
    const Tensor masked = bug == Bug::SkipMask
                              ? rec.add(scores, stage::attn_scores)
                              : rec.add(ops::masked_fill(scores, mask, -std::numeric_limits<float>::infinity()));
    rec.begin(stage::attn_weights);
    // Python computes the scale in double (an int ** 0.5); the float tensor is then divided by it.
    const double scale = std::sqrt(static_cast<double>(bug == Bug::ScaleByDOut ? c.d_out : k.size(-1)));
    const Tensor weights =
        rec.add(ops::softmax(ops::divide(masked, static_cast<float>(scale)), bug == Bug::SoftmaxWrongDim ? -2 : -1));

    rec.begin(stage::context_heads);
    const Tensor context = rec.add(ops::matmul(weights, v));
    rec.begin(stage::context_transposed);
    const Tensor transposed = bug == Bug::MergeWithoutTranspose
                                  ? rec.add(context, stage::context_heads)
                                  : rec.add(context.transpose(1, 2), stage::context_heads);
    rec.begin(stage::context_merged);
    const Tensor merged =
        rec.add(ops::view(bug == Bug::SkipContiguous ? transposed : transposed.contiguous(), {b, T, c.d_out}));
    rec.begin(stage::output);
    if (bug == Bug::SkipOutProj)
        rec.add(merged, stage::context_merged);
    else
        rec.add(ops::linear(merged, need_param(w, "out_proj.weight"), find_param(w, "out_proj.bias")));
}

} // namespace

const Stage* BugTrace::find(std::string_view name) const
{
    for (const auto& s : stages)
        if (s.name == name)
            return &s;
    return nullptr;
}

BugTrace run_with_bug(const Config& book, const StateDict& weights, const Tensor& x, Bug bug)
{
    if (book.kind != ModuleKind::MultiHeadAttention)
        throw Error("the injected bugs are written for MultiHeadAttention, not " + module_class_name(book.kind) + ".");
    if (x.dim() != 3)
        throw Error("MultiHeadAttention takes x of shape (b, num_tokens, d_in), but x has shape " +
                    shape_to_string(x.shape()) + ".");
    if (x.size(-1) != book.d_in)
        throw Error("x has " + std::to_string(x.size(-1)) +
                    " features per token, but the call says d_in=" + std::to_string(book.d_in) + ".");
    for (const auto& d : validate(book, InputShape{x.size(0), x.size(1)}))
        if (d.severity == Severity::Error)
            throw Error(d.message);

    BugTrace trace;
    trace.bug = bug;
    trace.config = book;
    if (bug == Bug::SwapDInDOut)
        std::swap(trace.config.d_in, trace.config.d_out);
    if (const std::string refused = constructor_error(trace.config); !refused.empty()) {
        trace.failure = StageFailure{"config", refused};
        return trace;
    }
    // Expected shapes are the book's: what the student expects to see at each stage.
    StageRecorder rec(trace.stages, book, ModuleKind::MultiHeadAttention, InputShape{x.size(0), x.size(1)});
    try {
        forward(rec, trace.config, weights_for(trace.config, book, weights), x, bug);
    } catch (const Error& e) {
        trace.failure = StageFailure{rec.current(), e.what()};
    }
    return trace;
}

} // namespace attnlab
