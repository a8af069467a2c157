// The chapter 4 modules around the attention, written out once on row-major matrices with the engine's GEMM.
#include "gpt/gpt_blocks.h"

#include "tensor/error.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab::gpt_blocks {

const Tensor& param(const GptModel& m, const std::string& name)
{
    return m.weights.at(name);
}

Eigen::Map<const RowVectorF> row_of(const Tensor& t)
{
    return Eigen::Map<const RowVectorF>(t.data(), t.numel());
}

MatrixRM layer_norm(const MatrixRM& x, const GptModel& m, const std::string& prefix, float eps)
{
    const auto scale = row_of(param(m, prefix + ".scale"));
    const auto shift = row_of(param(m, prefix + ".shift"));
    MatrixRM out(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const float mean = x.row(r).mean();
        const float var = (x.row(r).array() - mean).square().mean();
        out.row(r) = ((x.row(r).array() - mean) / std::sqrt(var + eps)).matrix().cwiseProduct(scale) + shift;
    }
    return out;
}

MatrixRM linear(const MatrixRM& x, const Tensor& w, const Tensor* b, Eigen::Index first)
{
    const std::int64_t rows = x.rows() - first, out_features = w.size(0), in = w.size(1);
    MatrixRM out(rows, out_features);
    gemm(rows, out_features, in, x.data() + first * in, in, w.data(), in, Op::T, out.data(), out_features);
    if (b)
        out.rowwise() += row_of(*b);
    return out;
}

void gelu(MatrixRM& x)
{
    const float c = std::sqrt(2.0f / 3.14159265358979f);
    x = (0.5f * x.array() * (1.0f + (c * (x.array() + 0.044715f * x.array().cube())).tanh())).matrix();
}

void add_feed_forward(MatrixRM& x, const GptModel& m, const std::string& block, float eps)
{
    MatrixRM hidden = linear(layer_norm(x, m, block + "norm2", eps), param(m, block + "ff.layers.0.weight"),
                             &param(m, block + "ff.layers.0.bias"));
    gelu(hidden);
    x += linear(hidden, param(m, block + "ff.layers.2.weight"), &param(m, block + "ff.layers.2.bias"));
}

Tensor to_tensor(const MatrixRM& x)
{
    Tensor t = Tensor::empty({1, x.rows(), x.cols()});
    std::copy(x.data(), x.data() + x.size(), t.data());
    return t;
}

void check_ids(const GptModel& m, const std::vector<std::int64_t>& ids)
{
    if (ids.empty())
        throw Error("there are no tokens (no token ids to run); give at least one.");
    if (static_cast<std::int64_t>(ids.size()) > m.settings.context_length)
        throw Error("there are " + std::to_string(ids.size()) + " tokens; " + m.name + " takes at most " +
                    std::to_string(m.settings.context_length) + " (its " + m.context_length_name + ").");
    for (std::int64_t id : ids)
        if (id < 0 || id >= m.settings.vocab_size)
            throw Error("token id " + std::to_string(id) + " is outside " + m.name + "'s vocabulary of ids 0 to " +
                        std::to_string(m.settings.vocab_size - 1) + ".");
}

void check_layer(const GptModel& m, int layer)
{
    if (layer < 0 || layer >= m.settings.n_layers)
        throw Error("layer " + std::to_string(layer) + " does not exist; " + m.name + " has layers 0 to " +
                    std::to_string(m.settings.n_layers - 1) + ".");
}

std::vector<NextToken> top_tokens(const float* logits, std::int64_t vocab, int top)
{
    const float peak = *std::max_element(logits, logits + vocab);
    double total = 0;
    for (std::int64_t i = 0; i < vocab; ++i)
        total += std::exp(static_cast<double>(logits[i]) - peak);
    std::vector<std::int64_t> order(static_cast<std::size_t>(vocab));
    std::iota(order.begin(), order.end(), 0);
    const auto k = static_cast<std::ptrdiff_t>(std::clamp<std::int64_t>(top, 0, vocab));
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](std::int64_t a, std::int64_t b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    });
    std::vector<NextToken> out;
    for (std::ptrdiff_t i = 0; i < k; ++i) {
        const std::int64_t id = order[static_cast<std::size_t>(i)];
        out.push_back({id, logits[id], std::exp(static_cast<double>(logits[id]) - peak) / total});
    }
    return out;
}

} // namespace attnlab::gpt_blocks
