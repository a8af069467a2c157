#pragma once
// The arithmetic of the forward pass on row-major buffers: GEMMs through Eigen maps, no copies of
// the head slices (a head is a column block of the projection, read with an outer stride).
#include "tensor/eigen_types.h"
#include "tensor/tensor.h"

#include <cstdint>

namespace attnlab {

// y = x W^T (+ b) over the last axis, as nn.Linear: x (..., in) contiguous, W (out, in).
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias);
// y = x W, as SelfAttention_v1's plain parameters: x (..., in), W (in, out).
Tensor matmul_right(const Tensor& x, const Tensor& weight);

// Where head h of batch b lives inside a (b, T, H*hd) projection: rows of hd floats every
// `row_stride` floats. Single-head modules are the case H = 1, hd = d_out. With kv_heads G < H
// (grouped-query attention) the keys and values are (b, T, G*hd) and query head h reads key/value head
// h / (H / G): the repetition the module records is never materialised for the arithmetic.
struct HeadLayout {
    std::int64_t batch = 1, heads = 1, tokens = 1, head_dim = 1;
    std::int64_t kv_heads = 0; // 0: one per query head
    std::int64_t window = 0;   // a sliding window: row i sees keys i - window + 1 ... i; 0: every earlier key
    std::int64_t row_stride() const { return heads * head_dim; }
    std::int64_t batch_stride() const { return tokens * heads * head_dim; }
    std::int64_t kv_count() const { return kv_heads > 0 ? kv_heads : heads; }
    std::int64_t kv_row_stride() const { return kv_count() * head_dim; }
    std::int64_t kv_batch_stride() const { return tokens * kv_row_stride(); }
    // Where query head h's keys and values start in batch element b.
    std::int64_t kv_offset(std::int64_t b, std::int64_t h) const
    {
        return b * kv_batch_stride() + h / (heads / kv_count()) * head_dim;
    }
};

// The outputs of the attention core for every (batch, head) block; masked may be null when the
// module is not causal (no mask stage), context null when dropout must come first.
struct AttentionBuffers {
    float* scores = nullptr;  // (b, H, T, T): Q_h K_h^T
    float* masked = nullptr;  // (b, H, T, T): scores with -inf above the diagonal (and before a sliding window)
    float* weights = nullptr; // (b, H, T, T): softmax(masked / sqrt(head_dim)) row by row
    float* context = nullptr; // (b, H, T, hd): weights_h V_h
};

// Milliseconds spent in each step (summed over blocks; measured only when running on one thread).
struct AttentionTimes {
    double scores = 0, softmax = 0, context = 0; // the mask is one pass with the softmax
};

// softmax(row * scale) over n scores into out (which may be row itself): the scaled row's max, exp(x - max),
// then one multiply by the reciprocal of the sum, as PyTorch's kernel. The traced forward and the KV cache's
// step (gpt/kv_cache.cpp) both call it, so a cached step's weights are the full forward's to the last bit.
inline void softmax_scaled(const float* row, std::int64_t n, float scale, float* out)
{
    Eigen::Map<const Eigen::ArrayXf> in(row, n);
    Eigen::Map<Eigen::ArrayXf> result(out, n);
    const float max = in.maxCoeff() * scale; // rounding is monotonic: the max of the scaled row
    result = (in * scale - max).exp();
    result *= 1.0f / result.sum();
}

// Runs scores -> mask -> softmax -> context one (batch, head) block at a time, so each T x T block
// is still in cache for the next step instead of streaming b*H*T*T floats through memory 3 times.
void attention_heads(const float* queries, const float* keys, const float* values, const HeadLayout& layout,
                     bool causal, const AttentionBuffers& out, AttentionTimes* times = nullptr);
// context (b, H, T, hd) = weights_h V_h on its own (after dropout). Causal weights are lower
// triangular: row blocks multiply only the keys they can see.
void attention_context(const float* weights, const float* values, const HeadLayout& layout, float* context,
                       bool causal);
// (b, H, T, hd) -> (b, T, H*hd): what contiguous() does after transpose(1, 2).
void merge_heads(const float* context, const HeadLayout& layout, float* merged);

} // namespace attnlab
