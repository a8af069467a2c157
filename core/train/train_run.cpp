#include "train/train_run.h"

#include "tensor/error.h"
#include "train/gpt_net.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace attnlab::train {

double activation_bytes(const RunSettings& s)
{
    // What GptNet keeps (size_buffers, the backward's gradients, the module-layout weights a head report asks for):
    // its forward buffers at the larger of the batch and the held-out chunk, its backward's at the batch.
    const GptConfig& g = s.shape;
    const double T = static_cast<double>(g.context_length), d = static_cast<double>(g.emb_dim);
    const double V = static_cast<double>(g.vocab_size), H = static_cast<double>(g.n_heads);
    const double chunk = static_cast<double>(eval_chunk(s)), batch = static_cast<double>(s.batch);
    const double most = std::max(batch, chunk), rows = most * T, train_rows = batch * T;
    const double padded = std::ceil(T / 16.0) * 16.0; // the transposed copy's rows (attention_t_floats)
    const double dropout = g.drop_rate > 0.0 ? 1.0 : 0.0;
    // Per block: x, norm1's and norm2's outputs and normalised inputs, ctx, mid (6 + 1), q | k | v (3), the
    // feed-forward's a, g and tanh (3 x 4), two rstd, the transposed weights, the module-layout ones (at the
    // chunk), and with dropout the weights' mask and two per-position masks.
    const double block = rows * d * 22.0 + rows * 2.0 + most * H * T * padded + chunk * H * T * T +
                         dropout * (batch * H * T * T + 2.0 * train_rows * d);
    // Once: the last block's output, project_qkv's column, final_norm's, the last block's gathered rows (4 + 2),
    // the logits and their gradient, a grouped model's narrow projections, the backward's dx, dh, dtmp, dq | dk | dv
    // and the two wide buffers (3 + 3 + 8), the embedding's masks.
    const double narrow = g.grouped() ? d + 2.0 * static_cast<double>(g.kv_width()) : 0.0;
    const double once =
        rows * d * 6.0 + rows + rows * V * 2.0 + rows * narrow + train_rows * d * 14.0 + dropout * 2.0 * train_rows * d;
    return 4.0 * (static_cast<double>(g.n_layers) * block + once);
}

std::size_t eval_chunk(const RunSettings& s)
{
    const std::int64_t T = std::max<std::int64_t>(s.shape.context_length, 1);
    const std::int64_t fits = T > 4096 ? 0 : 64 * 64 * 64 / (T * T); // 64 x 64 x 64 = 262,144
    return static_cast<std::size_t>(
        std::clamp<std::int64_t>(std::max(fits, s.batch), 1, static_cast<std::int64_t>(kEvalChunk)));
}

void check_run(const RunSettings& s)
{
    check_gpt_config(s.shape);
    check_task(s.task, s.shape.vocab_size, s.shape.context_length);
    if (s.steps < 1)
        throw Error("--steps is " + std::to_string(s.steps) + "; a run needs at least 1 step.");
    if (s.batch < 1)
        throw Error("--batch is " + std::to_string(s.batch) + "; a step needs at least 1 sequence.");
    if (!(std::isfinite(s.optimizer.lr) && s.optimizer.lr > 0.0))
        throw Error("--lr has to be a positive number.");
    if (!(std::isfinite(s.optimizer.weight_decay) && s.optimizer.weight_decay >= 0.0))
        throw Error("--weight-decay has to be 0 or a positive number.");
    const double gib = activation_bytes(s) / (1024.0 * 1024.0 * 1024.0);
    if (gib > kMaxActivationGiB)
        throw Error("the run would keep about " + std::to_string(static_cast<long long>(std::ceil(gib))) +
                    " GiB of activations per step, more than the " +
                    std::to_string(static_cast<int>(kMaxActivationGiB)) +
                    " GiB allowed; use a smaller batch, context or model.");
}

std::int64_t RunResult::steps_to_90() const
{
    double best = 0.0;
    for (const EvalPoint& e : evals)
        best = std::max(best, e.accuracy);
    for (const EvalPoint& e : evals)
        if (e.accuracy >= 0.9 * best)
            return e.step;
    return 0;
}

void EvalSums::add(const LossStats& s)
{
    total += s.loss * static_cast<double>(s.scored);
    scored += s.scored;
    correct += s.correct;
}

EvalPoint EvalSums::point() const
{
    EvalPoint e;
    e.loss = scored ? total / static_cast<double>(scored) : 0.0;
    e.accuracy = scored ? static_cast<double>(correct) / static_cast<double>(scored) : 0.0;
    return e;
}

EvalPoint evaluate(GptNet& net, const std::vector<float>& params, const Batch& held, std::size_t chunk)
{
    EvalSums sums;
    chunk = std::max<std::size_t>(chunk, 1);
    for (std::size_t b = 0; b < held.batch; b += chunk) {
        const std::size_t n = std::min(chunk, held.batch - b);
        sums.add(net.forward(params, held.ids.data() + b * held.tokens, held.targets.data() + b * held.tokens, n,
                             held.tokens, nullptr, Rows::live));
    }
    return sums.point();
}

EvalPoint evaluate(const GptLayout& layout, const std::vector<float>& params, const Task& task)
{
    return evaluate(layout, params, task.held_out());
}

EvalPoint evaluate(const GptLayout& layout, const std::vector<float>& params, const Batch& held_out)
{
    GptNet net(layout);
    return evaluate(net, params, held_out);
}

RunResult train_run(const RunSettings& settings, const RunHooks& hooks)
{
    check_run(settings);
    RunResult r;
    r.settings = settings;
    const GptLayout layout = gpt_layout(settings.shape);
    TorchGenerator gen(settings.seed); // the initial weights, then the dropout masks
    r.init_params = init_gpt_params(layout, gen);
    r.params = r.init_params;
    Task task(settings.task, settings.shape.vocab_size, settings.shape.context_length, settings.seed);
    GptNet net(layout);
    AdamW optimizer(layout.total, settings.optimizer);
    std::vector<float> grads;
    const std::size_t batch = static_cast<std::size_t>(settings.batch);
    const std::int64_t every = std::max<std::int64_t>(1, settings.eval_every);
    const std::size_t chunk = eval_chunk(settings);
    double train_seconds = 0.0;
    if (settings.record_batches) { // reserved whole: growing by doubling would hold two copies at a time
        const std::size_t floats =
            static_cast<std::size_t>(settings.steps) * batch * static_cast<std::size_t>(settings.shape.context_length);
        r.inputs.reserve(floats);
        r.targets.reserve(floats);
    }
    r.train_loss.reserve(static_cast<std::size_t>(settings.steps));
    for (std::int64_t step = 0; step < settings.steps; ++step) {
        if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed)) {
            r.cancelled = true;
            break;
        }
        const auto start = std::chrono::steady_clock::now();
        const Batch b = task.next_batch(batch);
        const LossStats loss =
            net.forward(r.params, b.ids.data(), b.targets.data(), b.batch, b.tokens, &gen, Rows::live);
        if (!std::isfinite(loss.loss)) {
            r.diverged_at = step + 1;
            if (!r.train_loss.empty())
                r.loss_before = r.train_loss.back();
            break;
        }
        net.backward(r.params, grads);
        optimizer.step(r.params, grads);
        train_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        r.train_loss.push_back(loss.loss);
        if (settings.record_batches) {
            r.inputs.insert(r.inputs.end(), b.ids.begin(), b.ids.end());
            r.targets.insert(r.targets.end(), b.targets.begin(), b.targets.end());
        }
        StepReport report{step + 1, settings.steps, loss.loss, nullptr};
        if ((step + 1) % every == 0 || step + 1 == settings.steps) {
            EvalPoint e = evaluate(net, r.params, task.held_out(), chunk);
            e.step = step + 1;
            if (!std::isfinite(e.loss)) { // this step's update overflowed; the next training loss would say so
                r.diverged_at = step + 1;
                r.loss_before = loss.loss;
                break;
            }
            r.evals.push_back(e);
            report.eval = &r.evals.back();
        }
        if (hooks.on_step)
            hooks.on_step(report);
    }
    const std::int64_t taken = static_cast<std::int64_t>(r.train_loss.size());
    if (!r.diverged() && (r.evals.empty() || r.evals.back().step != taken)) {
        EvalPoint e = evaluate(net, r.params, task.held_out(), chunk);
        e.step = taken;
        r.evals.push_back(e);
    }
    r.ms_per_step = taken ? 1000.0 * train_seconds / static_cast<double>(taken) : 0.0;
    return r;
}

double advised_lr(double lr)
{
    return std::min(lr / 10.0, RunSettings{}.optimizer.lr); // the tasks' default rate, which trains them all
}

std::string divergence_text(const RunResult& run)
{
    return divergence_text(run.diverged_at, run.loss_before, run.settings.optimizer.lr);
}

std::string divergence_text(std::int64_t step, double loss_before, double lr)
{
    char text[160];
    if (std::isfinite(loss_before))
        std::snprintf(text, sizeof text,
                      "diverged at step %lld (loss was %.3f before): try a learning rate of %g or lower",
                      static_cast<long long>(step), loss_before, advised_lr(lr));
    else
        std::snprintf(text, sizeof text,
                      "diverged at step %lld (its first loss was not finite): try a learning rate of %g or lower",
                      static_cast<long long>(step), advised_lr(lr));
    return text;
}

} // namespace attnlab::train
