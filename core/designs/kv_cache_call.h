#pragma once
// The attention shape of one of the book's modules, read from its constructor call, so `kv-cache --call`
// counts the cache of the module a student wrote.
#include "call/config.h"
#include "designs/kv_cache.h"

#include <cstdint>

namespace attnlab {

// The module as an AttentionShape: d_model = d_in, the query heads and their head_dim, Config::kv_heads(),
// context_length, its biases and whether it has an out_proj. `layers` copies of it are counted.
// Throws Error with validate()'s first error when the call is not a valid module, and for
// SimpleSelfAttention, which has no key or value projection to cache.
AttentionShape attention_shape_of(const Config& config, std::int64_t layers);

} // namespace attnlab
