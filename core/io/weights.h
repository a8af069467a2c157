#pragma once
// Parameters as PyTorch's state_dict names them ("W_query.weight", "heads.0.W_key.weight",
// "out_proj.bias", ...). Every source of weights -- seeded initialisation, a torch state_dict in
// safetensors, a GPT-2 checkpoint -- ends up as a StateDict checked against the config.
#include "call/config.h"
#include "io/safetensors.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

using StateDict = std::map<std::string, Tensor>;

struct ParameterSpec {
    std::string name;
    Shape shape;
    std::int64_t fan_in = 0;             // what nn.Linear's default init divides by
    std::vector<std::string> axis_slots; // the constructor slot each axis comes from, e.g. {"d_out", "d_in"}
};

// The parameters the module owns, in PyTorch's registration order (buffers such as `mask` excluded).
// Throws Error when d_in, d_out (or the wrapper's num_heads) is below 1, since no shape exists then.
std::vector<ParameterSpec> parameter_specs(const Config& config);
std::int64_t parameter_count(const Config& config);

// Deterministic on every platform: uniform in [-1/sqrt(fan_in), 1/sqrt(fan_in)) from our own
// seeded generator (not PyTorch's stream), as nn.Linear's default init does; SelfAttention_v1's
// plain parameters are uniform in [0, 1) like torch.rand.
StateDict init_weights(const Config& config, std::uint64_t seed);

enum class WeightLayout { Torch, Gpt2Hf };
std::string layout_name(WeightLayout layout);           // "torch", "gpt2-hf"
WeightLayout layout_from_name(const std::string& name); // throws Error naming the valid ones

// Picks the config's parameters out of a file and checks every name and shape, saying which name
// is missing or which shape does not fit the call. gpt2-hf: split h.{layer}.attn.c_attn.weight
// (d, 3d) into query/key/value along the last axis and transpose each part (Conv1D stores (in, out)).
StateDict state_dict_from_file(const SafetensorsFile& file, const Config& config, WeightLayout layout, int layer = 0);
// The layer of a GPT-2 attention weight name ("h.3.attn.c_attn.weight" -> 3, optionally "transformer."-prefixed).
std::optional<int> gpt2_layer_of(std::string name);

// Inputs: seeded uniform [0, 1) values, or the book's six embedded tokens
// ("Your journey starts with one step", 3 dimensions each), stacked `batch` times.
Tensor random_input(const Config& config, std::int64_t batch, std::int64_t num_tokens, std::uint64_t seed);
Tensor book_input(const Config& config, std::int64_t batch);
const std::vector<std::string>& book_tokens();

} // namespace attnlab
