#pragma once
// Parameters as PyTorch's state_dict names them ("W_query.weight", "heads.0.W_key.weight",
// "out_proj.bias", ...). Every source of weights -- seeded initialisation, a torch state_dict in
// safetensors, a GPT-2 checkpoint -- ends up as a StateDict checked against the config.
#include "call/config.h"
#include "io/safetensors.h"
#include "tensor/tensor.h"
#include "tensor/torch_random.h"

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

// torch.manual_seed(seed) followed by constructing the module: every parameter drawn from PyTorch's
// CPU generator (torch_random.h) in the order the constructor creates it -- torch.rand for
// SelfAttention_v1's plain parameters; nn.Linear's kaiming_uniform_ weight, then its bias; the
// wrapper's heads one after another; out_proj last. Equal to PyTorch's parameters bit for bit.
StateDict init_weights(const Config& config, std::uint64_t seed);
// The same drawing from gen, which is left where torch's default generator is after the constructor.
StateDict init_weights(const Config& config, TorchGenerator& gen);
// Advances gen past the draws init_weights would make (weights loaded from a file: the module was
// still constructed, so dropout continues the stream from the same place).
void skip_init_draws(const Config& config, TorchGenerator& gen);

enum class WeightLayout { Torch, Gpt2Hf };
std::string layout_name(WeightLayout layout);           // "torch", "gpt2-hf"
WeightLayout layout_from_name(const std::string& name); // throws Error naming the valid ones

// Picks the config's parameters out of a file and checks every name and shape, saying which name
// is missing or which shape does not fit the call. gpt2-hf: split h.{layer}.attn.c_attn.weight
// (d, 3d) into query/key/value along the last axis and transpose each part (Conv1D stores (in, out)).
StateDict state_dict_from_file(const SafetensorsFile& file, const Config& config, WeightLayout layout, int layer = 0);
// The layer of a GPT-2 attention weight name ("h.3.attn.c_attn.weight" -> 3, optionally "transformer."-prefixed).
std::optional<int> gpt2_layer_of(std::string name);

// Inputs: torch.manual_seed(seed); torch.rand(...) values in [0, 1), or the book's six embedded tokens
// ("Your journey starts with one step", 3 dimensions each), stacked `batch` times.
Tensor random_input(const Config& config, std::int64_t batch, std::int64_t num_tokens, std::uint64_t seed);
Tensor book_input(const Config& config, std::int64_t batch);
const std::vector<std::string>& book_tokens();

} // namespace attnlab
