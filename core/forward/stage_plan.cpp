// What a forward pass will record, known from the config alone: the stage names in order, and the
// bytes they and the weights will take, so the memory budget is checked before any allocation.
#include "forward/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// The rows a forward in `scope` records, in the book's statement order.
std::vector<const StageRow*> recorded(StageScope scope, bool causal, bool with_dropout)
{
    std::vector<const StageRow*> rows;
    for (const auto& row : stage_table())
        if (!scope_axes(row, scope).empty() && (causal || !row.causal_only) && (with_dropout || !row.training_only))
            rows.push_back(&row);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const StageRow* a, const StageRow* b) { return a->statement < b->statement; });
    return rows;
}

} // namespace

std::vector<std::string> stage_names(const Config& config, bool with_dropout)
{
    std::vector<std::string> names;
    const StageScope scope = stage_scope(config.kind);
    for (const StageRow* row : recorded(scope, config.is_causal(), with_dropout)) {
        if (scope == StageScope::Wrapper && row->role == StageRole::Output) // the heads run before the concatenation
            for (std::int64_t h = 0; h < config.num_heads; ++h)
                for (const StageRow* head : recorded(StageScope::Single, true, with_dropout))
                    if (head->role != StageRole::Input)
                        names.push_back(head_prefix(h) + std::string(head->base_name));
        names.push_back(std::string(row->base_name));
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
