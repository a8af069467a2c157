#pragma once
// What a model's attention costs at generation time. Every layer keeps the keys and values of every
// earlier token, so the KV cache holds batch x tokens x layers x 2 (K and V) x kv_heads x head_dim
// values. Grouped-query attention (GQA) lets a group of query heads share one key/value head: fewer
// kv_heads, a smaller cache, the same number of query heads. Everything here is counted from the shape
// alone (nothing is allocated), in int64 with every product checked: a count that would not fit is
// refused with a sentence rather than wrapped around.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnlab {

// The attention shape of a model, as its published config states it.
struct AttentionShape {
    std::string name;
    std::int64_t layers = 1;
    std::int64_t d_model = 0;   // the attention's input width (hidden_size, n_embd; the book's d_in)
    std::int64_t num_heads = 0; // query heads
    std::int64_t num_kv_heads = 0;
    // Explicit because it need not be d_model / num_heads (Gemma's is 256 with d_model 2048 and 8 heads).
    std::int64_t head_dim = 0;
    std::int64_t context_length = 0;
    // Tokens a query sees (Mistral's 4096); the cache then needs at most this many tokens.
    std::optional<std::int64_t> sliding_window;
    bool qkv_bias = false;
    bool has_out_proj = true; // the book's wrapper and single-head modules have none
    bool out_bias = false;
    // Where out_proj maps to; 0 means d_model (the book's MultiHeadAttention maps d_out to d_out).
    std::int64_t out_width = 0;
    std::string source; // where the numbers come from
};

enum class KvDtype { F32, BF16, F16 };

std::int64_t dtype_bytes(KvDtype dtype); // 4, 2, 2
std::string dtype_name(KvDtype dtype);   // "f32", "bf16", "f16"
std::optional<KvDtype> dtype_from_name(std::string_view name);

// The most tokens a request may ask about (2^40, far beyond any published context). Products are
// checked whatever the sizes; this bound keeps a typo from reading as a request.
constexpr std::int64_t kMaxKvTokens = std::int64_t{1} << 40;

// Throws Error (one sentence) unless every size is at least 1, num_kv_heads divides num_heads and the
// window, when set, is at least 1.
void check_shape(const AttentionShape& shape);
// The same shape with another number of key/value heads; Error naming the nearest divisors unless
// kv_heads divides num_heads.
AttentionShape with_kv_heads(const AttentionShape& shape, std::int64_t kv_heads);
// The divisors of num_heads nearest to `kv_heads` from below and above (equal when it divides).
std::pair<std::int64_t, std::int64_t> nearest_kv_heads(std::int64_t num_heads, std::int64_t kv_heads);

// layers x 2 x kv_heads x head_dim x bytes per value.
std::int64_t kv_bytes_per_token(const AttentionShape& shape, KvDtype dtype);
// Tokens the cache holds for a context of `tokens`: at most the sliding window.
std::int64_t cached_tokens(const AttentionShape& shape, std::int64_t tokens);
// batch x cached_tokens x kv_bytes_per_token.
std::int64_t kv_cache_bytes(const AttentionShape& shape, KvDtype dtype, std::int64_t batch, std::int64_t tokens);

// W_q d x H*hd, W_k and W_v d x G*hd each, out_proj H*hd x out_width, plus the biases the shape has.
std::int64_t attention_parameters_per_layer(const AttentionShape& shape);

// Multiply-adds of one layer for the token at position `tokens` (it attends to cached_tokens keys).
struct TokenCost {
    std::int64_t projections = 0; // its query, key and value
    std::int64_t scores = 0;      // q . k for every cached key, every query head
    std::int64_t context = 0;     // the weighted sum of the cached values
    std::int64_t out_proj = 0;
    std::int64_t total() const { return projections + scores + context + out_proj; }
};
TokenCost multiply_adds_per_token(const AttentionShape& shape, std::int64_t tokens);

// One row of the key/value head comparison: the same shape with `kv_heads` key/value heads.
struct KvHeadsRow {
    std::int64_t kv_heads = 0;
    std::int64_t group_size = 0; // query heads per key/value head
    bool is_config = false;      // the shape's own num_kv_heads
    std::int64_t bytes_per_token = 0;
    std::int64_t bytes = 0;
    std::int64_t parameters_per_layer = 0;
    TokenCost cost;
};
std::string kv_kind(std::int64_t num_heads, std::int64_t kv_heads); // "MHA", "GQA" or "MQA"

// A row per divisor of num_heads, most key/value heads (MHA) first, one (MQA) last.
std::vector<KvHeadsRow> kv_heads_rows(const AttentionShape& shape, KvDtype dtype, std::int64_t batch,
                                      std::int64_t tokens);

} // namespace attnlab
