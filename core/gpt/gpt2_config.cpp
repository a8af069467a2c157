// config.json beside a checkpoint, read and held against the tensors.
#include "gpt/gpt2_config.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace attnlab {

namespace fs = std::filesystem;

namespace {

using json = nlohmann::json;

// A config.json is a few kilobytes; anything far larger is not one.
constexpr std::uintmax_t kLargestConfig = 1 << 20;

std::string in_quotes(const std::string& path)
{
    return "'" + path + "'";
}

json read_config(const std::string& path)
{
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec || size > kLargestConfig)
        throw Error(in_quotes(path) + (ec ? " cannot be read" : " is larger than a config.json can be (1 MiB)") +
                    "; give the Hugging Face config.json of the checkpoint beside it, or remove it.");
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    json config;
    try {
        config = json::parse(text.str());
    } catch (const json::parse_error& e) {
        throw Error(in_quotes(path) + " does not parse as JSON (at byte " + std::to_string(e.byte) +
                    "); it should be one object such as {\"n_layer\": 12, \"n_head\": 12, \"n_embd\": 768}.");
    }
    if (!config.is_object())
        throw Error(in_quotes(path) + " holds JSON that is not an object; it should be one object such as "
                                      "{\"n_layer\": 12, \"n_head\": 12, \"n_embd\": 768}.");
    return config;
}

// The first of `keys` the config has, as a positive whole number; 0 when it has none of them.
std::int64_t whole(const json& config, const std::string& path, std::initializer_list<const char*> keys,
                   std::string& key_found)
{
    for (const char* key : keys) {
        const auto it = config.find(key);
        if (it == config.end() || it->is_null())
            continue;
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > (1 << 24))
            throw Error(in_quotes(path) + " gives " + key + " as " + printable(it->dump(), 40) +
                        ", where a whole number from 1 to " + std::to_string(1 << 24) + " is needed.");
        key_found = key;
        return it->get<std::int64_t>();
    }
    return 0;
}

void agree(const json& config, const Gpt2Plan& p, std::initializer_list<const char*> keys, std::int64_t from_tensors,
           const std::string& which_tensor)
{
    std::string key;
    const std::int64_t stated = whole(config, p.config_path, keys, key);
    if (stated != 0 && stated != from_tensors)
        throw Error(in_quotes(p.config_path) + " says " + key + "=" + std::to_string(stated) + " but " +
                    in_quotes(p.file) + " has " + std::to_string(from_tensors) + " (" + which_tensor +
                    "); give the config.json that "
                    "came with this checkpoint.");
}

std::int64_t metadata_heads(const SafetensorsFile& file)
{
    for (const char* key : {"n_heads", "n_head"}) {
        const std::string text = file.meta(key);
        std::int64_t value = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (!text.empty() && ec == std::errc() && end == text.data() + text.size() && value >= 1)
            return value;
    }
    return 0;
}

} // namespace

void apply_gpt2_config(Gpt2Plan& p, const SafetensorsFile& file)
{
    GptConfig& s = p.settings;
    const fs::path beside = fs::path(p.file).parent_path() / "config.json";
    std::error_code ec;
    json config = json::object();
    if (fs::is_regular_file(beside, ec)) {
        p.config_path = beside.string();
        config = read_config(p.config_path);
    }
    const bool hf = p.layout == Gpt2Layout::HuggingFace;
    const std::string tok = hf ? "wte" : "tok_emb", pos = hf ? "wpe" : "pos_emb";
    agree(config, p, {"n_embd", "emb_dim"}, s.emb_dim, tok + ".weight's columns");
    agree(config, p, {"vocab_size"}, s.vocab_size, tok + ".weight's rows");
    agree(config, p, {"n_positions", "context_length"}, s.context_length, pos + ".weight's rows");
    agree(config, p, {"n_layer", "n_layers"}, s.n_layers, "its highest block index plus one");
    std::string key;
    if (const std::int64_t heads = whole(config, p.config_path, {"n_head", "n_heads"}, key)) {
        s.n_heads = heads;
        p.heads_from = "config.json";
    } else if (const std::int64_t meta = metadata_heads(file)) {
        s.n_heads = meta;
        p.heads_from = "metadata";
    } else if (s.emb_dim % 64 == 0) {
        s.n_heads = s.emb_dim / 64;
        p.heads_from = "n_embd / 64";
    } else {
        throw Error(in_quotes(p.file) +
                    " does not say how many heads it has (no n_head in a config.json beside it or in "
                    "its metadata) and its n_embd=" +
                    std::to_string(s.emb_dim) +
                    " is not a multiple of GPT-2's "
                    "head size 64; put the checkpoint's config.json beside it.");
    }
    if (s.emb_dim % s.n_heads != 0)
        throw Error((p.heads_from == "config.json" ? in_quotes(p.config_path) : in_quotes(p.file)) + " says n_head=" +
                    std::to_string(s.n_heads) + ", which does not divide n_embd=" + std::to_string(s.emb_dim) +
                    "; every head must be equally wide.");
    if (const auto it = config.find("layer_norm_epsilon"); it != config.end() && !it->is_null()) {
        if (!it->is_number() || !(it->get<double>() > 0) || !(it->get<double>() < 1))
            throw Error(in_quotes(p.config_path) + " gives layer_norm_epsilon as " + it->dump() +
                        ", where a small positive number such as 1e-05 is needed.");
        p.layer_norm_eps = it->get<double>();
    }
    if (const auto it = config.find("qkv_bias");
        !hf && it != config.end() && it->is_boolean() && it->get<bool>() != s.qkv_bias)
        throw Error(in_quotes(p.config_path) + " says qkv_bias=" + (it->get<bool>() ? "true" : "false") + " but " +
                    in_quotes(p.file) + (s.qkv_bias ? " has" : " has no") + " trf_blocks.0.att.W_query.bias.");
}

} // namespace attnlab
