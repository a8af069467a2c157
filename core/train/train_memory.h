#pragma once
// What a sweep of training runs holds at its peak, from the settings alone, and the refusals of a sweep the
// memory budget, the machine or the run dump cannot hold: said before anything is allocated, naming the
// setting that costs (the CLI's `train --max-memory`; tests/cli/test_cli_train_memory.cpp runs sweeps at
// exactly the stated bytes and checks their peak resident memory stays within them).
//
// Every run keeps its initial and trained weights to the end (the tables, --save and --dump-run read them);
// a run that is training also holds its gradients, AdamW's two moments, its net's activations (at the larger
// of its batch and its held-out chunk, train_run.h) and its task's sequences; `threads` runs train at once. The
// head reports that follow keep a net at the held-out chunk and one copy of the weights per thread (with fewer runs
// than threads, the threads share a report's chunks); the estimate holds the larger of the two phases.
#include "train/train_run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::train {

struct SweepMemory {
    std::uint64_t process = 0;     // the program itself before the sweep (the caller's process_baseline_bytes)
    std::uint64_t kept = 0;        // every run's initial and trained weights, and its loss curve
    std::uint64_t optimizer = 0;   // gradients and AdamW's two moments of the runs training at once
    std::uint64_t activations = 0; // the nets of the runs training at once, their tasks' sequences, GEMM packing
    std::uint64_t recorded = 0;    // --dump-run's batches (record_batches): steps x batch x context x 2 int64
    std::size_t runs = 0, at_once = 0;
    std::uint64_t total() const; // saturates, never wraps
};

// The peak of training `runs` on `threads` threads (threads < 1: one), with `process` bytes already held.
SweepMemory sweep_memory(const std::vector<RunSettings>& runs, int threads, std::uint64_t process);

// Throws Error with one sentence when the sweep needs more than min(budget, machine): the need in bytes and its
// parts, which limit it exceeds (the budget, or the memory the machine has, in which case no larger budget is
// advised), and the settings of its largest part.
void check_sweep_memory(const SweepMemory& memory, const RunSettings& first, std::uint64_t budget,
                        std::uint64_t machine);

// A run dump holds every batch until it is written (the file is written after training, through the atomic
// writer): at most this many bytes of batches, refused before training beyond it.
inline constexpr std::uint64_t kMaxRecordedBytes = std::uint64_t{1} << 30;
std::uint64_t recorded_bytes(const RunSettings& run); // 0 without record_batches
void check_recorded_bytes(const RunSettings& run);

} // namespace attnlab::train
