#pragma once
// One training run: torch.manual_seed(seed); GPTModel(cfg); AdamW; `steps` batches of the task, each a
// forward, the mean cross-entropy over its scored positions, a backward and an optimizer step; held-out
// loss and accuracy every `eval_every` steps and at the end. Pure: everything it needs comes in, the
// caller (a CLI command, a Session-owned job) watches it through the per-step callback and may stop it.
#include "train/adamw.h"
#include "train/gpt_params.h"
#include "train/tasks.h"
#include "train/train_ops.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace attnlab::train {

class GptNet;

struct RunSettings {
    std::string task = "induction";
    GptConfig shape;
    std::int64_t steps = 2000;
    std::int64_t batch = 64;
    AdamWSettings optimizer{3e-3, 0.9, 0.999, 1e-8, 0.01};
    std::uint64_t seed = 0;
    std::int64_t eval_every = 100;
    bool record_batches = false; // keep every batch's ids and targets (--dump-run)
};

// Throws Error with one sentence when the run could not start: the model shape, the task at this
// vocabulary and context, 0 steps or batch, a rate that is not a positive finite number, activations
// beyond kMaxActivationGiB (a bad_alloc minutes into a sweep helps no one).
void check_run(const RunSettings& settings);
inline constexpr double kMaxActivationGiB = 8.0;
// Bytes of the activations a run's net keeps, as GptNet sizes them, at the larger of its batch and its
// held-out chunk (eval_chunk), with the module-layout attention weights a head report asks for.
double activation_bytes(const RunSettings& settings);
// Sequences of the held-out set one evaluation forward takes: kEvalChunk (64), or at long contexts (where 64
// sequences' attention weights, 64 x heads x T x T per block, would dwarf a training step's) as many as keep
// 64 x T x T under 64 x 64 x 64, and never fewer than the training batch, which the net holds anyway.
std::size_t eval_chunk(const RunSettings& settings);

struct EvalPoint {
    std::int64_t step = 0; // optimizer steps taken when measured
    double loss = 0.0, accuracy = 0.0;
};

struct StepReport {
    std::int64_t step = 0, steps = 0; // steps done, of all
    double train_loss = 0.0;
    const EvalPoint* eval = nullptr; // set on the steps a held-out measurement was made
};

struct RunHooks {
    std::function<void(const StepReport&)> on_step; // called on the training thread
    const std::atomic<bool>* cancel = nullptr;      // checked before every step
};

struct RunResult {
    RunSettings settings;
    std::vector<float> init_params, params; // gpt_layout(settings.shape) order
    std::vector<double> train_loss;         // one per step taken
    std::vector<EvalPoint> evals;
    std::vector<std::int64_t> inputs, targets; // steps x batch x context when record_batches
    double ms_per_step = 0.0;                  // wall time of the steps, evaluations left out
    bool cancelled = false;
    // A run whose training or held-out loss became NaN or infinite stops at that step (the other runs of a sweep go
    // on): train_loss and evals keep only what came before, and no final measurement is made, so nothing a student
    // reads shows nan. loss_before is the last finite training loss (NaN when there was none).
    std::int64_t diverged_at = 0; // the step, from 1; 0: it did not diverge
    double loss_before = std::numeric_limits<double>::quiet_NaN();
    bool diverged() const { return diverged_at > 0; }

    // The last held-out measurement; a diverged run may have none (evals empty): check first.
    const EvalPoint& final_eval() const { return evals.back(); }
    // The first measured step whose accuracy reaches 90% of the best measured accuracy.
    std::int64_t steps_to_90() const;
};

RunResult train_run(const RunSettings& settings, const RunHooks& hooks = {});

// "diverged at step 12 (loss was 3.418 before): try a learning rate of 0.0003 or lower" -- what the CLI's table, the
// window and the session say of a diverged run (no capital, no full stop: it fills a table's cell or ends a sentence).
std::string divergence_text(const RunResult& run);
// The same from what a session file keeps of the run: the step, the loss before it (NaN: none) and the rate it trained
// at.
std::string divergence_text(std::int64_t step, double loss_before, double lr);
// The learning rate divergence_text advises: a tenth of the one that diverged, at most the default rate (3e-3).
double advised_lr(double lr);

// Mean held-out loss and accuracy of `params` in eval mode (no dropout), over the task's held-out set.
EvalPoint evaluate(const GptLayout& layout, const std::vector<float>& params, const Task& task);
// The same over any sequences laid out as a task's held-out set.
EvalPoint evaluate(const GptLayout& layout, const std::vector<float>& params, const Batch& held_out);
// evaluate()'s arithmetic for callers that run its chunks themselves: the held-out set in chunks of
// kEvalChunk sequences, each chunk's LossStats added in order, then the mean loss and accuracy.
inline constexpr std::size_t kEvalChunk = 64;
struct EvalSums {
    double total = 0.0; // loss x scored positions, summed
    std::size_t scored = 0, correct = 0;
    void add(const LossStats& s);
    EvalPoint point() const;
};
// The same through a net of `params`' layout that the caller keeps: its buffers, sized at the first call, serve
// every later one (a new net's first forward allocates and clears them, which for many small evaluations cost
// more than the evaluations).
EvalPoint evaluate(GptNet& net, const std::vector<float>& params, const Batch& held_out,
                   std::size_t chunk = kEvalChunk);

} // namespace attnlab::train
