#pragma once
// The two designs compute the same thing: slice each role's wide projection of a MultiHeadAttention
// per head (head h gets rows [h*head_dim, (h+1)*head_dim) of W_query.weight, W_key.weight,
// W_value.weight and of their biases) into a MultiHeadAttentionWrapper of num_heads heads of width
// head_dim, run both on the same input, and the wrapper's concatenated output equals the integrated
// module's `context.merged` (before out_proj). The comparison view and `attention-lab-cli
// equivalence` show the difference and which slice each head owns.
#include "call/config.h"
#include "forward/experiment.h"
#include "tensor/tensor.h"
#include "io/weights.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// The comparison must stay below this: float32 sums taken in a different order, nothing more.
constexpr double kEquivalenceTolerance = 1e-5;

// One copied tensor: wrapper = integrated[row_begin:row_end] (rows of a weight, entries of a bias).
struct SliceCopy {
    std::string wrapper_name;    // "heads.1.W_query.weight"
    std::string integrated_name; // "W_query.weight"
    std::int64_t row_begin = 0;
    std::int64_t row_end = 0;
};

struct HeadEquivalence {
    std::int64_t head = 0;
    std::int64_t row_begin = 0; // the rows of W_query.weight (and W_key, W_value) this head owns
    std::int64_t row_end = 0;
    std::vector<SliceCopy> copies; // W_query, W_key, W_value weight (and bias) for this head
    double max_abs_diff = 0;       // over this head's columns [row_begin, row_end) of the two tensors
};

struct Equivalence {
    Config integrated; // the MultiHeadAttention call
    Config wrapper;    // MultiHeadAttentionWrapper(d_in, head_dim, context_length, dropout, num_heads, qkv_bias)
    StateDict integrated_weights;
    StateDict wrapper_weights; // heads.{h}.W_query.weight, ... sliced from integrated_weights
    Tensor x;
    Tensor merged;           // the integrated trace's `context.merged`, (b, T, d_out)
    Tensor concatenated;     // the wrapper trace's `output`, (b, T, num_heads * head_dim)
    double max_abs_diff = 0; // between merged and concatenated
    // out_proj applied to the wrapper's output against the integrated `output`: the wrapper plus one
    // extra linear layer reproduces the whole module.
    double output_max_abs_diff = 0;
    std::vector<HeadEquivalence> heads;
    bool equivalent() const { return max_abs_diff < kEquivalenceTolerance; }
};

// The wrapper config matching an integrated call (per-head d_out = head_dim); throws Error when the
// call is not a valid MultiHeadAttention call.
Config matched_wrapper_config(const Config& integrated);

// Copies each head's rows out of the integrated weights; `copies` (when given) receives what went where,
// in head order. Throws Error when a weight the call needs is missing or has the wrong shape.
StateDict slice_into_wrapper(const Config& integrated, const StateDict& weights,
                             std::vector<SliceCopy>* copies = nullptr);

// Traces both modules on x. Throws Error for an invalid call or input, Cancelled when `cancel` turns
// true (see ForwardOptions::cancel).
Equivalence check_equivalence(const Config& integrated, const StateDict& weights, const Tensor& x,
                              const std::atomic<bool>* cancel = nullptr);

// Seeded weights and input as `prepare` makes them (spec.config must be a MultiHeadAttention call;
// the memory budget covers both traces). Throws Error when refused.
Equivalence check_equivalence(const ExperimentSpec& spec, const std::atomic<bool>* cancel = nullptr);

} // namespace attnlab
