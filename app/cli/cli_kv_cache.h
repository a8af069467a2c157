#pragma once
// `kv-cache` in two parts: cli_kv_cache.cpp reads the request from the options, cli_kv_cache_print.cpp
// prints what core/designs/kv_cache.h counts for it, as text or JSON.
#include "designs/kv_cache.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cli {

// One shape's cache at one context: what was asked and where the shape came from.
struct KvRequest {
    attnlab::AttentionShape shape; // num_kv_heads already set to --kv-heads when given
    attnlab::KvDtype dtype = attnlab::KvDtype::BF16;
    std::int64_t batch = 1;
    std::int64_t tokens = 0;
    std::string origin; // "preset", "shape" or "call"
    // The shape's own key/value heads before --kv-heads (the rows mark both).
    std::int64_t config_kv_heads = 0;
};

void print_kv_cache(const KvRequest& request, bool as_json);
// Every published config at its own context_length, or at `tokens` when it is above 0.
void print_kv_presets(attnlab::KvDtype dtype, std::int64_t batch, std::int64_t tokens, bool as_json);

} // namespace cli
