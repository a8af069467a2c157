#pragma once
// What a sweep asks for, before it becomes runs: one task, one model width and depth, the num_heads
// compared, a range of seeds and one optimizer setting. The CLI's `train` and the window's sweep both
// fill one and call expand(), so they train the same runs for the same request.
#include "train/train_run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::train {

struct SweepSpec {
    std::string task = "induction";
    std::int64_t vocab = 16, context = 32, emb = 32, layers = 2;
    std::vector<std::int64_t> heads; // in this order, each once (expand refuses a repeat); empty: every divisor of emb
    // num_kv_groups compared at every num_heads (GroupedQueryAttention), each once; each must divide every head
    // count. Empty: as many as the heads, the book's MultiHeadAttention.
    std::vector<std::int64_t> kv_groups;
    std::int64_t window = 0; // a sliding window of every run (GroupedQueryAttention's window_size); 0: none
    std::int64_t seeds = 1;  // runs per num_heads x num_kv_groups, seeded first_seed, first_seed + 1, ...
    std::uint64_t first_seed = 0;
    std::int64_t steps = 2000, batch = 64;
    double lr = 3e-3, weight_decay = 0.01;
    bool record_batches = false; // keep every batch (--dump-run)

    std::vector<std::int64_t> head_list() const; // heads, or every divisor of emb (none below emb 1)
    std::vector<std::uint64_t> seed_list() const;
    std::vector<std::int64_t> kv_group_list() const; // kv_groups, or {0}: as many as the heads
    // Twenty held-out measurements a run, at most one every 100 steps: enough for the curve and "steps to
    // 90%", few enough to cost a few percent of the training time.
    std::int64_t eval_every() const;
    // One RunSettings per num_heads x num_kv_groups x seed, heads outer, seeds inner, with the task's dropout and
    // eval_every(). Throws Error for an unknown task, for seeds below 1, for a head or key/value group count listed
    // twice (it would train the same runs again, seed for seed), for a group count that does not divide every head
    // count (naming those that do), and with check_run's sentence for
    // the first run that could not train; an emb with no divisors gives one run at 1 head, which
    // check_run refuses with the shape.
    std::vector<RunSettings> expand() const;
    // What expand() refuses, without making its runs: the same sentences, from one check_run per num_heads x
    // num_kv_groups (a run's seed changes nothing check_run reads). What a session file's sweep is read
    // through, so a file holding a million seeds or head counts costs no more than its distinct variants.
    void check() const;
};

// The task's defaults (tasks.h), every divisor of emb, seed 0 alone.
SweepSpec sweep_defaults(const std::string& task);

} // namespace attnlab::train
