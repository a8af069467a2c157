#pragma once
// The head-count trade-off for MultiHeadAttention: with d_out fixed, every divisor of d_out is a valid
// num_heads, the parameters stay the same (the projections are d_out wide whatever the split), the
// projection, context and out_proj multiply-adds stay the same too (scores as well: H * head_dim = d_out),
// but the attention scores held in memory grow with the number of heads (b * H * T * T floats). And
// the other way round: with num_heads fixed, which d_out values split evenly. The trade-off explorer
// charts these rows; `attention-lab-cli tradeoffs` prints them.
#include "call/config.h"
#include "designs/cost_model.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab {

struct HeadOption {
    std::int64_t num_heads = 0;
    std::int64_t head_dim = 0;
    std::int64_t parameters = 0; // of MultiHeadAttention(d_in, d_out, ..., num_heads, qkv_bias)
    ForwardCost cost;            // multiply-adds from forward_cost, the same numbers the benchmark uses
    // 4 * b * H * T * T bytes for one attention-score tensor (the traced pass holds scores, the masked
    // scores and the weights, each this size). A double: absurd requests exceed 2^64 and this is shown only.
    double score_bytes = 0;
};

struct HeadTradeoffQuery {
    std::int64_t d_out = 768;
    std::optional<std::int64_t> d_in; // d_out when not given
    std::int64_t num_tokens = 1024;
    std::int64_t batch = 1;
    bool qkv_bias = false;
};

struct HeadTradeoffs {
    std::int64_t d_in = 0, d_out = 0, num_tokens = 0, batch = 0;
    bool qkv_bias = false;
    std::vector<HeadOption> rows; // one per divisor of d_out, num_heads increasing
};

// Throws Error when a size is below 1 or the parameter count exceeds int64.
HeadTradeoffs head_tradeoffs(const HeadTradeoffQuery& query);

struct WidthOption {
    std::int64_t d_out = 0;      // a multiple of num_heads
    std::int64_t head_dim = 0;   // d_out / num_heads
    std::int64_t parameters = 0; // of MultiHeadAttention(d_in or d_out, d_out, ..., num_heads, qkv_bias)
};

struct WidthQuery {
    std::int64_t num_heads = 12;
    std::int64_t d_out_min = 1;
    std::optional<std::int64_t> d_out_max; // 64 * num_heads (GPT-2's head_dim) when not given
    std::optional<std::int64_t> d_in;      // d_in = d_out per row when not given
    bool qkv_bias = false;
};

// Rows never exceed this; a wider range is refused rather than listed.
constexpr std::int64_t kMaxWidthOptions = 100000;

// The valid d_out values in [d_out_min, d_out_max], increasing. Throws Error when num_heads or the range
// is below 1, the range is empty or backwards, or it holds more than kMaxWidthOptions valid widths.
std::vector<WidthOption> width_options(const WidthQuery& query);

// Parameters of MultiHeadAttention(d_in, d_out, ..., qkv_bias): 3*d_out*d_in (+3*d_out) + d_out*d_out + d_out,
// independent of num_heads. Throws Error beyond int64.
std::int64_t integrated_parameter_count(std::int64_t d_in, std::int64_t d_out, bool qkv_bias);

} // namespace attnlab
