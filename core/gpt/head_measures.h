#pragma once
// What a head does, in four numbers computed from its attention weights (resources/training/
// head_measures.py states the same definitions): averaged over query positions 1 .. T-1, since
// position 0 can only attend to itself.
#include "tensor/tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab {

struct HeadMeasures {
    double distance = 0; // mean attention distance, sum_j w[i,j] (i - j), tokens
    double entropy = 0;  // -sum_j w[i,j] ln w[i,j], nats (0 ln 0 = 0)
    double previous = 0; // w[i, i-1]
    double first = 0;    // w[i, 0]
};

// One entry per head of `attn_weights` (b, H, T, T) for batch row `batch`. Empty when T < 2, where
// no query position has a choice to measure.
std::vector<HeadMeasures> head_measures(const Tensor& attn_weights, std::int64_t batch = 0);

// Uniform causal attention over T tokens, the reference a trained head is read against.
HeadMeasures uniform_measures(std::int64_t num_tokens);

} // namespace attnlab
