#pragma once
// The KV cache of the book's GPT: every layer keeps the keys and values of every token seen so far, so the next
// token needs only its own query, key and value per layer; it attends over the cache, which holds no later token,
// so the step is causal by construction. Without the cache, every new token reruns gpt_forward over the whole
// sequence. The arithmetic is gpt_forward's, in the same order (gpt_blocks.h, the engine's softmax), so the logits
// agree with it to float rounding.
#include "gpt/gpt_model.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace attnlab {

// One layer's keys and values, each (key/value heads, T, head_dim), head by head. The buffers are sized once for
// `capacity` tokens, so appending a token copies only that token's rows and never moves the earlier ones.
class LayerKvCache {
public:
    LayerKvCache(std::int64_t n_heads, std::int64_t head_dim, std::int64_t capacity);

    std::int64_t tokens() const { return tokens_; }
    std::int64_t capacity() const { return capacity_; }
    std::uint64_t bytes() const; // keys and values of the tokens held, F32
    // `rows` tokens' projections, (rows, n_heads * head_dim) as nn.Linear gives them, split into the heads.
    void append(const float* keys, const float* values, std::int64_t rows);
    // Head h's (tokens(), head_dim) block, rows contiguous.
    const float* keys_of(std::int64_t head) const { return keys_.data() + head * capacity_ * head_dim_; }
    const float* values_of(std::int64_t head) const { return values_.data() + head * capacity_ * head_dim_; }
    Tensor keys() const; // (n_heads, tokens(), head_dim), a copy
    Tensor values() const;

private:
    Tensor copy_of(const std::vector<float>& buffer) const;

    std::int64_t heads_, head_dim_, capacity_, tokens_ = 0;
    std::vector<float> keys_, values_;
};

// Bytes the caches of every layer hold at `tokens` tokens: 2 (keys, values) x n_layers x tokens x kv_width x 4
// (emb_dim, or fewer with grouped keys and values).
std::uint64_t kv_cache_bytes(const GptConfig& config, std::int64_t tokens);

// The model run token by token with a cache per layer. The model must outlive the generator.
class KvGenerator {
public:
    // Room for `capacity` tokens. Throws Error, nothing allocated, when capacity is below 1 or past the model's
    // context_length, or the caches would need more than `budget` bytes.
    KvGenerator(const GptModel& model, double eps, std::int64_t capacity,
                std::uint64_t budget = std::numeric_limits<std::uint64_t>::max());

    // The prompt's tokens all at once into an empty cache; the last token's logits (vocab_size). Throws Error on
    // no ids, an id outside the vocabulary, a cache already filled, or more tokens than the capacity.
    std::vector<float> prefill(const std::vector<std::int64_t>& ids);
    // One more token: its query, key and value per layer, its keys and values appended; its logits.
    std::vector<float> step(std::int64_t next_id);

    std::int64_t tokens() const { return layers_.front().tokens(); }
    std::uint64_t bytes() const; // every layer's keys and values
    const LayerKvCache& layer(int l) const { return layers_.at(static_cast<std::size_t>(l)); }
    int n_layers() const { return static_cast<int>(layers_.size()); }

private:
    std::vector<float> run(const std::vector<std::int64_t>& ids); // rows [tokens(), tokens() + ids.size())

    const GptModel& model_;
    float eps_;
    std::vector<LayerKvCache> layers_;
};

} // namespace attnlab
