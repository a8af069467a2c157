// The stepped forward: each call runs only the new tokens' rows through every block, appends their keys and
// values to the layer's cache, and lets them attend over the whole cache. Row i of the new tokens sees the cached
// tokens and the new ones up to itself, which is the causal mask of the full forward without building it.
#include "gpt/kv_cache.h"

#include "forward/attention_kernels.h"
#include "forward/experiment.h"
#include "gpt/gpt_blocks.h"
#include "tensor/error.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnlab {

using namespace gpt_blocks;

LayerKvCache::LayerKvCache(std::int64_t n_heads, std::int64_t head_dim, std::int64_t capacity)
    : heads_(n_heads), head_dim_(head_dim), capacity_(capacity),
      keys_(static_cast<std::size_t>(n_heads * capacity * head_dim)),
      values_(static_cast<std::size_t>(n_heads * capacity * head_dim))
{
}

std::uint64_t LayerKvCache::bytes() const
{
    return 2ull * static_cast<std::uint64_t>(heads_ * tokens_ * head_dim_) * sizeof(float);
}

void LayerKvCache::append(const float* keys, const float* values, std::int64_t rows)
{
    if (tokens_ + rows > capacity_)
        throw Error(std::string("the KV cache holds ") + std::to_string(capacity_) + " tokens; " +
                    std::to_string(tokens_ + rows) + " do not fit.");
    const std::int64_t d = heads_ * head_dim_;
    for (std::int64_t h = 0; h < heads_; ++h)
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::int64_t from = r * d + h * head_dim_, to = (h * capacity_ + tokens_ + r) * head_dim_;
            std::copy(keys + from, keys + from + head_dim_, keys_.data() + to);
            std::copy(values + from, values + from + head_dim_, values_.data() + to);
        }
    tokens_ += rows;
}

Tensor LayerKvCache::copy_of(const std::vector<float>& buffer) const
{
    Tensor t = Tensor::empty({heads_, tokens_, head_dim_});
    for (std::int64_t h = 0; h < heads_; ++h)
        std::copy_n(buffer.data() + h * capacity_ * head_dim_, tokens_ * head_dim_, t.data() + h * tokens_ * head_dim_);
    return t;
}

Tensor LayerKvCache::keys() const
{
    return copy_of(keys_);
}

Tensor LayerKvCache::values() const
{
    return copy_of(values_);
}

std::uint64_t kv_cache_bytes(const GptConfig& config, std::int64_t tokens)
{
    return 2ull * static_cast<std::uint64_t>(config.n_layers) * static_cast<std::uint64_t>(tokens) *
           static_cast<std::uint64_t>(config.kv_width()) * sizeof(float); // kv_width: emb_dim unless grouped
}

KvGenerator::KvGenerator(const GptModel& model, double eps, std::int64_t capacity, std::uint64_t budget)
    : model_(model), eps_(static_cast<float>(eps))
{
    const GptConfig& s = model.settings;
    if (capacity < 1 || capacity > s.context_length)
        throw Error(std::string("a KV cache of ") + std::to_string(capacity) + " tokens does not fit " + model.name +
                    ", which takes 1 to " + std::to_string(s.context_length) + " tokens (its " +
                    model.context_length_name + ").");
    if (const std::uint64_t need = kv_cache_bytes(s, capacity); need > budget) {
        const auto [needed, limit] = format_bytes_apart(need, budget);
        throw Error(std::string("the KV cache of ") + model.name + " for " + std::to_string(capacity) +
                    " tokens needs " + needed + ", more than the " + limit + " allowed; ask for fewer tokens.");
    }
    layers_.reserve(static_cast<std::size_t>(s.n_layers));
    for (std::int64_t l = 0; l < s.n_layers; ++l)
        layers_.emplace_back(s.kv_groups(), s.head_dim(), capacity); // one per key/value head, shared when grouped
}

std::uint64_t KvGenerator::bytes() const
{
    std::uint64_t total = 0;
    for (const LayerKvCache& c : layers_)
        total += c.bytes();
    return total;
}

std::vector<float> KvGenerator::prefill(const std::vector<std::int64_t>& ids)
{
    if (tokens() != 0)
        throw Error(std::string("the KV cache already holds ") + std::to_string(tokens()) +
                    " tokens; a prompt goes into an empty one, later tokens one by one.");
    check_ids(model_, ids);
    return run(ids);
}

std::vector<float> KvGenerator::step(std::int64_t next_id)
{
    if (tokens() == 0)
        throw Error("the KV cache is empty; give the prompt first, then one token a step.");
    return run({next_id});
}

std::vector<float> KvGenerator::run(const std::vector<std::int64_t>& ids)
{
    const GptConfig& s = model_.settings;
    const std::int64_t before = tokens(), n = static_cast<std::int64_t>(ids.size());
    const std::int64_t d = s.emb_dim, heads = s.n_heads, hd = s.head_dim(), seen = before + n;
    const std::int64_t group = heads / s.kv_groups(); // query heads per cached key/value head
    if (seen > layers_.front().capacity())
        throw Error(std::string("the KV cache has room for ") + std::to_string(layers_.front().capacity()) +
                    " tokens; " + std::to_string(seen) + " do not fit.");
    for (std::int64_t id : ids)
        if (id < 0 || id >= s.vocab_size)
            throw Error(std::string("token id ") + std::to_string(id) + " is outside " + model_.name +
                        "'s vocabulary of ids 0 to " + std::to_string(s.vocab_size - 1) + ".");
    const ConstMap tok(param(model_, "tok_emb.weight").data(), s.vocab_size, d);
    const ConstMap pos(param(model_, "pos_emb.weight").data(), s.context_length, d);
    MatrixRM x(n, d);
    for (std::int64_t t = 0; t < n; ++t)
        x.row(t) = tok.row(ids[static_cast<std::size_t>(t)]) + pos.row(before + t);

    const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
    MatrixRM scores(n, seen), merged(n, d);
    for (int layer = 0; layer < n_layers(); ++layer) {
        const std::string b = std::string("trf_blocks.") + std::to_string(layer) + ".", att = b + "att.";
        const MatrixRM h = layer_norm(x, model_, b + "norm1", eps_);
        auto project = [&](const char* role) {
            const std::string w = att + role;
            return linear(h, param(model_, w + ".weight"), s.qkv_bias ? &param(model_, w + ".bias") : nullptr);
        };
        const MatrixRM q = project("W_query"), k = project("W_key"), v = project("W_value");
        LayerKvCache& cache = layers_[static_cast<std::size_t>(layer)];
        cache.append(k.data(), v.data(), n);
        for (std::int64_t head = 0; head < heads; ++head) {
            gemm(n, seen, hd, q.data() + head * hd, d, cache.keys_of(head / group), hd, Op::T, scores.data(), seen);
            // The engine's softmax; a row sees the cache and the new tokens up to itself, zeros after, and with a
            // window only its `window` latest tokens, zeros before them too.
            for (std::int64_t i = 0; i < n; ++i) {
                const std::int64_t visible = before + i + 1;
                const std::int64_t first = s.window > 0 ? std::max<std::int64_t>(0, visible - s.window) : 0;
                float* row = scores.data() + i * seen;
                softmax_scaled(row + first, visible - first, scale, row + first);
                std::fill(row, row + first, 0.0f);
                std::fill(row + visible, row + seen, 0.0f);
            }
            gemm(n, hd, seen, scores.data(), seen, cache.values_of(head / group), hd, Op::N, merged.data() + head * hd,
                 d);
        }
        x += linear(merged, param(model_, att + "out_proj.weight"), &param(model_, att + "out_proj.bias"));
        add_feed_forward(x, model_, b, eps_);
    }
    const MatrixRM logits =
        linear(layer_norm(x, model_, "final_norm", eps_), param(model_, "out_head.weight"), nullptr, n - 1);
    return {logits.data(), logits.data() + logits.size()};
}

} // namespace attnlab
