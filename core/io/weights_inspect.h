#pragma once
// "Load your own": what a safetensors file of weights says about the module that owns them, read from
// the tensor names and shapes alone. d_in, d_out, qkv_bias and the layers are in the shapes; num_heads
// is not (splitting into heads is a reshape, it has no parameters), so the caller must ask for it --
// except for MultiHeadAttentionWrapper, which keeps one module per head.
#include "call/config.h"
#include "io/safetensors.h"
#include "io/weights.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

struct WeightsInfo {
    WeightLayout layout = WeightLayout::Torch;
    std::vector<ModuleKind> kinds; // the book's classes whose state_dict this can be, the likeliest first
    std::int64_t d_in = 0;
    std::int64_t d_out = 0; // per head for the wrapper, as its constructor takes it
    bool qkv_bias = false;
    std::vector<int> layers;         // gpt2-hf: the attention layers the file holds, ascending
    std::int64_t context_length = 0; // from a causal-mask buffer (mask, attn.bias) or wpe; 0: not stored
    std::int64_t num_heads = 0;      // only the wrapper's state_dict knows it; 0: ask the student
};

// Throws Error with one sentence (what, where, what would be valid) when the file matches no layout
// or its shapes disagree with each other. Tensors the app writes beside weights (x, expected.*) are ignored.
WeightsInfo inspect_weights(const SafetensorsFile& file);

// "gpt2-hf, MultiHeadAttention, d_in=768, d_out=768, qkv_bias=True, layers 0-11, context_length=1024"
std::string describe_weights(const WeightsInfo& info);

// The num_heads to offer first for d_out: the current one if it divides d_out, 12 for GPT-2's 768,
// else the most heads that still leave head_dim >= 64 (GPT-2's head size), else 1.
std::int64_t suggested_num_heads(std::int64_t d_out, std::int64_t current);

} // namespace attnlab
