// Loading a StateDict from a file in one of the two layouts, checking every name and shape against the call.
#include "io/weights.h"
#include "forward/stage_names.h"

#include "tensor/error.h"

#include <optional>
#include <set>

namespace attnlab {

namespace {

std::string file_label(const SafetensorsFile& file)
{
    return file.path.empty() ? std::string("the weights file") : "'" + file.path + "'";
}

std::string module_label(const Config& config)
{
    std::string label = module_class_name(config.kind);
    if (config.kind != ModuleKind::SelfAttentionV1)
        label += std::string(" with qkv_bias=") + (config.qkv_bias ? "True" : "False");
    return label;
}

// What the file offers instead, so a missing-name message shows the names it could have meant.
std::string names_summary(const SafetensorsFile& file)
{
    std::vector<std::string> names;
    for (const SafetensorsEntry& entry : file.entries)
        if (entry.name != stage::x && !entry.name.starts_with("expected.") && !entry.name.ends_with("mask"))
            names.push_back(entry.name.empty() ? "a tensor with an empty name" : printable_name(entry.name));
    if (names.empty())
        return "it holds no parameter tensors";
    std::string text = "its parameter tensors are ";
    for (std::size_t i = 0; i < names.size() && i < 8; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > 8)
        text += " and " + std::to_string(names.size() - 8) + " more";
    return text;
}

std::string shape_origin(const Shape& shape, const std::vector<std::string>& slots)
{
    std::string text = shape_to_string(shape) + " from ";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + slots[i] + "=" + std::to_string(shape[i]);
    return text;
}

Tensor take(const SafetensorsFile& file, const std::string& name, const Shape& shape,
            const std::vector<std::string>& slots, const std::string& needed_by)
{
    const SafetensorsEntry* entry = file.entry(name);
    if (!entry) {
        bool gpt2 = false;
        for (const SafetensorsEntry& e : file.entries)
            gpt2 = gpt2 || gpt2_layer_of(e.name).has_value();
        throw Error(file_label(file) + " has no tensor '" + name + "', which " + needed_by + " needs; " +
                    names_summary(file) + (gpt2 ? " (a GPT-2 checkpoint: load it with the gpt2-hf layout)." : "."));
    }
    if (entry->shape != shape) // checked on the header, before any data is read
        throw Error(file_label(file) + " holds '" + name + "' with shape " + shape_to_string(entry->shape) +
                    ", but the call needs " + shape_origin(shape, slots) + ".");
    return file.take(name);
}

StateDict from_torch(const SafetensorsFile& file, const Config& config)
{
    const std::vector<ParameterSpec> specs = parameter_specs(config);
    if (config.kind != ModuleKind::SelfAttentionV1 && !config.qkv_bias) {
        // load_state_dict(strict=True) would refuse these as unexpected keys; say so instead of dropping them.
        for (const SafetensorsEntry& entry : file.entries) {
            const std::string& name = entry.name;
            const bool qkv_bias =
                name.ends_with("W_query.bias") || name.ends_with("W_key.bias") || name.ends_with("W_value.bias");
            if (qkv_bias && !name.starts_with("expected."))
                throw Error(file_label(file) + " has " + name +
                            " but the call has qkv_bias=False; pass qkv_bias=True "
                            "to load the query/key/value biases.");
        }
    }
    StateDict weights;
    for (const ParameterSpec& spec : specs)
        weights[spec.name] = take(file, spec.name, spec.shape, spec.axis_slots, module_label(config));
    return weights;
}

// Conv1D stores (in, out) and fuses query, key and value along the last axis; nn.Linear wants (out, in) each.
Tensor split_transposed(const Tensor& fused, std::int64_t part, std::int64_t d_in, std::int64_t d_out)
{
    const std::vector<float> src = fused.to_vector();
    std::vector<float> out(static_cast<std::size_t>(d_out * d_in));
    for (std::int64_t o = 0; o < d_out; ++o)
        for (std::int64_t i = 0; i < d_in; ++i)
            out[static_cast<std::size_t>(o * d_in + i)] =
                src[static_cast<std::size_t>(i * 3 * d_out + part * d_out + o)];
    return Tensor::from_values({d_out, d_in}, std::move(out));
}

StateDict from_gpt2(const SafetensorsFile& file, const Config& config, int layer)
{
    if (config.kind != ModuleKind::MultiHeadAttention)
        throw Error("the gpt2-hf layout holds GPT-2's fused attention, which only MultiHeadAttention has; load " +
                    module_class_name(config.kind) + " weights with the torch layout.");
    if (!config.qkv_bias)
        throw Error("GPT-2 checkpoints carry query/key/value biases (c_attn.bias), so the call needs qkv_bias=True.");
    std::string prefix;
    for (const std::string candidate : {"h.", "transformer.h."})
        if (layer >= 0 && file.entry(candidate + std::to_string(layer) + ".attn.c_attn.weight"))
            prefix = candidate + std::to_string(layer) + ".attn.";
    if (prefix.empty()) {
        std::set<int> layers;
        for (const SafetensorsEntry& entry : file.entries)
            if (auto found = gpt2_layer_of(entry.name))
                layers.insert(*found);
        if (layers.empty())
            throw Error(file_label(file) + " has no GPT-2 attention tensors such as h.0.attn.c_attn.weight; " +
                        names_summary(file) + " (a module state_dict: load it with the torch layout).");
        std::string list;
        for (int l : layers)
            list += (list.empty() ? "" : ", ") + std::to_string(l);
        throw Error(file_label(file) + " has no layer " + std::to_string(layer) + "; it holds layer" +
                    (layers.size() > 1 ? "s " : " ") + list + ".");
    }
    const std::string needed_by = "the gpt2-hf layout";
    const std::int64_t d_in = config.d_in, d_out = config.d_out;
    const Tensor c_attn = take(file, prefix + "c_attn.weight", {d_in, 3 * d_out}, {"d_in", "3*d_out"}, needed_by);
    const Tensor c_attn_bias = take(file, prefix + "c_attn.bias", {3 * d_out}, {"3*d_out"}, needed_by);
    const Tensor c_proj = take(file, prefix + "c_proj.weight", {d_out, d_out}, {"d_out", "d_out"}, needed_by);
    const Tensor c_proj_bias = take(file, prefix + "c_proj.bias", {d_out}, {"d_out"}, needed_by);

    StateDict weights;
    const std::vector<float> bias = c_attn_bias.to_vector();
    const std::string names[] = {"W_query", "W_key", "W_value"};
    for (std::int64_t part = 0; part < 3; ++part) {
        weights[names[part] + ".weight"] = split_transposed(c_attn, part, d_in, d_out);
        const auto first = bias.begin() + part * d_out;
        weights[names[part] + ".bias"] = Tensor::from_values({d_out}, std::vector<float>(first, first + d_out));
    }
    weights["out_proj.weight"] = c_proj.transpose(0, 1).clone();
    weights["out_proj.bias"] = c_proj_bias;
    return weights;
}

} // namespace

std::optional<int> gpt2_layer_of(std::string name)
{
    if (name.starts_with("transformer."))
        name.erase(0, 12);
    const std::string tail = ".attn.c_attn.weight";
    if (!name.starts_with("h.") || !name.ends_with(tail) || name.size() <= 2 + tail.size())
        return std::nullopt;
    const std::string digits = name.substr(2, name.size() - 2 - tail.size());
    if (digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoi(digits);
}

StateDict state_dict_from_file(const SafetensorsFile& file, const Config& config, WeightLayout layout, int layer)
{
    return layout == WeightLayout::Gpt2Hf ? from_gpt2(file, config, layer) : from_torch(file, config);
}

} // namespace attnlab
