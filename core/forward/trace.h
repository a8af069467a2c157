#pragma once
// The traced forward pass: every stage of the book's forward under its canonical name (see the
// golden README), with the tensor as PyTorch would hold it -- views share storage and carry their
// strides, so `context.transposed` is honestly not contiguous.
#include "call/config.h"
#include "forward/module_source.h"
#include "forward/stage_facts.h"
#include "tensor/tensor.h"
#include "tensor/torch_random.h"
#include "io/weights.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// A recorded stage: its name, where it comes from in the book's code, its shape, and what the name
// means (StageFacts: role, wrapper head, attention matrix, the stage it re-lays out).
struct Stage : StageFacts {
    std::string name;       // "queries.view", "heads.1.context", "output", ...
    int code_line = -1;     // index into module_source(kind)
    std::vector<Axis> axes; // symbolic axes (axis_name: "b", "num_tokens", "d_out", ...)
    Shape expected_shape;   // what the config says the shape should be
    std::string view_of;    // the stage whose storage this one shares, "" when it owns its data
    Tensor tensor;
};

struct Trace {
    Config config;
    std::vector<Stage> stages;
    const Stage* find(std::string_view name) const;
    const Tensor& output() const { return stages.back().tensor; }
};

// Where a MultiHeadAttention forward spends its time, in milliseconds (the benchmark's profile).
struct PhaseTimes {
    double projections = 0, scores = 0, softmax = 0, context = 0, merge = 0, out_proj = 0; // softmax: with the mask
};

struct ForwardOptions {
    bool training = false; // dropout acts only when training and p > 0
    // Dropout draws its masks from this generator, as nn.Dropout draws from torch's default one:
    // callers pass the generator that initialised the weights (or one re-seeded just before the
    // forward). When null, the masks come from TorchGenerator(dropout_seed).
    TorchGenerator* generator = nullptr;
    std::uint64_t dropout_seed = 0;
    PhaseTimes* profile = nullptr; // when set, each phase's time is added to it
    // When set and true, the pass stops at the next stage boundary by throwing Cancelled (error.h).
    // The GUI sets it from another thread to stop work whose result is no longer wanted.
    const std::atomic<bool>* cancel = nullptr;
};

// Canonical stage names for a config, in forward order (wrapper: heads.{h}.* then output).
std::vector<std::string> stage_names(const Config& config, bool with_dropout = false);
std::int64_t stage_count(const Config& config, bool with_dropout = false); // stage_names().size(), without the names

// Runs the module. Throws Error when the config is invalid or x does not fit it, Cancelled when
// options.cancel turns true before the last stage is recorded.
Trace trace_forward(const Config& config, const StateDict& weights, const Tensor& x,
                    const ForwardOptions& options = {});

// Bytes a forward pass will hold (weights, input and every recorded stage), computed from the
// shapes alone, so a request can be refused before anything is allocated.
std::uint64_t estimate_memory_bytes(const Config& config, InputShape input);

} // namespace attnlab
