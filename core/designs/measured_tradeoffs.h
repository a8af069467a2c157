#pragma once
// The head-count trade-offs measured instead of counted. Two kinds of numbers, each saying how it
// was obtained: the held-out loss each trained Verdict GPT reached (from its file's metadata, written
// by resources/training/train_verdict_gpt.py: seed 0's model, and the spread over three seeds), and
// the forward time of MultiHeadAttention per valid num_heads, timed on this machine by the engine.
#include "gpt/gpt_model.h"

#include <atomic>
#include <functional>
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

struct TrainedLoss {
    std::int64_t num_heads = 0;
    std::string model;                    // "verdict-gpt-h4"
    double val_loss = 0;                  // the shipped model (seed 0), nats
    double val_mean = 0, val_std = 0;     // over the training seeds
    double train_mean = 0, train_std = 0; // over the training seeds
    std::string seeds;                    // "0,1,2"
    std::string how;                      // one sentence: where the numbers come from
};
TrainedLoss trained_loss(const GptModel& model);

struct TimingQuery {
    std::int64_t d_in = 768, d_out = 768, num_tokens = 64, batch = 1;
    int repeats = 5;                                        // timed runs after one warm-up; the median is kept
    std::uint64_t memory_budget = std::uint64_t{512} << 20; // head counts needing more are skipped, not run
};

struct HeadTiming {
    std::int64_t num_heads = 0, head_dim = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;
    bool skipped = false; // over the memory budget
    std::string how;      // one sentence: what was timed and how
};

// Every num_heads that divides d_out, timed with seeded weights and seeded input on the engine's
// current thread count. Throws Error for invalid sizes, Cancelled when *cancel turns true.
// `progress`, when set, hears how many head counts are done before each one starts (on the calling thread).
std::vector<HeadTiming> time_head_counts(const TimingQuery& query, const std::atomic<bool>* cancel = nullptr,
                                         const std::function<void(std::size_t done, std::size_t total)>& progress = {});

} // namespace attnlab
