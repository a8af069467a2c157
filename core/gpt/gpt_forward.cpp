// The chapter 4 GPT forward in eval mode (dropout off), on one sequence: embeddings, pre-LayerNorm
// blocks with residuals, final norm, output head. Rows are tokens; each block's attention runs
// through the engine's trace_forward so there is one implementation of MultiHeadAttention.
#include "gpt/gpt_model.h"

#include "forward/trace.h"
#include "tensor/eigen_types.h"
#include "tensor/error.h"

#include <cmath>

namespace attnlab {
namespace {

using ConstMap = Eigen::Map<const MatrixRM>;

ConstMap as_matrix(const Tensor& t)
{
    return ConstMap(t.data(), t.size(0), t.numel() / t.size(0));
}
Eigen::Map<const RowVectorF> as_row(const Tensor& t)
{
    return Eigen::Map<const RowVectorF>(t.data(), t.numel());
}

const Tensor& param(const GptModel& m, const std::string& name)
{
    return m.weights.at(name);
}

// The book's LayerNorm: biased variance, eps 1e-5, then scale and shift.
MatrixRM layer_norm(const MatrixRM& x, const GptModel& m, const std::string& prefix)
{
    const auto scale = as_row(param(m, prefix + ".scale"));
    const auto shift = as_row(param(m, prefix + ".shift"));
    MatrixRM out(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const float mean = x.row(r).mean();
        const float var = (x.row(r).array() - mean).square().mean();
        out.row(r) = ((x.row(r).array() - mean) / std::sqrt(var + 1e-5f)).matrix();
        out.row(r) = out.row(r).cwiseProduct(scale) + shift;
    }
    return out;
}

// nn.Linear: x W^T + b.
MatrixRM linear(const MatrixRM& x, const GptModel& m, const std::string& prefix, bool bias)
{
    MatrixRM out = x * as_matrix(param(m, prefix + ".weight")).transpose();
    if (bias)
        out.rowwise() += as_row(param(m, prefix + ".bias"));
    return out;
}

// The book's tanh approximation of GELU (not the exact erf form).
MatrixRM gelu(const MatrixRM& x)
{
    const float c = std::sqrt(2.0f / 3.14159265358979f);
    return (0.5f * x.array() * (1.0f + (c * (x.array() + 0.044715f * x.array().cube())).tanh())).matrix();
}

Tensor to_tensor(const MatrixRM& x) // (1, T, d)
{
    return Tensor::from_values({1, x.rows(), x.cols()}, std::vector<float>(x.data(), x.data() + x.size()));
}

MatrixRM attention(const GptModel& m, int layer, const MatrixRM& normed)
{
    const Trace trace = trace_forward(gpt_attention_config(m), gpt_attention_weights(m, layer), to_tensor(normed));
    const Tensor out = trace.output().contiguous();
    return ConstMap(out.data(), normed.rows(), normed.cols());
}

void check_ids(const GptModel& m, const std::vector<std::int64_t>& ids)
{
    if (ids.empty())
        throw Error("the text has no tokens; type at least one word.");
    if (static_cast<std::int64_t>(ids.size()) > m.settings.context_length)
        throw Error("the text has " + std::to_string(ids.size()) + " tokens; " + m.name + " takes at most " +
                    std::to_string(m.settings.context_length) + " (its context_length).");
    for (std::int64_t id : ids)
        if (id < 0 || id >= m.settings.vocab_size)
            throw Error("token id " + std::to_string(id) + " is outside " + m.name + "'s vocabulary of " +
                        std::to_string(m.settings.vocab_size) + ".");
}

MatrixRM embed(const GptModel& m, const std::vector<std::int64_t>& ids)
{
    const auto tok = as_matrix(param(m, "tok_emb.weight"));
    const auto pos = as_matrix(param(m, "pos_emb.weight"));
    MatrixRM x(static_cast<Eigen::Index>(ids.size()), m.settings.emb_dim);
    for (std::size_t t = 0; t < ids.size(); ++t)
        x.row(static_cast<Eigen::Index>(t)) = tok.row(ids[t]) + pos.row(static_cast<Eigen::Index>(t));
    return x;
}

// One TransformerBlock: x + att(norm1(x)), then x + ff(norm2(x)).
MatrixRM block(const GptModel& m, int layer, MatrixRM x)
{
    const std::string b = "trf_blocks." + std::to_string(layer) + ".";
    x += attention(m, layer, layer_norm(x, m, b + "norm1"));
    const MatrixRM hidden = gelu(linear(layer_norm(x, m, b + "norm2"), m, b + "ff.layers.0", true));
    x += linear(hidden, m, b + "ff.layers.2", true);
    return x;
}

} // namespace

GptLayerInput gpt_layer_input(const GptModel& model, const std::vector<std::int64_t>& ids, int layer)
{
    GptLayerInput out;
    out.weights = gpt_attention_weights(model, layer); // checks the layer first
    out.config = gpt_attention_config(model);
    check_ids(model, ids);
    MatrixRM x = embed(model, ids);
    for (int i = 0; i < layer; ++i)
        x = block(model, i, std::move(x));
    out.x = to_tensor(layer_norm(x, model, "trf_blocks." + std::to_string(layer) + ".norm1"));
    return out;
}

Tensor gpt_logits(const GptModel& model, const std::vector<std::int64_t>& ids)
{
    check_ids(model, ids);
    MatrixRM x = embed(model, ids);
    for (int i = 0; i < model.settings.n_layers; ++i)
        x = block(model, i, std::move(x));
    const MatrixRM logits = linear(layer_norm(x, model, "final_norm"), model, "out_head", false);
    return to_tensor(logits);
}

} // namespace attnlab
