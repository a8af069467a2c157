#pragma once
// The cfg dict GPTModel(cfg) is built from (the book's chapter 4), whatever the model's source: a Verdict
// model's metadata, a GPT-2 checkpoint's tensors and config.json, or the trainer's settings. The defaults
// are the small model the trainer starts from.
#include <cstdint>

namespace attnlab {

struct GptConfig {
    std::int64_t vocab_size = 16;
    std::int64_t context_length = 32; // GPT-2's n_positions
    std::int64_t emb_dim = 32;        // also each block's d_out
    std::int64_t n_layers = 2;
    std::int64_t n_heads = 4;
    double drop_rate = 0.0; // training only: the inference forward runs in eval mode
    bool qkv_bias = false;

    std::int64_t head_dim() const { return emb_dim / n_heads; }
};

} // namespace attnlab
