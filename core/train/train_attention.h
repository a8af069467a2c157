#pragma once
// The book's MultiHeadAttention between its projections, forward and backward: queries, keys and values
// (batch * tokens rows of d_out, head h in columns h*head_dim ...), seen as (b, num_heads, tokens,
// head_dim); scores q k^T, the causal mask, softmax(scores / sqrt(head_dim)), dropout on the weights,
// weights @ values merged back to (batch * tokens, d_out).
#include "train/train_ops.h"

#include <cmath>
#include <cstddef>

namespace attnlab::train {

struct AttentionDims {
    std::size_t batch = 0, tokens = 0, heads = 0, head_dim = 0;
    // Row stride of q, k, v (and dq, dk, dv): d_out when 0; 3 d_out when they are the thirds of one fused
    // projection's rows. ctx and dctx always have rows of d_out.
    std::size_t qkv_stride = 0;
    // Ragged rows (GptNet's Rows::live): sequence b's rows of q, k, v, ctx and their gradients are
    // starts[b] .. starts[b + 1], its first positions only, when its later ones reach no loss. The weights,
    // weights_t and noise keep every sequence's whole (tokens x tokens) block, filled only in that corner.
    // Null: every sequence has `tokens` rows, one after another.
    const std::size_t* starts = nullptr;
    std::size_t first_row(std::size_t b) const { return sequence_rows(starts, tokens, b).first; }
    std::size_t length(std::size_t b) const { return sequence_rows(starts, tokens, b).count; }
    // Queries whose output no one reads (GptNet's last block under Rows::live, before a sequence's first
    // scored position): a layout may skip sequence b's queries before query_from[b]. Their ctx rows are then
    // unspecified, their dctx rows must be zero, and their weights are not made. Null: every query.
    const std::size_t* query_from = nullptr;
    std::size_t first_query(std::size_t b) const { return query_from ? query_from[b] : 0; }
    // A sliding window: query i sees keys i - window + 1 .. i only (0: every key j <= i). The softmax gives the keys
    // before the window weight 0, so the products and the whole backward need nothing else.
    std::size_t window = 0;
    std::size_t d_out() const { return heads * head_dim; }
    std::size_t stride() const { return qkv_stride ? qkv_stride : d_out(); }
    // keys.shape[-1] ** 0.5 in Python (a double), divided into float scores as a float.
    float score_divisor() const { return static_cast<float>(std::sqrt(static_cast<double>(head_dim))); }
};

// weights (null when not wanted): (batch, heads, tokens, tokens), 0 above the diagonal, before dropout; a
// training step does not need them. weights_t, which the backward reads (attention_t_floats of them): the
// same transposed per head, (key rows, query columns) with the rows padded to a multiple of 16; or, when the
// heads fill whole vectors (attention_lanes.h), as (batch, query, key <= query, head), packed. noise (null without
// dropout): the dropout mask divided by float(1 - p), of the weights' shape. ctx is written whole (but see query_from).
// With ragged rows, weights must be null and attention_weights_from_t does not apply.
void attention_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* weights,
                       float* weights_t, const float* noise, float* ctx);
std::size_t attention_t_floats(const AttentionDims& dims);
// The weights a forward would have written, from its weights_t.
void attention_weights_from_t(const AttentionDims& dims, const float* weights_t, float* weights);
// dq, dk, dv are written whole.
void attention_backward(const AttentionDims& dims, const float* q, const float* k, const float* v,
                        const float* weights_t, const float* noise, const float* dctx, float* dq, float* dk, float* dv);

} // namespace attnlab::train
