#pragma once
// The attention of train_attention.h with the heads as the vector lanes, for head counts that fill whole
// vectors (8, 16, 32 heads with AVX2; 16 and 32 with AVX-512, and 8 in vectors of half its width): one
// multiply-add serves a lane's worth of heads at once, where the per-head products of the other layout were a
// few multiply-adds per call at head_dim 1 to 4. q, k and v are first permuted to (position, d, head) rows
// (lanes_order.h), so each head's d-th value sits in lane h of vector d; the scores, the softmax and every
// product are then plain vector sums over positions, with no transpose. attention_forward and
// attention_backward hand over to these when attention_heads_as_lanes(dims); the weights_t buffer then holds
// the weights as (batch, query, key j <= query, head), the causal triangle packed, which only these read, and
// attention_forward makes the module's (batch, heads, query, key) weights from it (attention_lanes_weights)
// only when asked for: a training step does not need them, and at 32 heads they were 8 MB a layer to write.
#include "train/train_attention.h"

namespace attnlab::train {

bool attention_heads_as_lanes(const AttentionDims& dims);
void attention_lanes_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* lanes,
                             const float* noise, float* ctx);
// The weights in the module's layout, 0 above the diagonal, from the lanes a forward wrote.
void attention_lanes_weights(const AttentionDims& dims, const float* lanes, float* weights);
void attention_lanes_backward(const AttentionDims& dims, const float* q, const float* k, const float* v,
                              const float* lanes, const float* noise, const float* dctx, float* dq, float* dk,
                              float* dv);

} // namespace attnlab::train
