#pragma once
// What a head does, in four numbers computed from its attention weights (resources/training/
// head_measures.py states the same definitions): averaged over query positions 1 .. T-1, since
// position 0 can only attend to itself.
#include "tensor/tensor.h"

#include <cstdint>
#include <optional>
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

// The induction score of every head: for each query i whose token occurred before (ids[j] == ids[i], j < i),
// the weight on the tokens right after those occurrences (w[i, j+1]), averaged over such queries. A head that
// completes a repeated pattern ("A B ... A" -> B) scores near 1; the text repeated twice brings such heads
// out. nullopt when no token repeats, where the score says nothing. Throws Error when ids and T differ.
std::vector<std::optional<double>> induction_scores(const Tensor& attn_weights, const std::vector<std::int64_t>& ids,
                                                    std::int64_t batch = 0);

// One head's (T, T) attention reduced to at most `size` x `size` cells for a thumbnail, each cell the largest
// weight of the block it covers, so a one-token-wide pattern (the previous token, the first) stays visible at
// 1,024 tokens. (T, T) itself when T <= size.
Tensor attention_thumbnail(const Tensor& attn_weights, std::int64_t batch, std::int64_t head, std::int64_t size);

} // namespace attnlab
