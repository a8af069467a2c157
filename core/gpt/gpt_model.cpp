#include "gpt/gpt_model.h"

#include "gpt/gpt_metadata.h"
#include "io/finite_check.h"
#include "io/safetensors.h"
#include "tensor/error.h"
#include "text/utf8.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>

namespace attnlab {
namespace {

std::int64_t setting(const SafetensorsFile& file, const std::string& who, const std::string& key)
{
    const std::string text = file.meta(key);
    std::int64_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || value < 1 || value > (1 << 20))
        throw Error(who + " has no usable '" + key + "' in its metadata ('" + printable(text, 40) +
                    "'); a trained GPT file states it as a whole number from 1 to " + std::to_string(1 << 20) + ".");
    return value;
}

// Every parameter the book's GPTModel registers (the causal masks are buffers, not stored).
std::vector<std::pair<std::string, Shape>> expected_tensors(const GptConfig& s)
{
    const std::int64_t d = s.emb_dim;
    const auto rows = [&](const char* role) { return std::string(role) == "W_query" ? d : s.kv_width(); };
    std::vector<std::pair<std::string, Shape>> out = {{"tok_emb.weight", {s.vocab_size, d}},
                                                      {"pos_emb.weight", {s.context_length, d}}};
    for (std::int64_t i = 0; i < s.n_layers; ++i) {
        const std::string b = "trf_blocks." + std::to_string(i) + ".";
        for (const char* role : {"W_query", "W_key", "W_value"}) {
            out.push_back({b + "att." + role + ".weight", {rows(role), d}});
            if (s.qkv_bias)
                out.push_back({b + "att." + role + ".bias", {rows(role)}});
        }
        out.push_back({b + "att.out_proj.weight", {d, d}});
        out.push_back({b + "att.out_proj.bias", {d}});
        out.push_back({b + "ff.layers.0.weight", {4 * d, d}});
        out.push_back({b + "ff.layers.0.bias", {4 * d}});
        out.push_back({b + "ff.layers.2.weight", {d, 4 * d}});
        out.push_back({b + "ff.layers.2.bias", {d}});
        for (const char* norm : {"norm1", "norm2"}) {
            out.push_back({b + norm + ".scale", {d}});
            out.push_back({b + norm + ".shift", {d}});
        }
    }
    out.push_back({"final_norm.scale", {d}});
    out.push_back({"final_norm.shift", {d}});
    out.push_back({"out_head.weight", {s.vocab_size, d}});
    return out;
}

} // namespace

std::string GptModel::meta(const std::string& key, const std::string& fallback) const
{
    auto it = metadata.find(key);
    return it == metadata.end() ? fallback : it->second;
}

double GptModel::meta_number(const std::string& key, double fallback) const
{
    const std::string text = meta(key);
    if (text.empty())
        return fallback;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() ? value : fallback;
}

namespace {

// A trained GPT from a checked safetensors file, wherever its bytes came from.
GptModel model_from(const SafetensorsFile& file, const std::string& path, const std::string& who,
                    const std::string& name)
{
    if (file.meta("format") != "attention-lab-gpt")
        throw Error(who + " is not a trained GPT file: its metadata 'format' is '" + file.meta("format") +
                    "', not 'attention-lab-gpt' (see resources/models).");
    check_trained_gpt_metadata(file, who);
    GptModel model;
    model.path = path;
    model.name = name;
    for (const auto& [key, value] : file.metadata)
        model.metadata[key] = value;
    GptConfig& s = model.settings;
    s.vocab_size = setting(file, who, "vocab_size");
    s.emb_dim = setting(file, who, "emb_dim");
    s.n_layers = setting(file, who, "n_layers");
    s.n_heads = setting(file, who, "n_heads");
    s.context_length = setting(file, who, "context_length");
    s.qkv_bias = file.meta("qkv_bias") == "true";
    if (s.emb_dim % s.n_heads != 0)
        throw Error(who + " says emb_dim " + std::to_string(s.emb_dim) + " with " + std::to_string(s.n_heads) +
                    " heads, which do not split it evenly.");
    // Files from before grouped keys and values, and MultiHeadAttention models, do not name it.
    if (!file.meta("n_kv_groups").empty()) {
        s.n_kv_groups = setting(file, who, "n_kv_groups");
        if (s.n_heads % s.n_kv_groups != 0)
            throw Error(who + " says " + std::to_string(s.n_heads) + " heads in " + std::to_string(s.n_kv_groups) +
                        " key/value groups, which do not split them evenly.");
    }
    // Only a model trained with a sliding window names it.
    if (!file.meta("window_size").empty()) {
        s.window = setting(file, who, "window_size");
        if (s.window > s.context_length)
            throw Error(who + " says window_size " + std::to_string(s.window) + ", wider than its context_length " +
                        std::to_string(s.context_length) + "; a window is 1 to context_length tokens.");
    }
    for (const auto& [name, shape] : expected_tensors(s)) {
        const SafetensorsEntry* t = file.entry(name);
        if (!t)
            throw Error(who + " has no tensor '" + name + "', which the book's GPTModel needs.");
        if (t->shape != shape)
            throw Error(who + ": '" + name + "' has shape " + shape_to_string(t->shape) + " where the settings give " +
                        shape_to_string(shape) + ".");
    }
    for (const auto& [name, shape] : expected_tensors(s)) // every shape checked before any data is read
        model.weights[name] = file.take(name);
    require_finite(who, model.weights);
    return model;
}

} // namespace

GptModel load_gpt_model(const std::string& path)
{
    // open_safetensors reads the header; the model's tensors are read one by one once every shape is checked.
    return model_from(open_safetensors(path), path, std::filesystem::path(path).filename().string(),
                      std::filesystem::path(path).stem().string());
}

GptModel parse_gpt_model(const std::string& bytes, const std::string& who, const SafetensorsOptions& options)
{
    return model_from(parse_safetensors(bytes, who, options), std::string(), who,
                      std::filesystem::path(who).stem().string());
}

Config gpt_attention_config(const GptConfig& s)
{
    Config c;
    c.kind = s.grouped_query_module() ? ModuleKind::GroupedQueryAttention : ModuleKind::MultiHeadAttention;
    c.num_kv_groups = s.kv_groups();
    if (s.window > 0)
        c.window_size = s.window;
    c.d_in = c.d_out = s.emb_dim;
    c.context_length = s.context_length;
    c.dropout = 0.0; // eval mode: the book's model.eval() turns dropout off
    c.num_heads = s.n_heads;
    c.qkv_bias = s.qkv_bias;
    return c;
}

Config gpt_attention_config(const GptModel& model)
{
    return gpt_attention_config(model.settings);
}

StateDict gpt_attention_weights(const GptModel& model, int layer)
{
    if (layer < 0 || layer >= model.settings.n_layers)
        throw Error("layer " + std::to_string(layer) + " does not exist; " + model.name + " has layers 0 to " +
                    std::to_string(model.settings.n_layers - 1) + ".");
    const std::string prefix = "trf_blocks." + std::to_string(layer) + ".att.";
    StateDict out;
    for (const auto& [name, tensor] : model.weights)
        if (name.rfind(prefix, 0) == 0)
            out[name.substr(prefix.size())] = tensor;
    return out;
}

} // namespace attnlab
