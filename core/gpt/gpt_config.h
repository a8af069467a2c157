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
    // Key/value heads, each shared by n_heads / n_kv_groups query heads (GroupedQueryAttention); 0 means
    // n_heads, the book's MultiHeadAttention, so a config that never names it keeps the book's GPT.
    std::int64_t n_kv_groups = 0;
    // A sliding window (GroupedQueryAttention's window_size): each token sees at most the `window` latest tokens,
    // itself included. 0: none, the book's causal mask alone.
    std::int64_t window = 0;

    std::int64_t head_dim() const { return emb_dim / n_heads; }
    std::int64_t kv_groups() const { return n_kv_groups > 0 ? n_kv_groups : n_heads; }
    bool grouped() const { return kv_groups() != n_heads; }
    // The attention is the lab's GroupedQueryAttention (fewer key/value heads, or a window, which the book's
    // MultiHeadAttention does not take); otherwise the book's MultiHeadAttention.
    bool grouped_query_module() const { return grouped() || window > 0; }
    std::int64_t kv_width() const { return kv_groups() * head_dim(); } // W_key's and W_value's rows
};

} // namespace attnlab
