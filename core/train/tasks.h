#pragma once
// What the trainer can learn: each task is a seeded generator of (ids, targets) batches, the positions
// it scores (every other target is -100, PyTorch's ignore_index), names for its tokens and the settings
// it trains well with. Synthetic tasks draw tokens uniformly; their tokens show as letters A, B, ...
//   previous-token  the target at position t >= 1 is x[t - 1]
//   induction       a segment of length L, uniform in [3, T / 3], is copied later in the sequence (start
//                   and gap uniform among the placements that fit); positions s1 ... s1 + L - 2 of the
//                   copy are scored, each predicting x[s1 + i + 1]
//   associative-recall  key-value pairs, then queries for their keys; each query's value is scored (recall_task.h)
//   the-verdict     the next token of the story (the book's tokenizer, 1,132 ids); windows of the first
//                   90% are trained on, the last 10% held out, as resources/training/train_verdict_gpt.py
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace attnlab::train {

struct TaskSettings {
    std::int64_t vocab = 16, context = 32, emb = 32, layers = 2;
    std::int64_t steps = 2000, batch = 64;
    double lr = 3e-3, weight_decay = 0.01, drop_rate = 0.0;
};

const std::vector<std::string>& task_names();
// Throws Error naming the valid tasks when `name` is not one.
TaskSettings task_defaults(const std::string& name);
// Throws Error with one sentence when the task cannot be posed at this vocabulary and context.
void check_task(const std::string& name, std::int64_t vocab, std::int64_t context);

struct Batch {
    std::size_t batch = 0, tokens = 0;
    std::vector<std::int64_t> ids, targets; // batch x tokens, row-major
};

class Task {
public:
    // Checks like check_task. `seed` picks the training batches; the held-out sequences are the same for
    // every seed and every model shape, so variants are compared on one set.
    Task(const std::string& name, std::int64_t vocab, std::int64_t context, std::uint64_t seed);

    const std::string& name() const { return name_; }
    Batch next_batch(std::size_t batch);
    const Batch& held_out() const { return held_out_; }
    std::string token_name(std::int64_t id) const; // "A", "B", ... or the story's word

private:
    void fill(std::mt19937_64& rng, std::int64_t* ids, std::int64_t* targets) const;

    std::string name_;
    std::int64_t vocab_, context_;
    std::mt19937_64 rng_;
    std::vector<std::int64_t> story_train_; // the-verdict only
    Batch held_out_;
};

} // namespace attnlab::train
