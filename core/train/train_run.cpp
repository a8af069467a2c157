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
    // What GptNet keeps per block (GptNet::size_buffers, and the module-layout weights a head report asks for), at
    // the larger of the batch and the held-out chunk.
    const double batch = static_cast<double>(std::max<std::int64_t>(s.batch, 64));
    const double T = static_cast<double>(s.shape.context_length), d = static_cast<double>(s.shape.emb_dim);
    const double padded = std::ceil(T / 16.0) * 16.0; // the transposed copy's rows (attention_t_floats)
    const double n = batch * T, weights = batch * static_cast<double>(s.shape.n_heads) * T * (T + padded);
    const double dropout = s.shape.drop_rate > 0.0 ? 1.0 : 0.0;
    const double block =
        n * d * (11.0 + 2.0 * dropout) + n * 4.0 * d * 3.0 + weights * (1.0 + dropout * T / (T + padded));
    const double floats =
        static_cast<double>(s.shape.n_layers) * block + n * d * 8.0 + n * static_cast<double>(s.shape.vocab_size) * 2.0;
    return 4.0 * floats;
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

EvalPoint evaluate(GptNet& net, const std::vector<float>& params, const Batch& held)
{
    EvalSums sums;
    for (std::size_t b = 0; b < held.batch; b += kEvalChunk) {
        const std::size_t n = std::min(kEvalChunk, held.batch - b);
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
    double train_seconds = 0.0;
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
            EvalPoint e = evaluate(net, r.params, task.held_out());
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
        EvalPoint e = evaluate(net, r.params, task.held_out());
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
