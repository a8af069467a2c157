#pragma once
// Multiply-adds of each part of the forward pass, counted from the shapes (the trade-off explorer
// and the benchmark's GFLOP/s both read these, so they agree).
#include "call/config.h"

#include <cstdint>

namespace attnlab {

struct ForwardCost {
    double projections = 0; // queries, keys, values
    double scores = 0;      // Q K^T
    double context = 0;     // weights V
    double out_proj = 0;
    double total() const { return projections + scores + context + out_proj; }
    double flops() const { return 2 * total(); }
};

ForwardCost forward_cost(const Config& config, InputShape input);

} // namespace attnlab
