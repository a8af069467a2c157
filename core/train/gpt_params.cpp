#include "train/gpt_params.h"

#include "tensor/error.h"
#include "train/torch_normal.h"

#include <algorithm>
#include <string>

namespace attnlab {

std::string divisor_list(std::int64_t n)
{
    std::string out;
    for (std::int64_t k = 1; k <= n; ++k)
        if (n % k == 0)
            out += (out.empty() ? "" : ", ") + std::to_string(k);
    return out;
}

void check_gpt_config(const GptConfig& s)
{
    const auto positive = [](std::int64_t v, const char* name) {
        if (v < 1)
            throw Error(std::string(name) + " is " + std::to_string(v) + "; it has to be at least 1.");
    };
    positive(s.vocab_size, "vocab_size");
    positive(s.context_length, "context_length");
    positive(s.emb_dim, "emb_dim");
    positive(s.n_layers, "n_layers");
    positive(s.n_heads, "n_heads");
    if (s.emb_dim % s.n_heads != 0)
        throw Error("emb_dim (d_out) " + std::to_string(s.emb_dim) + " is not divisible by num_heads " +
                    std::to_string(s.n_heads) + "; pick a num_heads that divides it.");
    if (s.n_kv_groups < 0 || s.n_heads % s.kv_groups() != 0)
        throw Error("num_heads " + std::to_string(s.n_heads) + " is not divisible by num_kv_groups " +
                    std::to_string(s.n_kv_groups) + "; pick num_kv_groups from " + divisor_list(s.n_heads) + ".");
    if (s.window < 0 || s.window > s.context_length)
        throw Error("window_size " + std::to_string(s.window) + " is outside 1 to context_length " +
                    std::to_string(s.context_length) + "; a sliding window sees 1 to context_length tokens.");
    if (!(s.drop_rate >= 0.0 && s.drop_rate < 1.0))
        throw Error("drop_rate has to be at least 0 and below 1.");
}

const ParamEntry* GptLayout::find(const std::string& name) const
{
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const ParamEntry& e) { return e.name == name; });
    return it == entries.end() ? nullptr : &*it;
}

GptLayout gpt_layout(const GptConfig& shape)
{
    check_gpt_config(shape);
    GptLayout layout;
    layout.shape = shape;
    const std::int64_t d = shape.emb_dim, v = shape.vocab_size, kv = shape.kv_width();
    const auto add = [&](std::string name, std::vector<std::int64_t> dims) {
        std::size_t n = 1;
        for (std::int64_t x : dims)
            n *= static_cast<std::size_t>(x);
        layout.entries.push_back({std::move(name), std::move(dims), layout.total, n});
        layout.total += n;
        return layout.entries.back().offset;
    };
    layout.tok_emb = add("tok_emb.weight", {v, d});
    layout.pos_emb = add("pos_emb.weight", {shape.context_length, d});
    for (std::int64_t l = 0; l < shape.n_layers; ++l) {
        const std::string p = "trf_blocks." + std::to_string(l) + ".";
        BlockParams b{};
        // GroupedQueryAttention narrows W_key and W_value to kv_width rows; MultiHeadAttention's are d.
        const auto projection = [&](const char* name, std::int64_t rows, std::size_t& w, std::size_t& bias) {
            w = add(p + "att." + name + ".weight", {rows, d});
            if (shape.qkv_bias)
                bias = add(p + "att." + name + ".bias", {rows});
        };
        projection("W_query", d, b.wq, b.bq);
        projection("W_key", kv, b.wk, b.bk);
        projection("W_value", kv, b.wv, b.bv);
        b.wo = add(p + "att.out_proj.weight", {d, d});
        b.bo = add(p + "att.out_proj.bias", {d});
        b.ff1_w = add(p + "ff.layers.0.weight", {4 * d, d});
        b.ff1_b = add(p + "ff.layers.0.bias", {4 * d});
        b.ff2_w = add(p + "ff.layers.2.weight", {d, 4 * d});
        b.ff2_b = add(p + "ff.layers.2.bias", {d});
        b.norm1_scale = add(p + "norm1.scale", {d});
        b.norm1_shift = add(p + "norm1.shift", {d});
        b.norm2_scale = add(p + "norm2.scale", {d});
        b.norm2_shift = add(p + "norm2.shift", {d});
        layout.blocks.push_back(b);
    }
    layout.final_scale = add("final_norm.scale", {d});
    layout.final_shift = add("final_norm.shift", {d});
    layout.out_head = add("out_head.weight", {v, d});
    return layout;
}

std::vector<float> init_gpt_params(const GptLayout& layout, TorchGenerator& gen)
{
    const GptConfig& s = layout.shape;
    const std::size_t d = static_cast<std::size_t>(s.emb_dim), kv = static_cast<std::size_t>(s.kv_width());
    std::vector<float> p(layout.total, 0.0f);
    NormalCache cache; // manual_seed clears the generator's cached normal
    normal_(p.data() + layout.tok_emb, static_cast<std::size_t>(s.vocab_size) * d, 0.0, 1.0, gen, cache);
    normal_(p.data() + layout.pos_emb, static_cast<std::size_t>(s.context_length) * d, 0.0, 1.0, gen, cache);
    const auto linear = [&](std::size_t w, std::size_t bias, std::size_t out, std::size_t in, bool has_bias) {
        kaiming_uniform_linear(p.data() + w, out * in, static_cast<std::int64_t>(in), gen);
        if (has_bias)
            linear_bias_uniform(p.data() + bias, out, static_cast<std::int64_t>(in), gen);
    };
    for (const BlockParams& b : layout.blocks) {
        linear(b.wq, b.bq, d, d, s.qkv_bias);
        linear(b.wk, b.bk, kv, d, s.qkv_bias); // GroupedQueryAttention's order: W_query, W_key, W_value
        linear(b.wv, b.bv, kv, d, s.qkv_bias);
        linear(b.wo, b.bo, d, d, true);
        linear(b.ff1_w, b.ff1_b, 4 * d, d, true);
        linear(b.ff2_w, b.ff2_b, d, 4 * d, true);
        std::fill_n(p.data() + b.norm1_scale, d, 1.0f);
        std::fill_n(p.data() + b.norm2_scale, d, 1.0f);
    }
    std::fill_n(p.data() + layout.final_scale, d, 1.0f);
    kaiming_uniform_linear(p.data() + layout.out_head, static_cast<std::size_t>(s.vocab_size) * d, s.emb_dim, gen);
    return p;
}

} // namespace attnlab
