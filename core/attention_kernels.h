#pragma once
// The arithmetic of the forward pass on row-major buffers: GEMMs through Eigen maps, no copies of
// the head slices (a head is a column block of the projection, read with an outer stride).
#include "eigen_types.h"
#include "tensor.h"

#include <cstdint>

namespace attnlab {

// y = x W^T (+ b) over the last axis, as nn.Linear: x (..., in) contiguous, W (out, in).
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias);
// y = x W, as SelfAttention_v1's plain parameters: x (..., in), W (in, out).
Tensor matmul_right(const Tensor& x, const Tensor& weight);

// Where head h of batch b lives inside a (b, T, H*hd) projection: rows of hd floats every
// `row_stride` floats. Single-head modules are the case H = 1, hd = d_out.
struct HeadLayout {
    std::int64_t batch = 1, heads = 1, tokens = 1, head_dim = 1;
    std::int64_t row_stride() const { return heads * head_dim; }
    std::int64_t batch_stride() const { return tokens * heads * head_dim; }
};

// scores (b, H, T, T) = Q_h K_h^T for every batch and head.
void attention_scores(const float* queries, const float* keys, const HeadLayout& layout, float* scores);
// A copy of scores with -inf above the diagonal of every T x T block.
void apply_causal_mask(const float* scores, const HeadLayout& layout, float* masked);
// Row-wise softmax(scores / sqrt(head_dim)) over every T x T block, max-subtracted like PyTorch.
// causal: row i reads only its first i + 1 entries (the rest are -inf) and gets exact zeros beyond.
void scaled_softmax(const float* scores, const HeadLayout& layout, float* weights, bool causal);
// context (b, H, T, hd) = weights_h V_h for every batch and head; causal weights are lower
// triangular, so only that half is multiplied (the zeros above the diagonal add nothing).
void attention_context(const float* weights, const float* values, const HeadLayout& layout, float* context,
                       bool causal);
// (b, H, T, hd) -> (b, T, H*hd): what contiguous() does after transpose(1, 2).
void merge_heads(const float* context, const HeadLayout& layout, float* merged);

} // namespace attnlab
