#include "gpt/head_measures.h"

#include "tensor/error.h"

#include <algorithm>
#include <cmath>

namespace attnlab {
namespace {

void check_weights(const Tensor& attn_weights, std::int64_t batch)
{
    if (attn_weights.dim() != 4 || attn_weights.size(2) != attn_weights.size(3))
        throw Error("head measures need attention weights shaped (b, num_heads, T, T), not " +
                    shape_to_string(attn_weights.shape()) + ".");
    if (batch < 0 || batch >= attn_weights.size(0))
        throw Error("batch row " + std::to_string(batch) + " does not exist.");
}

HeadMeasures measure(const float* w, std::int64_t t)
{
    HeadMeasures m;
    for (std::int64_t i = 1; i < t; ++i) {
        const float* row = w + i * t;
        for (std::int64_t j = 0; j <= i; ++j) {
            m.distance += row[j] * static_cast<double>(i - j);
            if (row[j] > 0)
                m.entropy -= row[j] * std::log(static_cast<double>(row[j]));
        }
        m.previous += row[i - 1];
        m.first += row[0];
    }
    const double n = static_cast<double>(t - 1);
    m.distance /= n;
    m.entropy /= n;
    m.previous /= n;
    m.first /= n;
    return m;
}

} // namespace

std::vector<HeadMeasures> head_measures(const Tensor& attn_weights, std::int64_t batch)
{
    check_weights(attn_weights, batch);
    const std::int64_t heads = attn_weights.size(1), t = attn_weights.size(2);
    std::vector<HeadMeasures> out;
    if (t < 2)
        return out;
    const Tensor w = attn_weights.contiguous();
    for (std::int64_t h = 0; h < heads; ++h)
        out.push_back(measure(w.data() + (batch * heads + h) * t * t, t));
    return out;
}

HeadMeasures uniform_measures(std::int64_t num_tokens)
{
    if (num_tokens < 2)
        return {};
    std::vector<float> w(static_cast<std::size_t>(num_tokens * num_tokens), 0.0f);
    for (std::int64_t i = 0; i < num_tokens; ++i)
        for (std::int64_t j = 0; j <= i; ++j)
            w[static_cast<std::size_t>(i * num_tokens + j)] = 1.0f / static_cast<float>(i + 1);
    return measure(w.data(), num_tokens);
}

std::vector<std::optional<double>> induction_scores(const Tensor& attn_weights, const std::vector<std::int64_t>& ids,
                                                    std::int64_t batch)
{
    check_weights(attn_weights, batch);
    const std::int64_t heads = attn_weights.size(1), t = attn_weights.size(2);
    if (static_cast<std::int64_t>(ids.size()) != t)
        throw Error("the induction score needs one token id per position: " + std::to_string(ids.size()) + " ids for " +
                    std::to_string(t) + " positions.");
    // For each query, the key positions right after an earlier occurrence of its token.
    std::vector<std::vector<std::int64_t>> targets(static_cast<std::size_t>(t));
    std::size_t queries = 0;
    for (std::int64_t i = 1; i < t; ++i) {
        for (std::int64_t j = 0; j < i; ++j)
            if (ids[static_cast<std::size_t>(j)] == ids[static_cast<std::size_t>(i)])
                targets[static_cast<std::size_t>(i)].push_back(j + 1);
        queries += targets[static_cast<std::size_t>(i)].empty() ? 0 : 1;
    }
    std::vector<std::optional<double>> out(static_cast<std::size_t>(heads));
    if (queries == 0)
        return out;
    const Tensor w = attn_weights.contiguous();
    for (std::int64_t h = 0; h < heads; ++h) {
        const float* head = w.data() + (batch * heads + h) * t * t;
        double sum = 0;
        for (std::int64_t i = 1; i < t; ++i)
            for (std::int64_t k : targets[static_cast<std::size_t>(i)])
                sum += head[i * t + k];
        out[static_cast<std::size_t>(h)] = sum / static_cast<double>(queries);
    }
    return out;
}

Tensor attention_thumbnail(const Tensor& attn_weights, std::int64_t batch, std::int64_t head, std::int64_t size)
{
    check_weights(attn_weights, batch);
    if (head < 0 || head >= attn_weights.size(1))
        throw Error("head " + std::to_string(head) + " does not exist.");
    if (size < 1)
        throw Error("a thumbnail needs at least one cell, not " + std::to_string(size) + ".");
    const std::int64_t t = attn_weights.size(2), n = std::min(t, size);
    const Tensor w = attn_weights.contiguous();
    const float* src = w.data() + (batch * attn_weights.size(1) + head) * t * t;
    Tensor out = Tensor::zeros({n, n});
    float* dst = out.data();
    for (std::int64_t i = 0; i < t; ++i) {
        const std::int64_t r = i * n / t;
        for (std::int64_t j = 0; j < t; ++j) {
            float& cell = dst[r * n + j * n / t];
            cell = std::max(cell, src[i * t + j]);
        }
    }
    return out;
}

} // namespace attnlab
