#pragma once
// Several training runs (num_heads x seeds) at once, one per thread, each on one engine thread: the
// variants are independent, so on two cores two train at a time with no sharing but the job counter.
// Results keep the order of `runs`; a run the cancel flag stopped keeps what it reached.
#include "train/train_run.h"

#include <atomic>
#include <functional>
#include <vector>

namespace attnlab::train {

struct SweepHooks {
    // Called on the run's thread, with its index in `runs`; several threads may call it at once.
    std::function<void(std::size_t run, const StepReport&)> on_step;
    // Called on the run's thread when it has finished (trained, diverged or cancelled), with its index in `runs`.
    std::function<void(std::size_t run)> on_done;
    const std::atomic<bool>* cancel = nullptr;
};

// threads < 1: one per core. The engine's GEMMs are set to one thread for the sweep's duration.
std::vector<RunResult> run_sweep(const std::vector<RunSettings>& runs, int threads, const SweepHooks& hooks = {});

// Mean and sample standard deviation (0 for fewer than two values).
struct Spread {
    double mean = 0.0, std = 0.0;
};
Spread spread(const std::vector<double>& values);

} // namespace attnlab::train
