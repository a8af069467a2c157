// The KV cache's bytes, the attention's parameters and multiply-adds per token, from the shape alone.
#include "designs/kv_cache.h"

#include "call/config.h"
#include "tensor/error.h"

#include <algorithm>

namespace attnlab {

namespace {

// Every product goes through here, so a count beyond int64 is a sentence, never a wrapped number.
std::int64_t mul(std::int64_t a, std::int64_t b, const std::string& refusal)
{
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        throw Error(refusal);
    return out;
}

std::int64_t add(std::int64_t a, std::int64_t b, const std::string& refusal)
{
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out))
        throw Error(refusal);
    return out;
}

std::string label(const AttentionShape& s)
{
    return s.name.empty() ? std::string("this attention") : s.name;
}

std::string too_large(const AttentionShape& s, const char* what)
{
    return std::string("the ") + what + " of " + label(s) +
           " would exceed 2^63 - 1, the largest count held here; ask for fewer tokens, a smaller batch or smaller "
           "widths.";
}

void require_positive(const AttentionShape& s, const char* what, std::int64_t value)
{
    if (value < 1)
        throw Error(std::string(what) + " of " + label(s) + " is " + std::to_string(value) +
                    "; it must be at least 1.");
}

std::int64_t out_width(const AttentionShape& s)
{
    return s.out_width > 0 ? s.out_width : s.d_model;
}

} // namespace

std::int64_t dtype_bytes(KvDtype dtype)
{
    return dtype == KvDtype::F32 ? 4 : 2;
}

std::string dtype_name(KvDtype dtype)
{
    switch (dtype) {
    case KvDtype::F32: return "f32";
    case KvDtype::BF16: return "bf16";
    case KvDtype::F16: return "f16";
    }
    return "f32";
}

std::optional<KvDtype> dtype_from_name(std::string_view name)
{
    for (KvDtype d : {KvDtype::F32, KvDtype::BF16, KvDtype::F16})
        if (name == dtype_name(d))
            return d;
    return std::nullopt;
}

std::pair<std::int64_t, std::int64_t> nearest_kv_heads(std::int64_t num_heads, std::int64_t kv_heads)
{
    const std::vector<std::int64_t> all = divisors(num_heads);
    std::int64_t below = all.front(), above = all.back();
    for (std::int64_t d : all) {
        if (d <= kv_heads)
            below = d;
        if (d >= kv_heads) {
            above = d;
            break;
        }
    }
    return {below, above};
}

void check_shape(const AttentionShape& s)
{
    require_positive(s, "layers", s.layers);
    require_positive(s, "d_model", s.d_model);
    require_positive(s, "num_heads", s.num_heads);
    require_positive(s, "num_kv_heads", s.num_kv_heads);
    require_positive(s, "head_dim", s.head_dim);
    if (s.sliding_window)
        require_positive(s, "sliding_window", *s.sliding_window);
    if (s.num_heads % s.num_kv_heads != 0) {
        const auto [below, above] = nearest_kv_heads(s.num_heads, s.num_kv_heads);
        throw Error(std::to_string(s.num_kv_heads) + " key/value heads do not divide the " +
                    std::to_string(s.num_heads) + " query heads of " + label(s) +
                    " (each key/value head serves a whole group of query heads); the nearest that do are " +
                    std::to_string(below) + " and " + std::to_string(above) + ".");
    }
}

AttentionShape with_kv_heads(const AttentionShape& shape, std::int64_t kv_heads)
{
    AttentionShape out = shape;
    out.num_kv_heads = kv_heads;
    check_shape(out);
    return out;
}

std::int64_t kv_bytes_per_token(const AttentionShape& s, KvDtype dtype)
{
    check_shape(s);
    const std::string refusal = too_large(s, "KV cache's bytes per token");
    const std::int64_t per_layer =
        mul(mul(2, s.num_kv_heads, refusal), mul(s.head_dim, dtype_bytes(dtype), refusal), refusal);
    return mul(s.layers, per_layer, refusal);
}

std::int64_t cached_tokens(const AttentionShape& s, std::int64_t tokens)
{
    return s.sliding_window ? std::min(tokens, *s.sliding_window) : tokens;
}

std::int64_t kv_cache_bytes(const AttentionShape& s, KvDtype dtype, std::int64_t batch, std::int64_t tokens)
{
    require_positive(s, "the batch", batch);
    require_positive(s, "the tokens", tokens);
    const std::string refusal = too_large(s, "KV cache's bytes");
    return mul(mul(batch, cached_tokens(s, tokens), refusal), kv_bytes_per_token(s, dtype), refusal);
}

std::int64_t attention_parameters_per_layer(const AttentionShape& s)
{
    check_shape(s);
    const std::string refusal = too_large(s, "attention parameter count");
    const std::int64_t q_width = mul(s.num_heads, s.head_dim, refusal);
    const std::int64_t kv_width = mul(s.num_kv_heads, s.head_dim, refusal);
    std::int64_t n = mul(s.d_model, add(q_width, mul(2, kv_width, refusal), refusal), refusal); // W_q, W_k, W_v
    if (s.qkv_bias)
        n = add(n, add(q_width, mul(2, kv_width, refusal), refusal), refusal);
    if (s.has_out_proj) {
        n = add(n, mul(q_width, out_width(s), refusal), refusal);
        if (s.out_bias)
            n = add(n, out_width(s), refusal);
    }
    return n;
}

TokenCost multiply_adds_per_token(const AttentionShape& s, std::int64_t tokens)
{
    check_shape(s);
    require_positive(s, "the tokens", tokens);
    const std::string refusal = too_large(s, "multiply-add count");
    const std::int64_t q_width = mul(s.num_heads, s.head_dim, refusal);
    const std::int64_t kv_width = mul(s.num_kv_heads, s.head_dim, refusal);
    TokenCost c;
    c.projections = mul(s.d_model, add(q_width, mul(2, kv_width, refusal), refusal), refusal);
    // Every query head scores every cached key and weighs every cached value, shared or not: GQA saves
    // memory, not these multiply-adds.
    c.scores = mul(q_width, cached_tokens(s, tokens), refusal);
    c.context = c.scores;
    c.out_proj = s.has_out_proj ? mul(q_width, out_width(s), refusal) : 0;
    add(add(c.projections, c.scores, refusal), add(c.context, c.out_proj, refusal), refusal); // total() fits
    return c;
}

std::string kv_kind(std::int64_t num_heads, std::int64_t kv_heads)
{
    if (kv_heads == num_heads)
        return "MHA";
    return kv_heads == 1 ? "MQA" : "GQA";
}

std::vector<KvHeadsRow> kv_heads_rows(const AttentionShape& shape, KvDtype dtype, std::int64_t batch,
                                      std::int64_t tokens)
{
    check_shape(shape);
    std::vector<std::int64_t> all = divisors(shape.num_heads);
    std::reverse(all.begin(), all.end());
    std::vector<KvHeadsRow> rows;
    for (std::int64_t g : all) {
        const AttentionShape s = with_kv_heads(shape, g);
        KvHeadsRow r;
        r.kv_heads = g;
        r.group_size = shape.num_heads / g;
        r.is_config = g == shape.num_kv_heads;
        r.bytes_per_token = kv_bytes_per_token(s, dtype);
        r.bytes = kv_cache_bytes(s, dtype, batch, tokens);
        r.parameters_per_layer = attention_parameters_per_layer(s);
        r.cost = multiply_adds_per_token(s, tokens);
        rows.push_back(r);
    }
    return rows;
}

} // namespace attnlab
