#include "train/train_time.h"

#include "tensor/error.h"
#include "tensor/torch_random.h"
#include "train/gpt_net.h"
#include "train/gpt_params.h"
#include "train/tasks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

namespace attnlab::train {

namespace {

double seconds_of(const std::function<void()>& work, int times)
{
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < times; ++i)
        work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / times;
}

// The wall time of `jobs` laid on `threads` threads longest first, each on the least loaded one.
double wall_of(std::vector<double> jobs, int threads)
{
    std::sort(jobs.begin(), jobs.end(), std::greater<>());
    std::vector<double> load(static_cast<std::size_t>(std::max(threads, 1)), 0.0);
    for (double j : jobs)
        *std::min_element(load.begin(), load.end()) += j;
    return *std::max_element(load.begin(), load.end());
}

// Held-out passes of one run's training: every eval_every steps, and after the last step when that is not one.
double eval_passes(const RunSettings& r)
{
    const std::int64_t every = std::max<std::int64_t>(1, r.eval_every);
    return static_cast<double>(r.steps / every + (r.steps % every ? 1 : 0));
}

} // namespace

const RunSettings& costliest_run(const std::vector<RunSettings>& runs)
{
    return *std::max_element(runs.begin(), runs.end(), [](const RunSettings& a, const RunSettings& b) {
        return activation_bytes(a) < activation_bytes(b);
    });
}

Calibration calibrate(const RunSettings& run)
{
    const GptLayout layout = gpt_layout(run.shape);
    TorchGenerator gen(run.seed);
    std::vector<float> params = init_gpt_params(layout, gen), grads;
    Task task(run.task, run.shape.vocab_size, run.shape.context_length, run.seed);
    GptNet net(layout);
    AdamW optimizer(layout.total, run.optimizer);
    const Batch b = task.next_batch(static_cast<std::size_t>(run.batch));
    TorchGenerator dropout(run.seed);
    const auto step = [&] {
        net.forward(params, b.ids.data(), b.targets.data(), b.batch, b.tokens, &dropout, Rows::live);
        net.backward(params, grads);
        optimizer.step(params, grads);
    };
    const Batch& held = task.held_out();
    const std::size_t chunk = std::min(eval_chunk(run), held.batch);
    const auto pass = [&] {
        net.forward(params, held.ids.data(), held.targets.data(), chunk, held.tokens, nullptr, Rows::live);
    };
    Calibration c;
    c.held_sequences = held.batch;
    seconds_of(step, 1); // the first of each sizes the net's buffers
    c.step_seconds = seconds_of(step, 2);
    seconds_of(pass, 1);
    c.chunk_seconds = seconds_of(pass, 2);
    return c;
}

SweepTime estimate_sweep_time(const std::vector<RunSettings>& runs, int threads, const Calibration& measured,
                              Ablation ablation)
{
    SweepTime t;
    t.measured = measured;
    t.runs = runs.size();
    t.threads = std::max(threads, 1);
    std::vector<double> training, reports;
    // Fewer runs than threads: each report's ablations are shared by threads / runs threads (head_reports).
    const double each =
        std::max<double>(1.0, std::floor(t.threads / static_cast<double>(std::max<std::size_t>(t.runs, 1))));
    for (const RunSettings& r : runs) {
        const double chunk = static_cast<double>(eval_chunk(r));
        const double pass = std::ceil(static_cast<double>(measured.held_sequences) / chunk) * measured.chunk_seconds;
        training.push_back(static_cast<double>(r.steps) * measured.step_seconds + eval_passes(r) * pass);
        const bool ablates = ablation_skipped(r, measured.held_sequences, ablation).empty();
        reports.push_back(ablates ? pass * (1.0 + (1.0 + ablation_passes(r)) / each) : 2.0 * pass); // measures, intact
    }
    t.training = wall_of(training, t.threads);
    t.reports = wall_of(reports, t.threads);
    return t;
}

void check_run_count(std::size_t runs)
{
    if (runs > kMaxRuns)
        throw Error("the sweep has " + std::to_string(runs) +
                    " runs (--heads values x --kv-groups values x --seeds), " + "more than the " +
                    std::to_string(kMaxRuns) + " train takes at once; list fewer of them.");
}

void check_sweep_time(const SweepTime& t, const RunSettings& first)
{
    if (t.total() <= kMaxSweepSeconds)
        return;
    std::string head = "train would take about " + duration_text(t.total()) + " on this machine (" +
                       std::to_string(t.runs) + " run(s), " + std::to_string(t.threads) +
                       " at a time: " + duration_text(t.training) + " of training at about " +
                       duration_text(t.measured.step_seconds) + " a step, " + duration_text(t.reports) +
                       " of head reports), more than the " + duration_text(kMaxSweepSeconds) + " train allows; ";
    if (t.reports > t.training)
        throw Error(head + "the head reports zero every head of every layer in turn and run the layers after it " +
                    "again (about heads x layers^2 / 2 blocks), so give fewer --layers than " +
                    std::to_string(first.shape.n_layers) + " or fewer heads, or leave --head-ablation at auto.");
    const double fits = kMaxSweepSeconds / t.total() * static_cast<double>(first.steps);
    throw Error(head + "give fewer --steps (about " +
                std::to_string(std::max<long long>(1, static_cast<long long>(fits))) +
                " would fit) or fewer runs (--heads values x --seeds).");
}

std::string duration_text(double seconds)
{
    char text[64];
    if (!(seconds < 1e12))
        return "ever";
    if (seconds < 1.0)
        std::snprintf(text, sizeof text, "%.3g ms", seconds * 1000.0);
    else if (seconds < 60.0)
        std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 3600.0) {
        const int m = static_cast<int>(seconds / 60.0), s = static_cast<int>(std::fmod(seconds, 60.0));
        if (s)
            std::snprintf(text, sizeof text, "%d min %d s", m, s);
        else
            std::snprintf(text, sizeof text, "%d min", m);
    } else {
        const long long h = static_cast<long long>(seconds / 3600.0);
        const int m = static_cast<int>(std::fmod(seconds, 3600.0) / 60.0);
        if (m)
            std::snprintf(text, sizeof text, "%lld h %d min", h, m);
        else
            std::snprintf(text, sizeof text, "%lld h", h);
    }
    return text;
}

} // namespace attnlab::train
