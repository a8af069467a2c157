#pragma once
// The book's chapter 4 GPTModel as the files in resources/models hold it (state_dict names, settings
// in __metadata__), and its forward pass in F32 up to one layer's attention. The attention itself is
// not re-implemented here: each block's MultiHeadAttention runs through trace_forward, so the stages
// the app shows for a trained layer are the engine's own.
#include "call/config.h"
#include "gpt/gpt_config.h"
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
    std::map<std::string, std::string> metadata;
    StateDict weights; // every stored tensor, F32, by the book's state_dict name

    std::string meta(const std::string& key, const std::string& fallback = {}) const;
    // A number from the metadata (losses, timings); `fallback` when absent or not a number.
    double meta_number(const std::string& key, double fallback = 0.0) const;
};

// Reads and checks a verdict-gpt file: format metadata, settings, every tensor's name and shape.
// Throws Error with one sentence naming the file and what is wrong.
GptModel load_gpt_model(const std::string& path);

// The attention of every block: MultiHeadAttention(emb_dim, emb_dim, context_length, 0.0, n_heads, qkv_bias).
Config gpt_attention_config(const GptModel& model);
// Block `layer`'s attention parameters under the module's own names (W_query.weight, ..., out_proj.bias).
StateDict gpt_attention_weights(const GptModel& model, int layer);

struct GptLayerInput {
    Tensor x;          // (1, T, emb_dim): embeddings through blocks < layer, then that block's norm1
    Config config;     // gpt_attention_config(model)
    StateDict weights; // gpt_attention_weights(model, layer)
};

// Throws Error when the layer does not exist, an id is outside the vocabulary, or the ids are empty
// or longer than context_length.
GptLayerInput gpt_layer_input(const GptModel& model, const std::vector<std::int64_t>& ids, int layer);
// The whole model: (1, T, vocab_size) logits.
Tensor gpt_logits(const GptModel& model, const std::vector<std::int64_t>& ids);

} // namespace attnlab
