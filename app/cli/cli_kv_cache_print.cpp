// `kv-cache`'s answer: the cache of one shape and a row for every number of key/value heads that divides
// its query heads, or one line per published config; as text or as JSON with the same numbers.
#include "cli/cli_json.h"
#include "cli/cli_kv_cache.h"

#include "designs/published_configs.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

// Decimal gigabytes (1e9 bytes, as memory is sold) and binary gibibytes (2^30, as tools report it).
double gb(std::int64_t bytes)
{
    return static_cast<double>(bytes) / 1e9;
}

double gib(std::int64_t bytes)
{
    return static_cast<double>(bytes) / 1073741824.0;
}

std::string fixed2(double v)
{
    std::ostringstream out;
    out << std::fixed << std::setprecision(2) << v;
    return out.str();
}

json sizes_json(std::int64_t bytes)
{
    return {{"bytes", bytes}, {"gb", gb(bytes)}, {"gib", gib(bytes)}};
}

json shape_json(const AttentionShape& s)
{
    return {{"name", s.name},
            {"layers", s.layers},
            {"d_model", s.d_model},
            {"num_heads", s.num_heads},
            {"num_kv_heads", s.num_kv_heads},
            {"head_dim", s.head_dim},
            {"context_length", s.context_length},
            {"sliding_window", s.sliding_window ? json(*s.sliding_window) : json(nullptr)},
            {"qkv_bias", s.qkv_bias},
            {"has_out_proj", s.has_out_proj},
            {"out_bias", s.out_bias},
            {"source", s.source}};
}

// The config's own count, and the one --kv-heads asked for when it differs.
std::string mark(const KvRequest& q, const KvHeadsRow& r)
{
    if (r.kv_heads == q.config_kv_heads)
        return "  <- the config's";
    return r.is_config ? "  <- asked (--kv-heads)" : "";
}

json row_json(const KvRequest& q, const KvHeadsRow& r)
{
    return {{"kv_heads", r.kv_heads},
            {"group_size", r.group_size},
            {"kind", kv_kind(q.shape.num_heads, r.kv_heads)},
            {"is_config", r.kv_heads == q.config_kv_heads},
            {"is_asked", r.is_config},
            {"bytes_per_token", r.bytes_per_token},
            {"cache", sizes_json(r.bytes)},
            {"attention_parameters_per_layer", r.parameters_per_layer},
            {"multiply_adds_per_token_per_layer",
             {{"projections", r.cost.projections},
              {"scores", r.cost.scores},
              {"context", r.cost.context},
              {"out_proj", r.cost.out_proj},
              {"total", r.cost.total()}}}};
}

void print_text(const KvRequest& q, const std::vector<KvHeadsRow>& rows)
{
    const AttentionShape& s = q.shape;
    const std::int64_t cached = cached_tokens(s, q.tokens);
    const std::int64_t per_token = kv_bytes_per_token(s, q.dtype);
    const std::int64_t bytes = kv_cache_bytes(s, q.dtype, q.batch, q.tokens);
    std::cout << s.name << ": " << s.layers << " layers, d_model " << s.d_model << ", " << s.num_heads
              << " query heads of head_dim " << s.head_dim << ", " << s.num_kv_heads << " key/value heads ("
              << kv_kind(s.num_heads, s.num_kv_heads) << ", " << s.num_heads / s.num_kv_heads
              << (s.num_heads == s.num_kv_heads ? " query head" : " query heads") << " per key/value head)\n"
              << "source: " << s.source << "\n"
              << dtype_name(q.dtype) << " (" << dtype_bytes(q.dtype) << " bytes a value), batch " << q.batch << ", "
              << q.tokens << " tokens" << (q.tokens > s.context_length ? " (beyond its context_length)" : "") << "\n";
    if (cached < q.tokens)
        std::cout << "sliding window " << *s.sliding_window << ": the cache holds only the last " << cached
                  << " of the " << q.tokens << " tokens\n";
    std::cout << "\nKV cache: " << per_token << " bytes per token (" << s.layers << " layers x 2 (K and V) x "
              << s.num_kv_heads << " key/value heads x head_dim " << s.head_dim << " x " << dtype_bytes(q.dtype)
              << " bytes)\n"
              << "          " << bytes << " bytes for " << q.batch << " x " << cached
              << " tokens = " << fixed2(gb(bytes)) << " GB = " << fixed2(gib(bytes)) << " GiB\n\n";
    std::cout << std::right << std::setw(8) << "kv_heads" << std::setw(7) << "group" << std::setw(6) << "kind"
              << std::setw(14) << "bytes/token" << std::setw(20) << "cache bytes" << std::setw(10) << "GB"
              << std::setw(10) << "GiB" << std::setw(16) << "params/layer" << std::setw(18) << "MACs/token/layer"
              << "\n";
    for (const KvHeadsRow& r : rows)
        std::cout << std::setw(8) << r.kv_heads << std::setw(7) << r.group_size << std::setw(6)
                  << kv_kind(s.num_heads, r.kv_heads) << std::setw(14) << r.bytes_per_token << std::setw(20) << r.bytes
                  << std::setw(10) << fixed2(gb(r.bytes)) << std::setw(10) << fixed2(gib(r.bytes)) << std::setw(16)
                  << r.parameters_per_layer << std::setw(18) << r.cost.total() << mark(q, r) << "\n";
    std::cout << "\nGB = 1e9 bytes, GiB = 2^30. Parameters and multiply-adds are one layer's attention; the "
                 "multiply-adds are for the last token, which attends to "
              << cached
              << " cached tokens (projections, scores, weighted sum, out_proj). Sharing key/value heads "
                 "shrinks the cache and the K and V projections, not the scores.\n";
}

} // namespace

void print_kv_cache(const KvRequest& q, bool as_json)
{
    const std::vector<KvHeadsRow> rows = kv_heads_rows(q.shape, q.dtype, q.batch, q.tokens);
    if (!as_json) {
        print_text(q, rows);
        return;
    }
    json out_rows = json::array();
    for (const KvHeadsRow& r : rows)
        out_rows.push_back(row_json(q, r));
    const std::int64_t bytes = kv_cache_bytes(q.shape, q.dtype, q.batch, q.tokens);
    std::cout << json_text(json{{"from", q.origin},
                                {"config", shape_json(q.shape)},
                                {"config_kv_heads", q.config_kv_heads},
                                {"dtype", dtype_name(q.dtype)},
                                {"bytes_per_value", dtype_bytes(q.dtype)},
                                {"batch", q.batch},
                                {"tokens", q.tokens},
                                {"cached_tokens", cached_tokens(q.shape, q.tokens)},
                                {"bytes_per_token", kv_bytes_per_token(q.shape, q.dtype)},
                                {"cache", sizes_json(bytes)},
                                {"rows", out_rows}})
              << "\n";
}

void print_kv_presets(KvDtype dtype, std::int64_t batch, std::int64_t tokens, bool as_json)
{
    for (const AttentionShape& s : published_configs()) // every count is checked before a line is printed
        kv_cache_bytes(s, dtype, batch, tokens > 0 ? tokens : s.context_length);
    json configs = json::array();
    if (!as_json)
        std::cout << "Published configs, " << dtype_name(dtype) << ", batch " << batch << ", "
                  << (tokens > 0 ? std::to_string(tokens) + " tokens" : std::string("each at its context_length"))
                  << "\n\n"
                  << std::left << std::setw(17) << "name" << std::right << std::setw(7) << "layers" << std::setw(8)
                  << "d_model" << std::setw(6) << "heads" << std::setw(9) << "kv_heads" << std::setw(9) << "head_dim"
                  << std::setw(9) << "context" << std::setw(8) << "window" << std::setw(13) << "bytes/token"
                  << std::setw(14) << "cache bytes" << std::setw(9) << "GB" << std::setw(9) << "GiB\n";
    for (const AttentionShape& s : published_configs()) {
        const std::int64_t t = tokens > 0 ? tokens : s.context_length;
        const std::int64_t bytes = kv_cache_bytes(s, dtype, batch, t);
        json row = shape_json(s);
        row["tokens"] = t;
        row["cached_tokens"] = cached_tokens(s, t);
        row["bytes_per_token"] = kv_bytes_per_token(s, dtype);
        row["cache"] = sizes_json(bytes);
        configs.push_back(row);
        if (!as_json)
            std::cout << std::left << std::setw(17) << s.name << std::right << std::setw(7) << s.layers << std::setw(8)
                      << s.d_model << std::setw(6) << s.num_heads << std::setw(9) << s.num_kv_heads << std::setw(9)
                      << s.head_dim << std::setw(9) << t << std::setw(8)
                      << (s.sliding_window ? std::to_string(*s.sliding_window) : std::string("-")) << std::setw(13)
                      << kv_bytes_per_token(s, dtype) << std::setw(14) << bytes << std::setw(9) << fixed2(gb(bytes))
                      << std::setw(9) << fixed2(gib(bytes)) << "\n";
    }
    if (as_json) {
        std::cout << json_text(json{{"dtype", dtype_name(dtype)},
                                    {"bytes_per_value", dtype_bytes(dtype)},
                                    {"batch", batch},
                                    {"configs", configs}})
                  << "\n";
        return;
    }
    std::cout << "\nkv-cache --preset NAME shows one config against every number of key/value heads; each config's "
                 "source is in --json.\n";
}

} // namespace cli
