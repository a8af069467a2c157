// The GPT forward in eval mode on one sequence, rows as tokens. Only the attention runs through the
// engine (trace_forward); LayerNorm, GELU and the linear layers are the book's chapter 4 modules,
// written out here once on row-major matrices with the engine's GEMM.
#include "forward/stage_names.h"
#include "gpt/gpt_forward.h"

#include "tensor/eigen_types.h"
#include "tensor/error.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab {

namespace {

using ConstMap = Eigen::Map<const MatrixRM>;

const Tensor& param(const GptModel& m, const std::string& name)
{
    return m.weights.at(name);
}

Eigen::Map<const RowVectorF> row_of(const Tensor& t)
{
    return Eigen::Map<const RowVectorF>(t.data(), t.numel());
}

// The book's LayerNorm: biased variance, then scale and shift.
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

// nn.Linear on rows [first, x.rows()): x W^T (+ b), W stored (out, in).
MatrixRM linear(const MatrixRM& x, const Tensor& w, const Tensor* b, Eigen::Index first = 0)
{
    const std::int64_t rows = x.rows() - first, out_features = w.size(0), in = w.size(1);
    MatrixRM out(rows, out_features);
    gemm(rows, out_features, in, x.data() + first * in, in, w.data(), in, Op::T, out.data(), out_features);
    if (b)
        out.rowwise() += row_of(*b);
    return out;
}

// The book's tanh approximation of GELU (not the exact erf form), which GPT-2 also uses ("gelu_new").
void gelu(MatrixRM& x)
{
    const float c = std::sqrt(2.0f / 3.14159265358979f);
    x = (0.5f * x.array() * (1.0f + (c * (x.array() + 0.044715f * x.array().cube())).tanh())).matrix();
}

Tensor to_tensor(const MatrixRM& x) // (1, T, d)
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

} // namespace

GptForward gpt_forward(const GptModel& m, double eps, const std::vector<std::int64_t>& ids,
                       const GptForwardOptions& options)
{
    check_ids(m, ids);
    for (int layer : options.full_traces)
        check_layer(m, layer);
    if (options.last_layer != -1)
        check_layer(m, options.last_layer);
    const int last = options.last_layer == -1 ? static_cast<int>(m.settings.n_layers) - 1 : options.last_layer;
    const float e = static_cast<float>(eps);
    const Config config = gpt_attention_config(m);
    const auto T = static_cast<Eigen::Index>(ids.size());
    const ConstMap tok(param(m, "tok_emb.weight").data(), m.settings.vocab_size, m.settings.emb_dim);
    const ConstMap pos(param(m, "pos_emb.weight").data(), m.settings.context_length, m.settings.emb_dim);
    MatrixRM x(T, m.settings.emb_dim);
    for (Eigen::Index t = 0; t < T; ++t)
        x.row(t) = tok.row(ids[static_cast<std::size_t>(t)]) + pos.row(t);

    GptForward out;
    for (int layer = 0; layer <= last; ++layer) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        // One TransformerBlock: x + att(norm1(x)), then x + ff(norm2(x)).
        const std::string b = "trf_blocks." + std::to_string(layer) + ".";
        GptLayerRecord record;
        record.x = to_tensor(layer_norm(x, m, b + "norm1", e));
        Trace trace = trace_forward(config, gpt_attention_weights(m, layer), record.x, {.cancel = options.cancel});
        const Stage* weights = trace.find(stage::attn_weights);
        record.attn_weights = weights->view_of.empty() ? weights->tensor : weights->tensor.clone();
        const Tensor attended = trace.output().contiguous();
        x += ConstMap(attended.data(), T, m.settings.emb_dim);
        MatrixRM hidden = linear(layer_norm(x, m, b + "norm2", e), param(m, b + "ff.layers.0.weight"),
                                 &param(m, b + "ff.layers.0.bias"));
        gelu(hidden);
        x += linear(hidden, param(m, b + "ff.layers.2.weight"), &param(m, b + "ff.layers.2.bias"));
        if (std::find(options.full_traces.begin(), options.full_traces.end(), layer) != options.full_traces.end())
            record.trace = std::move(trace);
        out.layers.push_back(std::move(record));
        if (options.progress)
            options.progress(layer + 1);
    }
    if (options.last_layer != -1)
        return out;
    const MatrixRM normed = layer_norm(x, m, "final_norm", e);
    const MatrixRM logits = linear(normed, param(m, "out_head.weight"), nullptr, options.all_logits ? 0 : T - 1);
    out.logits = to_tensor(logits);
    out.next = top_tokens(logits.data() + (logits.rows() - 1) * logits.cols(), m.settings.vocab_size, options.top);
    return out;
}

GptLayerInput gpt_layer_input(const GptModel& model, const std::vector<std::int64_t>& ids, int layer)
{
    GptLayerInput in;
    in.weights = gpt_attention_weights(model, layer); // checks the layer first, -1 included
    in.config = gpt_attention_config(model);
    GptForwardOptions up_to;
    up_to.last_layer = layer;
    in.x = std::move(gpt_forward(model, kBookLayerNormEps, ids, up_to).layers.back().x);
    return in;
}

} // namespace attnlab
