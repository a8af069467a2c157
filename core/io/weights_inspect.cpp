// Reading a module's constructor slots back out of its weights: every projection must agree on
// (d_out, d_in), so the first one fixes them and each other one is checked against it.
#include "io/weights_inspect.h"
#include "forward/stage_names.h"

#include "tensor/error.h"

#include <set>

namespace attnlab {

namespace {

const char* const kProjections[] = {"W_query", "W_key", "W_value"};

std::string file_label(const SafetensorsFile& file)
{
    return file.path.empty() ? std::string("the weights file") : "'" + file.path + "'";
}

// Tensors the app and the golden files keep beside the weights: the input and the expected stages.
bool is_weight(const std::string& name)
{
    return name != stage::x && !name.starts_with("expected.");
}

// Shapes come from the header: inspecting a file reads none of its tensor data.
const Shape& require(const SafetensorsFile& file, const std::string& name, const std::string& because)
{
    const SafetensorsEntry* entry = file.entry(name);
    if (!entry)
        throw Error(file_label(file) + " has no " + name + ", but " + because + ".");
    return entry->shape;
}

// `name` must have `shape`; `why` says which tensor fixed that shape.
void expect_shape(const SafetensorsFile& file, const std::string& name, const Shape& shape, const std::string& why)
{
    const SafetensorsEntry* found = file.entry(name);
    if (!found)
        throw Error(file_label(file) + " lacks " + name + ", which must be there with shape " + shape_to_string(shape) +
                    " since " + why + ".");
    if (found->shape != shape)
        throw Error(file_label(file) + " holds " + name + " with shape " + shape_to_string(found->shape) + ", but " +
                    why + ", so it must be " + shape_to_string(shape) + ".");
}

// The three projections under `prefix` ("" or "heads.3."): nn.Linear (d_out, d_in) each, biases all or none.
void read_projections(const SafetensorsFile& file, const std::string& prefix, WeightsInfo& info, bool first)
{
    const std::string query = prefix + "W_query.weight";
    const Shape& q = require(file, query,
                             "a state_dict of the book's attention modules has W_query, W_key and "
                             "W_value together");
    if (q.size() != 2)
        throw Error(file_label(file) + " holds " + query + " with shape " + shape_to_string(q) +
                    ", but nn.Linear keeps a (d_out, d_in) matrix.");
    const bool bias = file.entry(prefix + "W_query.bias") != nullptr;
    if (first) {
        info.d_out = q[0];
        info.d_in = q[1];
        info.qkv_bias = bias;
    }
    const Shape weight{info.d_out, info.d_in};
    const std::string fixed = "W_query.weight " + shape_to_string(weight) +
                              " says d_out=" + std::to_string(info.d_out) + ", d_in=" + std::to_string(info.d_in);
    for (const char* name : kProjections) {
        expect_shape(file, prefix + name + ".weight", weight, fixed);
        const bool has_bias = file.entry(prefix + name + ".bias") != nullptr;
        if (has_bias != info.qkv_bias)
            throw Error(file_label(file) + (has_bias ? " has " : " lacks ") + prefix + name + ".bias while " +
                        (info.qkv_bias ? "W_query has one" : "W_query has none") +
                        "; qkv_bias gives all three projections a bias or none.");
        if (has_bias)
            expect_shape(file, prefix + name + ".bias", {info.d_out}, fixed);
    }
}

// MultiHeadAttentionWrapper: heads.0 ... heads.{n-1}, each a complete CausalAttention.
void read_wrapper(const SafetensorsFile& file, const std::set<int>& heads, WeightsInfo& info)
{
    int expected = 0;
    for (int h : heads) {
        if (h != expected)
            throw Error(file_label(file) + " has no heads." + std::to_string(expected) + " but has heads." +
                        std::to_string(h) + "; the wrapper's heads are numbered 0, 1, 2, ... without gaps.");
        read_projections(file, head_prefix(h), info, h == 0);
        ++expected;
    }
    info.kinds = {ModuleKind::MultiHeadAttentionWrapper};
    info.num_heads = static_cast<std::int64_t>(heads.size());
    if (const SafetensorsEntry* mask = file.entry("heads.0.mask"); mask && mask->shape.size() == 2)
        info.context_length = mask->shape[0];
}

void read_torch(const SafetensorsFile& file, WeightsInfo& info)
{
    if (file.entry("W_query") || file.entry("W_key") || file.entry("W_value")) { // SelfAttention_v1: x @ W
        const Shape& q = require(file, "W_query", "SelfAttention_v1 has W_query, W_key and W_value together");
        if (q.size() != 2)
            throw Error(file_label(file) + " holds W_query with shape " + shape_to_string(q) +
                        ", but SelfAttention_v1 keeps a (d_in, d_out) matrix.");
        info.d_in = q[0];
        info.d_out = q[1];
        const std::string fixed = "W_query " + shape_to_string(q) + " says d_in=" + std::to_string(info.d_in) +
                                  ", d_out=" + std::to_string(info.d_out);
        for (const char* name : kProjections)
            expect_shape(file, name, q, fixed);
        info.kinds = {ModuleKind::SelfAttentionV1};
        return;
    }
    read_projections(file, "", info, true);
    if (const SafetensorsEntry* mask = file.entry("mask"); mask && mask->shape.size() == 2)
        info.context_length = mask->shape[0];
    if (file.entry("out_proj.weight") || file.entry("out_proj.bias")) {
        const std::string why = "MultiHeadAttention's out_proj maps d_out=" + std::to_string(info.d_out) + " to itself";
        expect_shape(file, "out_proj.weight", {info.d_out, info.d_out}, why);
        expect_shape(file, "out_proj.bias", {info.d_out}, why);
        info.kinds = {ModuleKind::MultiHeadAttention};
    } else if (info.context_length > 0) { // only the causal module registers a mask
        info.kinds = {ModuleKind::CausalAttention};
    } else {
        info.kinds = {ModuleKind::CausalAttention, ModuleKind::SelfAttentionV2};
    }
}

void read_gpt2(const SafetensorsFile& file, const std::set<int>& layers, WeightsInfo& info)
{
    const std::string prefix =
        file.entry("transformer.h." + std::to_string(*layers.begin()) + ".attn.c_attn.weight") ? "transformer." : "";
    for (int layer : layers) {
        const std::string at = prefix + "h." + std::to_string(layer) + ".attn.";
        const Shape& fused = require(file, at + "c_attn.weight", "it names layer " + std::to_string(layer));
        if (layer == *layers.begin()) {
            if (fused.size() != 2 || fused[1] % 3 != 0)
                throw Error(file_label(file) + " holds " + at + "c_attn.weight with shape " + shape_to_string(fused) +
                            ", but GPT-2 fuses query, key and value into one "
                            "(d_in, 3*d_out) matrix.");
            info.d_in = fused[0];
            info.d_out = fused[1] / 3;
        }
        const std::string fixed = "layer " + std::to_string(*layers.begin()) +
                                  "'s c_attn.weight says d_in=" + std::to_string(info.d_in) +
                                  ", d_out=" + std::to_string(info.d_out);
        expect_shape(file, at + "c_attn.weight", {info.d_in, 3 * info.d_out}, fixed);
        expect_shape(file, at + "c_attn.bias", {3 * info.d_out}, fixed);
        expect_shape(file, at + "c_proj.weight", {info.d_out, info.d_out}, fixed);
        expect_shape(file, at + "c_proj.bias", {info.d_out}, fixed);
        info.layers.push_back(layer);
    }
    info.layout = WeightLayout::Gpt2Hf;
    info.kinds = {ModuleKind::MultiHeadAttention};
    info.qkv_bias = true;
    // GPT-2 keeps its causal mask as the buffer attn.bias (1, 1, n_positions, n_positions); wpe says it too.
    const SafetensorsEntry* mask = file.entry(prefix + "h." + std::to_string(*layers.begin()) + ".attn.bias");
    const SafetensorsEntry* wpe = file.entry(prefix + "wpe.weight");
    if (mask && mask->shape.size() == 4 && mask->shape[2] == mask->shape[3])
        info.context_length = mask->shape[3];
    else if (wpe && wpe->shape.size() == 2)
        info.context_length = wpe->shape[0];
}

} // namespace

WeightsInfo inspect_weights(const SafetensorsFile& file)
{
    std::set<int> layers, heads;
    std::vector<std::string> names;
    for (const SafetensorsEntry& entry : file.entries) {
        const std::string& name = entry.name;
        if (!is_weight(name))
            continue;
        names.push_back(name);
        if (const auto layer = gpt2_layer_of(name))
            layers.insert(*layer);
        if (name.starts_with("heads.") && name.ends_with(".W_query.weight")) {
            const std::string digits = name.substr(6, name.size() - 6 - 15);
            if (!digits.empty() && digits.size() < 6 && digits.find_first_not_of("0123456789") == std::string::npos)
                heads.insert(std::stoi(digits));
        }
    }
    WeightsInfo info;
    if (!layers.empty())
        read_gpt2(file, layers, info);
    else if (!heads.empty())
        read_wrapper(file, heads, info);
    else if (file.entry("W_query.weight") || file.entry("W_key.weight") || file.entry("W_value.weight") ||
             file.entry("W_query") || file.entry("W_key") || file.entry("W_value"))
        read_torch(file, info);
    else {
        std::string listed;
        for (std::size_t i = 0; i < names.size() && i < 6; ++i)
            listed += (i ? ", " : "") + (names[i].empty() ? "a tensor with an empty name" : printable_name(names[i]));
        if (names.size() > 6)
            listed += " and " + std::to_string(names.size() - 6) + " more";
        throw Error(file_label(file) + (names.empty() ? " holds no weight tensors" : " holds " + listed) +
                    ", which fits no layout Attention Lab reads; it needs a module's state_dict (W_query.weight, "
                    "W_key.weight, W_value.weight, ...) or a GPT-2 checkpoint (h.0.attn.c_attn.weight, ...).");
    }
    return info;
}

std::string describe_weights(const WeightsInfo& info)
{
    std::string text = layout_name(info.layout) + ", ";
    for (std::size_t i = 0; i < info.kinds.size(); ++i)
        text += (i ? " or " : "") + module_class_name(info.kinds[i]);
    text += ", d_in=" + std::to_string(info.d_in) + ", d_out=" + std::to_string(info.d_out);
    if (info.kinds.front() != ModuleKind::SelfAttentionV1)
        text += std::string(", qkv_bias=") + (info.qkv_bias ? "True" : "False");
    if (info.num_heads > 0)
        text += ", num_heads=" + std::to_string(info.num_heads);
    const std::size_t n = info.layers.size();
    if (n > 0 && static_cast<std::size_t>(info.layers.back() - info.layers.front()) + 1 == n) // no gaps
        text += n == 1 ? ", layer " + std::to_string(info.layers.front())
                       : ", layers " + std::to_string(info.layers.front()) + "-" + std::to_string(info.layers.back());
    else
        for (std::size_t i = 0; i < n; ++i)
            text += (i ? "," : ", layers") + std::string(" ") + std::to_string(info.layers[i]);
    if (info.context_length > 0)
        text += ", context_length=" + std::to_string(info.context_length);
    return text;
}

std::int64_t suggested_num_heads(std::int64_t d_out, std::int64_t current)
{
    if (d_out < 1)
        return 1;
    if (current >= 1 && d_out % current == 0)
        return current;
    if (d_out == 768)
        return 12;
    std::int64_t best = 1;
    for (std::int64_t h : divisors(d_out))
        if (d_out / h >= 64)
            best = h;
    return best;
}

} // namespace attnlab
