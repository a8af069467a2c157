#pragma once
// Weights that hold NaN or infinity compute nothing a student can read: every output they touch turns NaN, and the
// app would show p=nan as if it were a result. Each reader of weights -- a GPT-2 checkpoint, a model trained here, a
// --weights file, a recorded module's parameters -- counts them after reading and refuses the file, naming the
// tensors, in the CLI and the window alike. (What a recorded forward computed is not checked: its masked scores hold
// -inf by design.)
#include "io/weights.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

struct NonFiniteCount {
    std::string name;
    std::int64_t nan = 0, infinite = 0, values = 0;
    bool any() const { return nan > 0 || infinite > 0; }
};

// Counts a tensor's NaN and infinite values, whatever its strides.
NonFiniteCount count_non_finite(const std::string& name, const Tensor& tensor);

// Throws Error with one sentence when any count has a NaN or an infinity: "'gpt2.safetensors' holds values that are
// not finite numbers: h.0.attn.c_attn.weight has 1769472 NaN of 1769472 values (and 2 more tensors have some), so it
// was not opened; a model with them computes nothing but NaN." `who` names the file as the caller's other messages do.
void require_finite(const std::string& who, const std::vector<NonFiniteCount>& counts);
// The same over every tensor of a state_dict, named by its keys.
void require_finite(const std::string& who, const StateDict& weights);

} // namespace attnlab
