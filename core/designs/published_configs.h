#pragma once
// Attention shapes of published models, copied from their public configs (Hugging Face config.json, or
// the paper or model card where the config does not say), so the KV cache of a real model can be
// counted and compared across key/value head counts. Each row names its source.
#include "designs/kv_cache.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// In a fixed order: GPT-2 by size, Llama 2, Llama 3, then the others.
const std::vector<AttentionShape>& published_configs();
// nullptr when no published config has that name.
const AttentionShape* find_published_config(std::string_view name);
// "gpt2-small, gpt2-medium, ... and qwen2-7b", for messages.
std::string published_config_names();

} // namespace attnlab
