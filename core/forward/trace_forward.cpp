// Runs the book's modules stage by stage and records each stage as PyTorch would hold it.
#include "forward/attention_kernels.h"
#include "forward/stage_recorder.h"
#include "tensor/tensor_ops.h"
#include "tensor/error.h"
#include "tensor/torch_random.h"
#include "forward/trace.h"

#include <algorithm>
#include <chrono>

namespace attnlab {

namespace {

// Stage boundaries are where a cancel is honoured (StageRecorder::add checks too): the trace under
// construction is local to trace_forward, so throwing here leaves nothing half-recorded behind.
void stop_if_cancelled(const ForwardOptions& options)
{
    if (options.cancel && options.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

// Adds the time until the end of its scope to one PhaseTimes field (nothing when not profiling).
class PhaseTimer {
public:
    explicit PhaseTimer(double* sink) : sink_(sink), start_(std::chrono::steady_clock::now()) {}
    ~PhaseTimer()
    {
        if (sink_)
            *sink_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    double* sink_;
    std::chrono::steady_clock::time_point start_;
};

const Tensor& param(const StateDict& weights, const std::string& name)
{
    auto it = weights.find(name);
    if (it == weights.end())
        throw Error("the weights have no tensor '" + name + "', which this module needs.");
    return it->second;
}

const Tensor* optional_param(const StateDict& weights, const std::string& name, bool wanted)
{
    return wanted ? &param(weights, name) : nullptr;
}

// nn.Dropout in training mode: bernoulli_(1 - p) from the generator, kept values scaled by 1/(1 - p).
Tensor dropout(const Tensor& weights, double p, TorchGenerator& gen)
{
    Tensor out = weights.clone();
    dropout_(out.data(), static_cast<std::size_t>(out.numel()), p, gen);
    return out;
}

// One CausalAttention / SelfAttention head over x; returns the context stage's tensor.
Tensor single_head(StageRecorder& rec, const Config& c, const StateDict& w, const std::string& wp, const Tensor& x,
                   const ForwardOptions& options, TorchGenerator& gen)
{
    const bool batched = c.is_batched();
    Tensor q, k, v;
    if (c.kind == ModuleKind::SelfAttentionV1) {
        q = matmul_right(x, param(w, wp + "W_query"));
        k = matmul_right(x, param(w, wp + "W_key"));
        v = matmul_right(x, param(w, wp + "W_value"));
    } else {
        q = linear(x, param(w, wp + "W_query.weight"), optional_param(w, wp + "W_query.bias", c.qkv_bias));
        k = linear(x, param(w, wp + "W_key.weight"), optional_param(w, wp + "W_key.bias", c.qkv_bias));
        v = linear(x, param(w, wp + "W_value.weight"), optional_param(w, wp + "W_value.bias", c.qkv_bias));
    }
    // Recorded in the book's statement order: keys before queries.
    rec.add(stage::keys, k);
    rec.add(stage::queries, q);
    rec.add(stage::values, v);

    const HeadLayout layout{batched ? x.size(0) : 1, 1, x.size(-2), c.d_out};
    const std::int64_t T = layout.tokens;
    const Shape score_shape = batched ? Shape{layout.batch, T, T} : Shape{T, T};
    const bool causal = c.is_causal(), drop = causal && options.training && c.dropout > 0.0;
    Tensor scores = Tensor::empty(score_shape), attn = Tensor::empty(score_shape), context = Tensor::empty(q.shape());
    Tensor masked = causal ? Tensor::empty(score_shape) : Tensor();
    attention_heads(q.data(), k.data(), v.data(), layout, causal,
                    {scores.data(), causal ? masked.data() : nullptr, attn.data(), drop ? nullptr : context.data()});
    rec.add(stage::attn_scores, scores);
    if (causal)
        rec.add(stage::attn_scores_masked, masked);
    rec.add(stage::attn_weights, attn);
    if (drop) {
        attn = rec.add(stage::attn_weights_dropout, dropout(attn, c.dropout, gen));
        attention_context(attn.data(), v.data(), layout, context.data(), causal);
    }
    return rec.add(stage::context, context);
}

// Section 3.3: attention without trainable weights; the scores are not scaled.
void simple_self_attention(StageRecorder& rec, const Tensor& x)
{
    const Tensor scores = rec.add(stage::attn_scores, ops::matmul(x, x.transpose(0, 1)));
    const Tensor weights = rec.add(stage::attn_weights, ops::softmax(scores, -1));
    rec.add(stage::context, ops::matmul(weights, x));
}

// repeat_interleave(group, dim=1) of a (b, G, T, hd) tensor: a new (b, G*group, T, hd) tensor in which
// head h is a copy of head h / group, as PyTorch's.
Tensor repeat_heads(const Tensor& heads_first, std::int64_t group)
{
    const Tensor src = heads_first.contiguous();
    const std::int64_t b = src.size(0), G = src.size(1), block = src.size(2) * src.size(3);
    Tensor out = Tensor::empty({b, G * group, src.size(2), src.size(3)});
    for (std::int64_t i = 0; i < b; ++i)
        for (std::int64_t h = 0; h < G * group; ++h)
            std::copy_n(src.data() + (i * G + h / group) * block, block, out.data() + (i * G * group + h) * block);
    return out;
}

// MultiHeadAttention, and GroupedQueryAttention: its keys and values have num_kv_groups heads, repeated
// for their groups of query heads before the scores.
void multi_head(StageRecorder& rec, const Config& c, const StateDict& w, const Tensor& x, const ForwardOptions& options,
                TorchGenerator& gen)
{
    const std::int64_t b = x.size(0), T = x.size(1), H = c.num_heads, hd = c.head_dim(), G = c.kv_heads();
    PhaseTimes* prof = options.profile;
    auto sink = [prof](double PhaseTimes::*field) { return prof ? &(prof->*field) : nullptr; };
    Tensor q, k, v;
    {
        PhaseTimer t(sink(&PhaseTimes::projections));
        q = linear(x, param(w, "W_query.weight"), optional_param(w, "W_query.bias", c.qkv_bias));
        stop_if_cancelled(options); // each projection is a large GEMM: a boundary of its own
        k = linear(x, param(w, "W_key.weight"), optional_param(w, "W_key.bias", c.qkv_bias));
        stop_if_cancelled(options);
        v = linear(x, param(w, "W_value.weight"), optional_param(w, "W_value.bias", c.qkv_bias));
    }
    // Recorded in the book's statement order, which is not the same in each group of three.
    const auto projected = [&](const stage::Projection& role) -> const Tensor& {
        return role.computed == stage::keys ? k : role.computed == stage::queries ? q : v;
    };
    for (const auto& role : stage::projected_order)
        rec.add(role.computed, projected(role));
    const auto heads_of = [&](const stage::Projection& role) { return role.computed == stage::queries ? H : G; };
    for (const auto& role : stage::split_order)
        rec.add(role.split, projected(role).view({b, T, heads_of(role), hd}), role.computed);
    for (const auto& role : stage::heads_first_order)
        rec.add(role.heads_first, projected(role).view({b, T, heads_of(role), hd}).transpose(1, 2), role.computed);
    if (c.is_grouped()) { // keys before values, as the module repeats them
        rec.add(stage::keys_repeated, repeat_heads(k.view({b, T, G, hd}).transpose(1, 2), c.group_size()));
        rec.add(stage::values_repeated, repeat_heads(v.view({b, T, G, hd}).transpose(1, 2), c.group_size()));
    }

    const HeadLayout layout{b, H, T, hd, G, c.window_size.value_or(0)};
    Tensor scores = Tensor::empty({b, H, T, T}), masked = Tensor::empty({b, H, T, T}),
           attn = Tensor::empty({b, H, T, T});
    Tensor context = Tensor::empty({b, H, T, hd}), merged = Tensor::empty({b, T, c.d_out}), output;
    const bool drop = options.training && c.dropout > 0.0;
    AttentionTimes core_times;
    // Cancellable runs take one batch element at a time, so a cancel waits for one element's
    // attention core rather than the whole batch's (the kernels themselves run uninterrupted).
    const std::int64_t chunk = options.cancel ? 1 : b, square_size = H * T * T, head_size = H * T * hd;
    for (std::int64_t i = 0; i < b; i += chunk) {
        stop_if_cancelled(options);
        HeadLayout part = layout;
        part.batch = chunk;
        const std::int64_t in = i * layout.batch_stride(), kv_in = i * layout.kv_batch_stride();
        attention_heads(q.data() + in, k.data() + kv_in, v.data() + kv_in, part, true,
                        {scores.data() + i * square_size, masked.data() + i * square_size,
                         attn.data() + i * square_size, drop ? nullptr : context.data() + i * head_size},
                        prof ? &core_times : nullptr);
    }
    if (prof) {
        prof->scores += core_times.scores;
        prof->softmax += core_times.softmax;
        prof->context += core_times.context;
    }
    rec.add(stage::attn_scores, scores);
    rec.add(stage::attn_scores_masked, masked);
    rec.add(stage::attn_weights, attn);
    if (drop) {
        attn = rec.add(stage::attn_weights_dropout, dropout(attn, c.dropout, gen));
        PhaseTimer t(sink(&PhaseTimes::context));
        attention_context(attn.data(), v.data(), layout, context.data(), true);
    }
    {
        PhaseTimer t(sink(&PhaseTimes::merge));
        merge_heads(context.data(), layout, merged.data());
    }
    stop_if_cancelled(options);
    {
        PhaseTimer t(sink(&PhaseTimes::out_proj));
        output = linear(merged, param(w, "out_proj.weight"), &param(w, "out_proj.bias"));
    }
    rec.add(stage::context_heads, context);
    rec.add(stage::context_transposed, context.transpose(1, 2), stage::context_heads);
    rec.add(stage::context_merged, merged);
    rec.add(stage::output, output);
}

void check_input(const Config& c, const Tensor& x)
{
    const std::int64_t want = c.is_batched() ? 3 : 2;
    const std::string form = c.is_batched() ? "(b, num_tokens, d_in)" : "(num_tokens, d_in)";
    if (x.dim() != want)
        throw Error(module_class_name(c.kind) + " takes x of shape " + form + ", but x has shape " +
                    shape_to_string(x.shape()) + ".");
    if (x.size(-1) != c.d_in)
        throw Error("mat1 and mat2 shapes cannot be multiplied: x has " + std::to_string(x.size(-1)) +
                    " features per token, but the call says d_in=" + std::to_string(c.d_in) + ".");
}

} // namespace

const Stage* Trace::find(std::string_view name) const
{
    for (const auto& s : stages)
        if (s.name == name)
            return &s;
    return nullptr;
}

Trace trace_forward(const Config& requested, const StateDict& weights, const Tensor& x, const ForwardOptions& options)
{
    Config config = requested;
    if (config.kind == ModuleKind::SimpleSelfAttention && x.dim() >= 1) // no weights: its width is the input's
        config.d_in = config.d_out = x.size(-1);
    check_input(config, x);
    const InputShape input{config.is_batched() ? x.size(0) : 1, x.size(-2)};
    for (const auto& d : validate(config, input))
        if (d.severity == Severity::Error)
            throw Error(d.message);

    Trace trace;
    trace.config = config;
    // Reserved so the stage list never holds two copies while it grows (the memory estimate counts one).
    trace.stages.reserve(static_cast<std::size_t>(stage_count(config, options.training && config.dropout > 0.0)));
    TorchGenerator fallback(options.dropout_seed);
    TorchGenerator& gen = options.generator ? *options.generator : fallback;
    StageRecorder top(trace.stages, trace.config, config.kind, input, {}, options.cancel);
    top.add(stage::x, x);
    if (config.kind == ModuleKind::SimpleSelfAttention) {
        simple_self_attention(top, x);
    } else if (config.is_integrated()) {
        multi_head(top, config, weights, x, options, gen);
    } else if (config.kind == ModuleKind::MultiHeadAttentionWrapper) {
        Config head = config;
        head.kind = ModuleKind::CausalAttention;
        std::vector<Tensor> contexts;
        for (std::int64_t h = 0; h < config.num_heads; ++h) {
            StageRecorder rec(trace.stages, head, config.kind, input, head_prefix(h), options.cancel);
            // The heads run one after another, so each head's mask continues the same stream.
            contexts.push_back(single_head(rec, head, weights, head_prefix(h), x, options, gen));
        }
        // torch.cat(..., dim=-1): each head's context becomes a column block of the output.
        const std::int64_t rows = input.batch * input.num_tokens, d = config.d_out;
        Tensor out = Tensor::empty({input.batch, input.num_tokens, config.num_heads * d});
        for (std::int64_t h = 0; h < config.num_heads; ++h) {
            MapMatrix dst(out.data() + h * d, rows, d, Eigen::OuterStride<>(config.num_heads * d));
            dst = ConstMapMatrix(contexts[static_cast<std::size_t>(h)].data(), rows, d, Eigen::OuterStride<>(d));
        }
        top.add(stage::output, out);
    } else {
        single_head(top, config, weights, "", x, options, gen);
    }
    return trace;
}

} // namespace attnlab
