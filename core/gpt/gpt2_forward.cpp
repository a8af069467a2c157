// The GPT forward in eval mode on one sequence, rows as tokens. Only the attention runs through the
// engine (trace_forward); LayerNorm, GELU and the linear layers are the book's chapter 4 modules,
// written out here on row-major matrices with the engine's GEMM.
#include "gpt/gpt2_forward.h"

#include "forward/experiment.h"
#include "forward/experiment_check.h"
#include "tensor/eigen_types.h"
#include "tensor/error.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

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

// The book's tanh approximation of GELU, which GPT-2 also uses ("gelu_new").
void gelu(MatrixRM& x)
{
    const float c = std::sqrt(2.0f / 3.14159265358979f);
    x = (0.5f * x.array() * (1.0f + (c * (x.array() + 0.044715f * x.array().cube())).tanh())).matrix();
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
        throw Error("there are no token ids; give at least one.");
    if (static_cast<std::int64_t>(ids.size()) > m.settings.context_length)
        throw Error("there are " + std::to_string(ids.size()) + " tokens; " + m.name + " takes at most " +
                    std::to_string(m.settings.context_length) + " (its n_positions).");
    for (std::int64_t id : ids)
        if (id < 0 || id >= m.settings.vocab_size)
            throw Error("token id " + std::to_string(id) + " is outside " + m.name + "'s vocabulary of ids 0 to " +
                        std::to_string(m.settings.vocab_size - 1) + ".");
}

void check_layer(const GptModel& m, int layer, const char* what)
{
    if (layer < 0 || layer >= m.settings.n_layers)
        throw Error(std::string(what) + " " + std::to_string(layer) + " does not exist; " + m.name +
                    " has layers 0 to " + std::to_string(m.settings.n_layers - 1) + ".");
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

Gpt2Forward gpt2_forward(const GptModel& m, double eps, const std::vector<std::int64_t>& ids,
                         const Gpt2ForwardOptions& options)
{
    check_ids(m, ids);
    for (int layer : options.full_traces)
        check_layer(m, layer, "layer");
    if (options.last_layer != -1)
        check_layer(m, options.last_layer, "layer");
    const int last = options.last_layer == -1 ? static_cast<int>(m.settings.n_layers) - 1 : options.last_layer;
    const float e = static_cast<float>(eps);
    const Config config = gpt_attention_config(m);
    const auto T = static_cast<Eigen::Index>(ids.size());
    const ConstMap tok(param(m, "tok_emb.weight").data(), m.settings.vocab_size, m.settings.emb_dim);
    const ConstMap pos(param(m, "pos_emb.weight").data(), m.settings.context_length, m.settings.emb_dim);
    MatrixRM x(T, m.settings.emb_dim);
    for (Eigen::Index t = 0; t < T; ++t)
        x.row(t) = tok.row(ids[static_cast<std::size_t>(t)]) + pos.row(t);

    Gpt2Forward out;
    for (int layer = 0; layer <= last; ++layer) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        const std::string b = "trf_blocks." + std::to_string(layer) + ".";
        Gpt2LayerRecord record;
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

std::uint64_t gpt2_forward_bytes(const GptSettings& s, std::int64_t tokens, const Gpt2ForwardOptions& options)
{
    using Real = long double; // absurd requests saturate instead of wrapping around
    const Real T = static_cast<Real>(std::max<std::int64_t>(tokens, 0)), d = static_cast<Real>(s.emb_dim),
               h = static_cast<Real>(s.n_heads), V = static_cast<Real>(s.vocab_size);
    const Config c{ModuleKind::MultiHeadAttention, s.emb_dim, s.emb_dim, s.context_length, 0.0, s.n_heads, true};
    const Real trace = static_cast<Real>(estimate_memory_bytes(c, {1, tokens}));
    const Real layers = options.last_layer == -1 ? static_cast<Real>(s.n_layers) : options.last_layer + 1;
    const Real kept = layers * 4 * (T * d + h * T * T) + static_cast<Real>(options.full_traces.size()) * trace;
    // The residual stream, two normed copies, the MLP's hidden rows, the logits kept and their ordering.
    const Real work = 4 * (4 * T * d + 4 * T * d) + (options.all_logits ? T : 1) * V * 4 + V * 8;
    // Large tensors come in 2 MiB blocks (buffer_pool.h), and the GEMM library packs the MLP's rows into
    // per-thread buffers, as experiment_check.cpp counts them.
    const Real blocks = (2 * layers + 2 * static_cast<Real>(stage_count(c))) * (2 << 20);
    const Real threads = std::max(1u, std::thread::hardware_concurrency());
    const Real gemm = std::min(threads * (32 << 20), 2 * 4 * T * 4 * d);
    const Real total = kept + trace + work + blocks + gemm;
    return total < static_cast<Real>(std::numeric_limits<std::uint64_t>::max())
               ? static_cast<std::uint64_t>(total)
               : std::numeric_limits<std::uint64_t>::max();
}

void check_gpt2_memory(const Gpt2Plan& plan, std::int64_t tokens, const Gpt2ForwardOptions& options,
                       std::uint64_t budget, bool dump)
{
    std::uint64_t run = gpt2_forward_bytes(plan.settings, tokens, options);
    if (dump) { // the writer copies each stage, the largest one twice over at its peak (experiment_check.cpp)
        const GptSettings& s = plan.settings;
        const Config c{ModuleKind::MultiHeadAttention, s.emb_dim, s.emb_dim, s.context_length, 0.0, s.n_heads, true};
        const TraceFootprint f = trace_footprint(c, {1, tokens});
        run += 2 * f.largest_stage + 1280 * f.stage_count + 3 * f.name_bytes;
    }
    const std::uint64_t load = gpt2_load_bytes(plan);
    const std::uint64_t need = load > UINT64_MAX - run ? UINT64_MAX : load + run;
    const std::uint64_t machine = machine_memory_bytes(), limit = std::min(budget, machine);
    if (need > limit)
        throw Error("'" + plan.file + "' on " + std::to_string(tokens) + " tokens needs about " + format_bytes(need) +
                    " (" + format_bytes(plan.weight_bytes) + " of weights as F32, " + format_bytes(run) +
                    " for the forward), more than the " + format_bytes(limit) +
                    (machine < budget ? " this machine has" : " memory budget") +
                    ", so nothing was read; use fewer tokens, a smaller GPT-2 or a larger --max-memory.");
}

} // namespace attnlab
