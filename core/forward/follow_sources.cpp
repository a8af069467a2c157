// What one element of a stage is computed from, per the book's forward: the operands' elements and how
// they combine, and the value computed again from them alone (the test that the reading is right).
#include "forward/follow.h"

#include "tensor/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// `index` with axis `axis` (from the end when negative) running over 0 .. n-1.
std::vector<Index> along(Index index, std::int64_t axis, std::int64_t n)
{
    const std::size_t a = static_cast<std::size_t>(axis < 0 ? static_cast<std::int64_t>(index.size()) + axis : axis);
    std::vector<Index> out;
    out.reserve(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) {
        index[a] = k;
        out.push_back(index);
    }
    return out;
}

Index with_last(Index index, std::int64_t last)
{
    index.back() = last;
    return index;
}

Index without_last(const Index& index)
{
    return Index(index.begin(), index.end() - 1);
}

std::string weight_role(std::string_view base)
{
    return base == stage::queries ? "W_query" : base == stage::keys ? "W_key" : "W_value";
}

ElementSources projection(const Trace& trace, const std::string& prefix, std::string_view base, const Index& idx)
{
    const Config& c = trace.config;
    const std::int64_t j = idx.back();
    ElementSources s;
    s.combine = Combine::Linear;
    s.operands.push_back({stage::x, false, along(with_last(idx, 0), -1, c.d_in)});
    const std::string w = prefix + weight_role(base);
    if (c.kind == ModuleKind::SelfAttentionV1) { // x @ W, W (d_in, d_out)
        s.operands.push_back({w, true, along({0, j}, 0, c.d_in)});
        s.explanation = "a projection: the row of x times column " + std::to_string(j) + " of " + w +
                        ", summed over d_in = " + std::to_string(c.d_in) + ".";
        return s;
    }
    s.operands.push_back({w + ".weight", true, along({j, 0}, 1, c.d_in)});
    if (c.qkv_bias)
        s.operands.push_back({w + ".bias", true, {{j}}});
    s.explanation = "a projection: the row of x times row " + std::to_string(j) + " of " + w +
                    ".weight, summed over d_in = " + std::to_string(c.d_in) +
                    (c.qkv_bias ? ", plus " + w + ".bias." : ".");
    return s;
}

// Rows i and j of two (.., T, d) operands: (.., i, j) of their product with the second transposed.
ElementSources dot_rows(const std::string& a, const std::string& b, const Index& idx, std::int64_t d)
{
    const std::int64_t i = idx[idx.size() - 2], j = idx.back();
    Index ai = without_last(idx), bi = without_last(idx);
    ai.back() = i;
    bi.back() = j;
    ai.push_back(0);
    bi.push_back(0);
    ElementSources s;
    s.combine = Combine::Dot;
    s.operands = {{a, false, along(ai, -1, d)}, {b, false, along(bi, -1, d)}};
    s.explanation = "a dot product: row " + std::to_string(i) + " of " + a + " with row " + std::to_string(j) + " of " +
                    b + ", summed over " + std::to_string(d) + " numbers.";
    return s;
}

// (.., i, d) of weights @ values: row i of the weights with column d of the values.
ElementSources weighted_sum(const std::string& weights, const std::string& values, const Index& idx, std::int64_t T)
{
    const std::int64_t d = idx.back();
    ElementSources s;
    s.combine = Combine::Dot;
    s.operands = {{weights, false, along(with_last(idx, 0), -1, T)}, {values, false, {}}};
    Index v = with_last(idx, d);
    s.operands[1].indices = along(v, -2, T);
    s.explanation = "a weighted sum: row " + std::to_string(idx[idx.size() - 2]) + " of " + weights + " times column " +
                    std::to_string(d) + " of " + values + ", over the " + std::to_string(T) + " tokens.";
    return s;
}

} // namespace

ElementSources element_sources(const Trace& trace, const Stage& stage, const Index& idx)
{
    const Config& c = trace.config;
    const std::string prefix = stage.head >= 0 ? head_prefix(stage.head) : "";
    const std::string_view base = stage.base_name;
    const bool mha = c.is_integrated(), simple = c.kind == ModuleKind::SimpleSelfAttention;
    // Grouped-query attention's scores and sums read the key/value heads as repeated for each query head.
    const char* const head_keys = c.is_grouped() ? stage::keys_repeated : stage::keys_heads;
    const char* const head_values = c.is_grouped() ? stage::values_repeated : stage::values_heads;
    const auto name = [&](std::string_view b) { return prefix + std::string(b); };
    if (base == stage::x)
        return {Combine::Input, {}, 1.0, 0, false, "x is the module's input: given, not computed."};
    if (base == stage::queries || base == stage::keys || base == stage::values)
        return projection(trace, prefix, base, idx);
    const std::int64_t T = stage.tensor.size(-1);
    if (base == stage::attn_scores) {
        if (simple)
            return dot_rows(stage::x, stage::x, idx, c.d_in);
        return mha ? dot_rows(stage::queries_heads, head_keys, idx, c.d_out / c.num_heads)
                   : dot_rows(name(stage::queries), name(stage::keys), idx, c.d_out);
    }
    if (base == stage::attn_scores_masked) {
        ElementSources s{Combine::Mask, {{name(stage::attn_scores), false, {idx}}}, 1.0, 0, false, {}};
        const std::int64_t query = idx[idx.size() - 2], key = idx.back();
        const bool outside = c.window_size && key <= query - *c.window_size; // before the sliding window
        s.masked_out = key > query || outside;
        s.explanation =
            key > query ? "the causal mask: a key after the query is set to -inf."
            : outside   ? std::string("the sliding window: a key ") + std::to_string(query - key) +
                            " tokens back, beyond window_size = " + std::to_string(*c.window_size) + ", is set to -inf."
                      : std::string("the causal mask leaves this score as it is (the key is not after the query") +
                            std::string(c.window_size ? " and lies inside the window)." : ").");
        return s;
    }
    if (base == stage::attn_weights) {
        const std::string row =
            trace.find(name(stage::attn_scores_masked)) ? name(stage::attn_scores_masked) : name(stage::attn_scores);
        ElementSources s;
        s.combine = Combine::Softmax;
        s.operands = {{row, false, along(idx, -1, T)}};
        s.position = idx.back();
        const double d = simple ? 1.0 : mha ? static_cast<double>(c.d_out / c.num_heads) : static_cast<double>(c.d_out);
        s.scale = simple ? 1.0 : 1.0 / std::sqrt(d);
        s.explanation =
            "a softmax over row " + std::to_string(idx[idx.size() - 2]) + " of " + row +
            (simple ? "" : ", each score divided by sqrt(" + std::to_string(static_cast<long long>(d)) + ") first") +
            ".";
        return s;
    }
    if (base == stage::attn_weights_dropout) {
        ElementSources s{
            Combine::Dropout, {{name(stage::attn_weights), false, {idx}}}, 1.0 / (1.0 - c.dropout), 0, false, {}};
        s.explanation = c.dropout >= 1.0 ? std::string("dropout with p = 1: every weight multiplied by 0.")
                                         : "dropout: the weight, dropped to 0 or kept and scaled by 1 / (1 - " +
                                               std::to_string(c.dropout) + ").";
        return s;
    }
    if (base == stage::output && mha) {
        const std::int64_t j = idx.back();
        ElementSources s;
        s.combine = Combine::Linear;
        s.operands = {{stage::context_merged, false, along(with_last(idx, 0), -1, c.d_out)},
                      {"out_proj.weight", true, along({j, 0}, 1, c.d_out)},
                      {"out_proj.bias", true, {{j}}}};
        s.explanation = "the output projection: the row of " + std::string(stage::context_merged) + " times row " +
                        std::to_string(j) + " of out_proj.weight, plus out_proj.bias.";
        return s;
    }
    if (base == stage::output) { // the wrapper: torch.cat of the heads' contexts
        Index i = idx;
        const std::int64_t head = i.back() / c.d_out;
        i.back() %= c.d_out;
        return {Combine::SameNumber,
                {{head_prefix(head) + stage::context, false, {i}}},
                1.0,
                0,
                false,
                "torch.cat(..., dim=-1) copied head " + std::to_string(head) + "'s context here."};
    }
    const std::string weights =
        trace.find(name(stage::attn_weights_dropout)) ? name(stage::attn_weights_dropout) : name(stage::attn_weights);
    const Stage* w = trace.find(weights);
    if (w && base == stage::context_heads)
        return weighted_sum(weights, head_values, idx, w->tensor.size(-1));
    if (w && base == stage::context)
        return weighted_sum(weights, simple ? stage::x : name(stage::values), idx, w->tensor.size(-1));
    throw Error("the stage " + stage.name + " has no rule for its sources.");
}

float operand_value(const Operand& op, const Index& i, const Trace& trace, const StateDict& weights)
{
    if (op.parameter) {
        const auto it = weights.find(op.tensor);
        if (it == weights.end())
            throw Error("the module has no parameter " + op.tensor + ".");
        return it->second.at(i);
    }
    const Stage* s = trace.find(op.tensor);
    if (!s)
        throw Error("the trace has no stage " + op.tensor + ".");
    return s->tensor.at(i);
}

namespace {

std::vector<float> operand_values(const Operand& op, const Trace& trace, const StateDict& weights)
{
    std::vector<float> v;
    v.reserve(op.indices.size());
    for (const Index& i : op.indices)
        v.push_back(operand_value(op, i, trace, weights));
    return v;
}

} // namespace

float recompute_element(const ElementFollow& f, const Trace& trace, const StateDict& weights)
{
    // A number a layout step only moved is recomputed where it was computed, not just read back.
    const ElementSources& s = f.computed_at.empty() ? f.sources : f.computation;
    std::vector<std::vector<float>> ops;
    for (const Operand& op : s.operands)
        ops.push_back(operand_values(op, trace, weights));
    switch (s.combine) {
    case Combine::Input: return f.value;
    case Combine::SameNumber: return ops.at(0).at(0);
    case Combine::Linear:
    case Combine::Dot: {
        double sum = 0;
        for (std::size_t k = 0; k < ops.at(0).size(); ++k)
            sum += static_cast<double>(ops[0][k]) * ops.at(1).at(k);
        if (ops.size() > 2)
            sum += ops[2].at(0);
        return static_cast<float>(sum * s.scale);
    }
    case Combine::Mask: return s.masked_out ? -std::numeric_limits<float>::infinity() : ops.at(0).at(0);
    case Combine::Softmax: {
        const std::vector<float>& row = ops.at(0);
        double max = -std::numeric_limits<double>::infinity();
        for (float x : row)
            max = std::max(max, x * s.scale);
        double sum = 0;
        for (float x : row)
            sum += std::exp(x * s.scale - max);
        return static_cast<float>(std::exp(row.at(static_cast<std::size_t>(s.position)) * s.scale - max) / sum);
    }
    case Combine::Dropout: return f.value == 0.0f ? 0.0f : static_cast<float>(ops.at(0).at(0) * s.scale);
    }
    return f.value;
}

} // namespace attnlab
