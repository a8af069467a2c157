#include "io/weights.h"

#include "tensor/error.h"
#include "tensor/torch_random.h"

#include <cmath>

namespace attnlab {

namespace {

const char* const kProjections[] = {"W_query", "W_key", "W_value"};

// nn.Linear(in, out): weight (out, in) and bias (out), both initialised with bound 1/sqrt(in).
void add_linear(std::vector<ParameterSpec>& specs, const std::string& prefix, std::int64_t out, std::int64_t in,
                const std::string& out_slot, const std::string& in_slot, bool bias)
{
    specs.push_back({prefix + ".weight", {out, in}, in, {out_slot, in_slot}});
    if (bias)
        specs.push_back({prefix + ".bias", {out}, in, {out_slot}});
}

void require_positive(const std::string& slot, std::int64_t value)
{
    if (value < 1)
        throw Error("parameter shapes need " + slot + " of at least 1, but the call has " + slot + "=" +
                    std::to_string(value) + ".");
}

} // namespace

std::vector<ParameterSpec> parameter_specs(const Config& config)
{
    require_positive("d_in", config.d_in);
    require_positive("d_out", config.d_out);
    std::vector<ParameterSpec> specs;
    switch (config.kind) {
    case ModuleKind::SimpleSelfAttention: break; // attention without trainable weights
    case ModuleKind::SelfAttentionV1:
        // Plain nn.Parameter(torch.rand(d_in, d_out)), used as x @ W.
        for (const char* name : kProjections)
            specs.push_back({name, {config.d_in, config.d_out}, config.d_in, {"d_in", "d_out"}});
        break;
    case ModuleKind::SelfAttentionV2:
    case ModuleKind::CausalAttention:
        for (const char* name : kProjections)
            add_linear(specs, name, config.d_out, config.d_in, "d_out", "d_in", config.qkv_bias);
        break;
    case ModuleKind::MultiHeadAttention:
        for (const char* name : kProjections)
            add_linear(specs, name, config.d_out, config.d_in, "d_out", "d_in", config.qkv_bias);
        add_linear(specs, "out_proj", config.d_out, config.d_out, "d_out", "d_out", true);
        break;
    case ModuleKind::GroupedQueryAttention:
        // The keys and values are narrowed to num_kv_groups heads of head_dim: nn.Linear(d_in, kv_width).
        // Constructed in the same order as MultiHeadAttention's, so a seed draws the same stream.
        require_positive("num_heads", config.num_heads);
        require_positive("num_kv_groups", config.num_kv_groups);
        add_linear(specs, "W_query", config.d_out, config.d_in, "d_out", "d_in", config.qkv_bias);
        for (const char* name : {"W_key", "W_value"})
            add_linear(specs, name, config.kv_width(), config.d_in, "num_kv_groups*head_dim", "d_in", config.qkv_bias);
        add_linear(specs, "out_proj", config.d_out, config.d_out, "d_out", "d_out", true);
        break;
    case ModuleKind::MultiHeadAttentionWrapper:
        require_positive("num_heads", config.num_heads);
        for (std::int64_t h = 0; h < config.num_heads; ++h)
            for (const char* name : kProjections)
                add_linear(specs, head_prefix(h) + name, config.d_out, config.d_in, "d_out", "d_in", config.qkv_bias);
        break;
    }
    return specs;
}

std::int64_t parameter_count(const Config& config)
{
    std::int64_t total = 0;
    for (const ParameterSpec& spec : parameter_specs(config))
        total += shape_numel(spec.shape);
    return total;
}

StateDict init_weights(const Config& config, std::uint64_t seed)
{
    TorchGenerator gen(seed);
    return init_weights(config, gen);
}

StateDict init_weights(const Config& config, TorchGenerator& gen)
{
    // parameter_specs is PyTorch's creation order, and each nn.Linear draws its weight and then its
    // bias in its constructor, so walking the specs consumes the stream exactly as the module does.
    StateDict weights;
    for (const ParameterSpec& spec : parameter_specs(config)) {
        std::vector<float> values(static_cast<std::size_t>(shape_numel(spec.shape)));
        if (config.kind == ModuleKind::SelfAttentionV1)
            uniform_(values.data(), values.size(), 0.0, 1.0, gen); // torch.rand(d_in, d_out)
        else if (spec.shape.size() == 2)
            kaiming_uniform_linear(values.data(), values.size(), spec.fan_in, gen);
        else
            linear_bias_uniform(values.data(), values.size(), spec.fan_in, gen);
        weights[spec.name] = Tensor::from_values(spec.shape, std::move(values));
    }
    return weights;
}

void skip_init_draws(const Config& config, TorchGenerator& gen)
{
    // Every float uniform_ takes one 32-bit draw per element, whatever its bounds.
    gen.discard(static_cast<unsigned long long>(parameter_count(config)));
}

std::string layout_name(WeightLayout layout)
{
    return layout == WeightLayout::Gpt2Hf ? "gpt2-hf" : "torch";
}

WeightLayout layout_from_name(const std::string& name)
{
    if (name == "torch")
        return WeightLayout::Torch;
    if (name == "gpt2-hf")
        return WeightLayout::Gpt2Hf;
    throw Error("unknown weight layout '" + name +
                "'; valid layouts are 'torch' (a state_dict of the module) and "
                "'gpt2-hf' (a Hugging Face GPT-2 checkpoint).");
}

Tensor random_input(const Config& config, std::int64_t batch, std::int64_t num_tokens, std::uint64_t seed)
{
    require_positive("d_in", config.d_in);
    if (batch < 1 || num_tokens < 1)
        throw Error("an input needs at least one sequence of at least one token, not batch=" + std::to_string(batch) +
                    " and num_tokens=" + std::to_string(num_tokens) + ".");
    const Shape shape = config.is_batched() ? Shape{batch, num_tokens, config.d_in} : Shape{num_tokens, config.d_in};
    // torch.manual_seed(seed); torch.rand(shape): a generator of its own, so the input does not
    // depend on how many parameters the module drew before it.
    TorchGenerator gen(seed);
    std::vector<float> values(static_cast<std::size_t>(shape_numel(shape)));
    uniform_(values.data(), values.size(), 0.0, 1.0, gen);
    return Tensor::from_values(shape, std::move(values));
}

Tensor book_input(const Config& config, std::int64_t batch)
{
    static const float kEmbeddings[6][3] = {
        {0.43f, 0.15f, 0.89f}, // Your
        {0.55f, 0.87f, 0.66f}, // journey
        {0.57f, 0.85f, 0.64f}, // starts
        {0.22f, 0.58f, 0.33f}, // with
        {0.77f, 0.25f, 0.10f}, // one
        {0.05f, 0.80f, 0.55f}, // step
    };
    if (config.d_in != 3)
        throw Error("the book's example embeds each token in 3 dimensions, so it needs d_in=3, but the call has d_in=" +
                    std::to_string(config.d_in) + ".");
    if (batch < 1)
        throw Error("the book's input needs a batch of at least 1, not " + std::to_string(batch) + ".");
    const std::int64_t copies = config.is_batched() ? batch : 1;
    std::vector<float> values;
    values.reserve(static_cast<std::size_t>(copies * 18));
    for (std::int64_t b = 0; b < copies; ++b)
        for (const auto& row : kEmbeddings)
            values.insert(values.end(), row, row + 3);
    return Tensor::from_values(config.is_batched() ? Shape{batch, 6, 3} : Shape{6, 3}, std::move(values));
}

const std::vector<std::string>& book_tokens()
{
    static const std::vector<std::string> tokens = {"Your", "journey", "starts", "with", "one", "step"};
    return tokens;
}

} // namespace attnlab
