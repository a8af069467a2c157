#include "train/head_report.h"

#include "train/parallel.h"

#include "gpt/head_measures.h"
#include "tensor/error.h"
#include "train/gpt_net.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>

namespace attnlab::train {

namespace {

// Sums over query positions, so that chunks of sequences add up before the means are taken.
struct ShareSums {
    double previous = 0.0, first = 0.0, self = 0.0, entropy = 0.0, induction = 0.0;
    std::size_t positions = 0, induction_positions = 0;
};

void accumulate(std::vector<ShareSums>& sums, const float* weights, const std::int64_t* ids, std::size_t batch,
                std::size_t heads, std::size_t tokens)
{
    if (tokens < 2)
        return; // no query position has a choice
    const std::size_t T = tokens, per_row = heads * T * T;
    const auto n = [](std::size_t v) { return static_cast<std::int64_t>(v); };
    for (std::size_t b = 0; b < batch; ++b) {
        const float* rows = weights + b * per_row;
        const Tensor one = Tensor::from_values({1, n(heads), n(T), n(T)}, std::vector<float>(rows, rows + per_row));
        const std::vector<HeadMeasures> measured = head_measures(one);
        const std::int64_t* x = ids + b * T;
        const double queries = static_cast<double>(T - 1);
        for (std::size_t h = 0; h < heads; ++h) {
            ShareSums& s = sums[h];
            s.previous += measured[h].previous * queries;
            s.first += measured[h].first * queries;
            s.entropy += measured[h].entropy * queries;
            s.positions += T - 1;
            const float* w = rows + h * T * T;
            for (std::size_t t = 1; t < T; ++t) {
                const float* row = w + t * T;
                s.self += row[t];
                double share = 0.0;
                bool any = false;
                for (std::size_t j = 1; j < t; ++j)
                    if (x[j - 1] == x[t]) {
                        share += row[j];
                        any = true;
                    }
                if (any) {
                    s.induction += share;
                    ++s.induction_positions;
                }
            }
        }
    }
}

HeadShares mean(const ShareSums& s)
{
    HeadShares m;
    m.positions = s.positions;
    m.induction_positions = s.induction_positions;
    if (s.positions) {
        const double n = static_cast<double>(s.positions);
        m.previous = s.previous / n;
        m.first = s.first / n;
        m.self = s.self / n;
        m.entropy = s.entropy / n;
    }
    if (s.induction_positions)
        m.induction = s.induction / static_cast<double>(s.induction_positions);
    return m;
}

// Per layer, per head: the sums over every held-out sequence, in evaluate()'s chunks.
std::vector<std::vector<ShareSums>> measure(GptNet& net, const std::vector<float>& params, const Batch& held,
                                            std::size_t chunk)
{
    const GptLayout& layout = net.layout();
    const std::size_t layers = layout.blocks.size(), heads = static_cast<std::size_t>(layout.shape.n_heads);
    std::vector<std::vector<ShareSums>> sums(layers, std::vector<ShareSums>(heads));
    for (std::size_t b = 0; b < held.batch; b += chunk) {
        const std::size_t n = std::min(chunk, held.batch - b);
        const std::int64_t* ids = held.ids.data() + b * held.tokens;
        net.forward(params, ids, held.targets.data() + b * held.tokens, n, held.tokens, nullptr, Rows::scored);
        for (std::size_t l = 0; l < layers; ++l)
            accumulate(sums[l], net.attention_weights(l).data(), ids, n, heads, held.tokens);
    }
    return sums;
}

// Zeroes head h's inputs to block l's out_proj in `params`: out_proj.weight is (d_out x d_out), out x in, and
// the head's inputs are columns h*hd .. h*hd+hd-1. restore_head puts back `kept`'s.
void zero_head(std::vector<float>& params, const GptLayout& layout, std::size_t l, std::size_t h)
{
    const std::size_t d = static_cast<std::size_t>(layout.shape.emb_dim);
    const std::size_t hd = static_cast<std::size_t>(layout.shape.head_dim());
    float* wo = params.data() + layout.blocks[l].wo;
    for (std::size_t r = 0; r < d; ++r)
        std::fill_n(wo + r * d + h * hd, hd, 0.0f);
}

void restore_head(std::vector<float>& params, const std::vector<float>& kept, const GptLayout& layout, std::size_t l,
                  std::size_t h)
{
    const std::size_t d = static_cast<std::size_t>(layout.shape.emb_dim);
    const std::size_t hd = static_cast<std::size_t>(layout.shape.head_dim());
    const std::size_t wo = layout.blocks[l].wo;
    for (std::size_t r = 0; r < d; ++r)
        std::copy_n(kept.data() + wo + r * d + h * hd, hd, params.data() + wo + r * d + h * hd);
}

// The intact model's held-out loss and accuracy, and those with each head zeroed in turn. Everything before a
// block's out_proj is the intact model's, so each chunk runs forward once (the intact numbers) and every head's
// ablation only from its block's out_proj on (forward_from_block), the layers from the last to the first so
// that the blocks an ablation reuses are still the intact forward's: the same numbers as evaluate() of each
// ablated model, to the bit, at (layers - l) blocks for a head of block l instead of all of them.
struct Ablations {
    EvalPoint intact;
    std::vector<std::vector<EvalPoint>> heads; // [layer][head]
};

Ablations ablations(const GptLayout& layout, const std::vector<float>& params, const Batch& held, std::size_t chunk,
                    int threads)
{
    const std::size_t layers = layout.blocks.size(), heads = static_cast<std::size_t>(layout.shape.n_heads);
    const std::size_t chunks = (held.batch + chunk - 1) / chunk;
    // The chunks are independent: `threads` slices of them, each through its own net, each chunk's numbers kept
    // and added in chunk order afterwards, so the sums are the one-thread report's to the bit.
    std::vector<LossStats> intact_of(chunks);
    std::vector<std::vector<LossStats>> ablated_of(chunks, std::vector<LossStats>(layers * heads));
    const std::size_t slices = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(threads, 1)), 1, chunks);
    parallel_for(slices, static_cast<int>(slices), [&](std::size_t slice) {
        GptNet net(layout);
        std::vector<float> ablated = params;
        for (std::size_t c = slice; c < chunks; c += slices) {
            const std::size_t b = c * chunk, n = std::min(chunk, held.batch - b);
            intact_of[c] = net.forward(params, held.ids.data() + b * held.tokens, held.targets.data() + b * held.tokens,
                                       n, held.tokens, nullptr, Rows::live);
            for (std::size_t l = layers; l-- > 0;)
                for (std::size_t h = 0; h < heads; ++h) {
                    zero_head(ablated, layout, l, h);
                    ablated_of[c][l * heads + h] = net.forward_from_block(ablated, l);
                    restore_head(ablated, params, layout, l, h);
                }
        }
    });
    EvalSums intact;
    std::vector<EvalSums> sums(layers * heads);
    for (std::size_t c = 0; c < chunks; ++c) {
        intact.add(intact_of[c]);
        for (std::size_t i = 0; i < layers * heads; ++i)
            sums[i].add(ablated_of[c][i]);
    }
    Ablations out{intact.point(), std::vector<std::vector<EvalPoint>>(layers)};
    for (std::size_t i = 0; i < layers * heads; ++i)
        out.heads[i / heads].push_back(sums[i].point());
    return out;
}

} // namespace

HeadRole head_role(const HeadShares& s)
{
    if (s.positions && s.previous >= kRoleShare)
        return HeadRole::PreviousToken;
    if (s.induction_positions && s.induction >= kRoleShare)
        return HeadRole::Induction;
    if (s.positions && s.first >= kRoleShare)
        return HeadRole::FirstToken;
    if (s.positions && s.self >= kRoleShare)
        return HeadRole::Self;
    return HeadRole::Other;
}

const char* role_name(HeadRole role)
{
    switch (role) {
    case HeadRole::PreviousToken: return "previous-token";
    case HeadRole::Induction: return "induction";
    case HeadRole::FirstToken: return "first-token";
    case HeadRole::Self: return "self";
    case HeadRole::Other: break;
    }
    return "none";
}

std::vector<HeadShares> head_shares(const std::vector<float>& weights, const std::vector<std::int64_t>& ids,
                                    std::size_t batch, std::size_t heads, std::size_t tokens)
{
    if (weights.size() != batch * heads * tokens * tokens || ids.size() != batch * tokens)
        throw Error("head shares need batch x heads x tokens x tokens weights and batch x tokens ids; got " +
                    std::to_string(weights.size()) + " weights and " + std::to_string(ids.size()) + " ids.");
    std::vector<ShareSums> sums(heads);
    accumulate(sums, weights.data(), ids.data(), batch, heads, tokens);
    std::vector<HeadShares> out;
    for (const ShareSums& s : sums)
        out.push_back(mean(s));
    return out;
}

double ablation_passes(const RunSettings& settings)
{
    return static_cast<double>(settings.shape.n_heads) * (static_cast<double>(settings.shape.n_layers) + 1.0) / 2.0;
}

double training_passes(const RunSettings& settings, std::size_t held_sequences)
{
    return 3.0 * static_cast<double>(settings.steps) * static_cast<double>(settings.batch) /
           static_cast<double>(std::max<std::size_t>(held_sequences, 1));
}

std::string ablation_skipped(const RunSettings& settings, std::size_t held_sequences, Ablation policy)
{
    if (policy == Ablation::All)
        return {};
    if (policy == Ablation::None)
        return "the heads were not ablated, as asked.";
    const double cost = ablation_passes(settings), trained = training_passes(settings, held_sequences);
    if (cost <= std::max(kAblationFloor, trained))
        return {};
    const auto passes = [](double v) { return std::to_string(static_cast<long long>(std::ceil(v))); };
    return "the heads were not ablated: zeroing each of the " +
           std::to_string(settings.shape.n_heads * settings.shape.n_layers) +
           " heads in turn reruns the layers after it, about " + passes(cost) +
           " passes of the held-out set (heads x (layers + 1) / 2), more than the training's own work (about " +
           passes(trained) + ") and than the " + passes(kAblationFloor) + " a report always allows.";
}

HeadReport head_report(const GptLayout& layout, const std::vector<float>& params, const Batch& held_out,
                       std::size_t chunk, int threads, bool ablate)
{
    HeadReport report;
    Ablations ablated;
    if (ablate)
        ablated = ablations(layout, params, held_out, chunk, threads);
    GptNet net(layout);
    report.ablated = ablate;
    report.intact = ablate ? ablated.intact : evaluate(net, params, held_out, chunk);
    const std::vector<std::vector<ShareSums>> sums = measure(net, params, held_out, chunk);
    for (std::size_t l = 0; l < sums.size(); ++l)
        for (std::size_t h = 0; h < sums[l].size(); ++h) {
            HeadStats s;
            s.layer = static_cast<std::int64_t>(l);
            s.head = static_cast<std::int64_t>(h);
            s.shares = mean(sums[l][h]);
            s.role = head_role(s.shares);
            if (ablate)
                s.ablated = ablated.heads[l][h];
            report.heads.push_back(s);
        }
    return report;
}

HeadReport head_report(const GptLayout& layout, const std::vector<float>& params, const Task& task)
{
    return head_report(layout, params, task.held_out(), kEvalChunk);
}

HeadReport head_report(const RunResult& run, int threads, Ablation policy)
{
    const RunSettings& s = run.settings;
    const Task task(s.task, s.shape.vocab_size, s.shape.context_length, s.seed);
    const std::string skipped = ablation_skipped(s, task.held_out().batch, policy);
    HeadReport report =
        head_report(gpt_layout(s.shape), run.params, task.held_out(), eval_chunk(s), threads, skipped.empty());
    report.skipped = skipped;
    return report;
}

std::vector<HeadReport> head_reports(const std::vector<RunResult>& runs, int threads,
                                     const std::function<void()>& on_done, Ablation policy)
{
    std::vector<HeadReport> reports(runs.size());
    if (threads < 1)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Fewer runs than threads: the threads left over share each report's chunks.
    const int each = std::max(1, threads / static_cast<int>(std::max<std::size_t>(runs.size(), 1)));
    parallel_for(runs.size(), threads, [&](std::size_t i) {
        if (!runs[i].cancelled && !runs[i].diverged()) // a diverged run's weights measure nothing
            reports[i] = head_report(runs[i], each, policy);
        if (on_done)
            on_done();
    });
    return reports;
}

} // namespace attnlab::train
