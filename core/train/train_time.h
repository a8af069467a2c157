#pragma once
// How long a sweep of training runs and its head reports will take on this machine, estimated before it starts
// from a short measurement, and the refusals of a sweep that could not finish in reason.
//
// The measurement (calibrate) builds the costliest run's net (the most activations, as run_sweep orders them)
// and times two of its training steps (forward, backward, AdamW at the real batch) and two forwards of one
// held-out chunk, after one of each to warm up, all on one thread: a few steps, not a model of the hardware. The
// estimate then counts, per run, its steps, its held-out passes (every eval_every steps and at the end) and its
// head report: one pass for the intact model, one for the attention measures, and for a head of block l
// (layers - l) blocks of a pass (head_report.h), heads x (layers + 1) / 2 passes in all, when the report ablates
// its heads (head_report.h's rule: else the one pass of the measures); the runs are laid on
// `threads` threads longest first, as run_sweep and head_reports run them (with fewer runs than threads, a
// report's ablations shared by threads / runs of them). Every run is timed at the costliest
// one's rate, so the estimate is an upper bound where the runs differ.
#include "train/head_report.h"
#include "train/train_run.h"

#include <cstddef>
#include <string>
#include <vector>

namespace attnlab::train {

// At most this many runs (num_heads values x num_kv_groups values x seeds) in one sweep.
inline constexpr std::size_t kMaxRuns = 1000;
// At most this long on this machine, by the estimate: an hour.
inline constexpr double kMaxSweepSeconds = 3600.0;

struct Calibration {
    double step_seconds = 0.0;      // one training step of the costliest run
    double chunk_seconds = 0.0;     // one eval-mode forward of one held-out chunk (eval_chunk sequences)
    std::size_t held_sequences = 0; // the task's held-out set
};
Calibration calibrate(const RunSettings& run);

struct SweepTime {
    Calibration measured;
    std::size_t runs = 0;
    int threads = 1;
    double training = 0.0, reports = 0.0; // wall seconds of each phase
    double total() const { return training + reports; }
};
// threads < 1: one.
SweepTime estimate_sweep_time(const std::vector<RunSettings>& runs, int threads, const Calibration& measured,
                              Ablation ablation = Ablation::Auto);
// The costliest run of a sweep (the one calibrate() should time).
const RunSettings& costliest_run(const std::vector<RunSettings>& runs);

// Throws Error with one sentence naming the setting when a sweep has more runs than kMaxRuns.
void check_run_count(std::size_t runs);
// Throws Error with one sentence when the estimate is beyond kMaxSweepSeconds: how long, which phase, and what
// setting to lower (--steps for the training, --layers or the heads for the head reports, the runs).
void check_sweep_time(const SweepTime& time, const RunSettings& first);

// "45 s", "3 min 20 s", "2 h 5 min".
std::string duration_text(double seconds);

} // namespace attnlab::train
