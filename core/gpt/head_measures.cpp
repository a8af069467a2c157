#include "gpt/head_measures.h"

#include "tensor/error.h"

#include <cmath>

namespace attnlab {
namespace {

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
    if (attn_weights.dim() != 4 || attn_weights.size(2) != attn_weights.size(3))
        throw Error("head measures need attention weights shaped (b, num_heads, T, T), not " +
                    shape_to_string(attn_weights.shape()) + ".");
    if (batch < 0 || batch >= attn_weights.size(0))
        throw Error("batch row " + std::to_string(batch) + " does not exist.");
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

} // namespace attnlab
