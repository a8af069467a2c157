// What a forward pass will record, known from the config alone: the stage names in order, and the
// bytes they and the weights will take, so the memory budget is checked before any allocation.
#include "forward/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

std::vector<std::string> single_head_stages(bool causal, bool with_dropout)
{
    std::vector<std::string> s = {"keys", "queries", "values", "attn_scores"}; // the book's statement order
    if (causal)
        s.push_back("attn_scores.masked");
    s.push_back("attn_weights");
    if (causal && with_dropout)
        s.push_back("attn_weights.dropout");
    s.push_back("context");
    return s;
}

} // namespace

std::vector<std::string> stage_names(const Config& config, bool with_dropout)
{
    std::vector<std::string> names = {"x"};
    switch (config.kind) {
    case ModuleKind::SimpleSelfAttention:
        for (const char* s : {"attn_scores", "attn_weights", "context"})
            names.push_back(s);
        break;
    case ModuleKind::MultiHeadAttention:
        // The book's statement order: keys first; the views put values before queries.
        for (const char* s : {"keys", "queries", "values", "keys.view", "values.view", "queries.view", "keys.heads",
                              "queries.heads", "values.heads", "attn_scores", "attn_scores.masked", "attn_weights"})
            names.push_back(s);
        if (with_dropout)
            names.push_back("attn_weights.dropout");
        for (const char* s : {"context.heads", "context.transposed", "context.merged", "output"})
            names.push_back(s);
        break;
    case ModuleKind::MultiHeadAttentionWrapper:
        for (std::int64_t h = 0; h < config.num_heads; ++h)
            for (const auto& s : single_head_stages(true, with_dropout))
                names.push_back(head_prefix(h) + s);
        names.push_back("output");
        break;
    default:
        for (const auto& s : single_head_stages(config.is_causal(), with_dropout))
            names.push_back(s);
    }
    return names;
}

std::uint64_t estimate_memory_bytes(const Config& config, InputShape input)
{
    // Floating point so absurd requests saturate instead of wrapping around.
    const long double b = std::max<std::int64_t>(input.batch, 0), T = std::max<std::int64_t>(input.num_tokens, 0);
    const long double din = std::max<std::int64_t>(config.d_in, 0), dout = std::max<std::int64_t>(config.d_out, 0);
    const long double H = config.has_heads() ? std::max<std::int64_t>(config.num_heads, 0) : 1;
    const long double squares =
        config.is_causal() ? (config.dropout > 0 ? 4 : 3) : 2; // scores, masked, weights, dropout
    long double floats = b * T * din;                          // x
    if (config.kind == ModuleKind::MultiHeadAttention) {
        floats += 4 * din * dout + 3 * dout + dout * dout + dout; // weights (biases counted generously)
        floats += 3 * b * T * dout;                               // queries, keys, values (views are free)
        floats += squares * b * H * T * T;
        floats += 3 * b * T * dout; // context.heads, context.merged, output
    } else {
        floats += H * (3 * din * dout + 3 * dout);
        floats += H * (3 * b * T * dout + squares * b * T * T + b * T * dout);
        if (config.kind == ModuleKind::MultiHeadAttentionWrapper)
            floats += b * T * H * dout;
    }
    const long double bytes = floats * 4;
    if (!(bytes < static_cast<long double>(std::numeric_limits<std::uint64_t>::max())))
        return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(bytes);
}

} // namespace attnlab
