#pragma once
// The attention shape of one of the book's modules, read from its constructor call, so `kv-cache --call`
// counts the cache of the module a student wrote.
#include "call/config.h"
#include "designs/kv_cache.h"

#include <cstdint>

namespace attnlab {

// The number of key/value heads a module keeps per token, the one place that rule lives:
// MultiHeadAttention one per query head (num_heads), the wrapper num_heads heads of its own,
// single-head modules one. A module with shared key/value heads answers its own count here.
std::int64_t kv_heads_of(const Config& config);

// The module as an AttentionShape: d_model = d_in, the query heads and their head_dim, kv_heads_of,
// context_length, its biases and whether it has an out_proj. `layers` copies of it are counted.
// Throws Error with validate()'s first error when the call is not a valid module, and for
// SimpleSelfAttention, which has no key or value projection to cache.
AttentionShape attention_shape_of(const Config& config, std::int64_t layers);

} // namespace attnlab
