#pragma once
// The book's chapter 4 GPTModel as the files in resources/models hold it (state_dict names, settings
// in __metadata__), and each block's attention as the engine's MultiHeadAttention. Its forward, for this
// and every other source of the same model, is gpt_forward.h.
#include "call/config.h"
#include "gpt/gpt_config.h"
#include "io/safetensors.h"
#include "io/weights.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attnlab {

struct GptModel {
    std::string path;
    std::string name; // file name without ".safetensors", e.g. "verdict-gpt-h4"
    GptConfig settings;
    // The name its source gives context_length, for messages: a GPT-2 checkpoint's config says "n_positions".
    std::string context_length_name = "context_length";
    std::map<std::string, std::string> metadata;
    StateDict weights; // every stored tensor, F32, by the book's state_dict name

    std::string meta(const std::string& key, const std::string& fallback = {}) const;
    // A number from the metadata (losses, timings); `fallback` when absent or not a number.
    double meta_number(const std::string& key, double fallback = 0.0) const;
};

// Reads and checks a verdict-gpt file: format metadata, settings, every tensor's name and shape.
// Throws Error with one sentence naming the file and what is wrong.
GptModel load_gpt_model(const std::string& path);
// The same checks on a whole file already in memory (a model kept inside a session file): `who` names it in
// messages and, without its extension, is the model's name; its path is empty.
GptModel parse_gpt_model(const std::string& bytes, const std::string& who, const SafetensorsOptions& options = {});

// The attention of every block: MultiHeadAttention(emb_dim, emb_dim, context_length, 0.0, n_heads, qkv_bias), or
// GroupedQueryAttention(..., n_heads, n_kv_groups, qkv_bias) when the model has fewer key/value heads.
Config gpt_attention_config(const GptModel& model);
// The same from the settings alone (the memory estimate, and whether a call still fits trained weights).
Config gpt_attention_config(const GptConfig& settings);
// Block `layer`'s attention parameters under the module's own names (W_query.weight, ..., out_proj.bias).
StateDict gpt_attention_weights(const GptModel& model, int layer);

} // namespace attnlab
