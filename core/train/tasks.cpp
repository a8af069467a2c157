#include "train/tasks.h"

#include "tensor/error.h"
#include "train/recall_task.h"
#include "text/letter_tokens.h"
#include "text/tokenizer.h"

#include <algorithm>

namespace attnlab::train {

namespace {

constexpr std::size_t kHeldOutSequences = 512;
constexpr std::uint64_t kHeldOutSeed = 0x6865'6c64'6f75'74ULL; // one held-out set for every run

// rng() % n: portable across standard libraries (std::uniform_int_distribution is not), and its bias
// is below 2^-40 for the small ranges drawn here.
std::int64_t below(std::mt19937_64& rng, std::int64_t n)
{
    return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
}

std::vector<std::int64_t> story_ids()
{
    return verdict_tokenizer().encode(verdict_story());
}

std::size_t story_split(std::size_t n)
{
    return static_cast<std::size_t>(0.9 * static_cast<double>(n)); // int(TRAIN_FRACTION * len(ids))
}

} // namespace

const std::vector<std::string>& task_names()
{
    static const std::vector<std::string> names{"previous-token", "induction", "associative-recall", "the-verdict"};
    return names;
}

TaskSettings task_defaults(const std::string& name)
{
    TaskSettings s;
    if (name == "previous-token") {
        s.steps = 500;
        return s;
    }
    if (name == "induction")
        return s;
    if (name == "associative-recall") { // 8 pairs of 16 keys and 16 values, then 8 queries
        s.vocab = 32;
        return s;
    }
    if (name == "the-verdict") {
        s.vocab = verdict_tokenizer().vocab_size();
        s.context = 64;
        s.emb = 128;
        s.steps = 250;
        s.batch = 16;
        s.lr = 1e-3;
        s.weight_decay = 0.1;
        s.drop_rate = 0.1;
        return s;
    }
    std::string list;
    for (const std::string& n : task_names())
        list += (list.empty() ? "" : ", ") + n;
    throw Error("--task '" + name + "' is not a task; use one of " + list + ".");
}

void check_task(const std::string& name, std::int64_t vocab, std::int64_t context)
{
    task_defaults(name);
    if (name == "the-verdict") {
        const std::int64_t words = verdict_tokenizer().vocab_size();
        if (vocab != words)
            throw Error("the-verdict's vocabulary is the book's tokenizer's " + std::to_string(words) +
                        " ids; --vocab " + std::to_string(vocab) + " does not fit it.");
        const std::size_t n = story_ids().size();
        const std::int64_t held = static_cast<std::int64_t>(n - story_split(n)) - 1;
        if (context < 1) // "longer than ... allows" said of 0 was wrong
            throw Error("--context " + std::to_string(context) + " is too short for the-verdict, which needs 1 to " +
                        std::to_string(held) + " tokens.");
        if (context > held)
            throw Error("--context " + std::to_string(context) +
                        " is longer than the-verdict's held-out part allows; use 1 to " + std::to_string(held) + ".");
        return;
    }
    if (name == "associative-recall")
        return check_recall(vocab, context);
    if (vocab < 2 || vocab > 4096)
        throw Error("--vocab " + std::to_string(vocab) + " is too small or too large for " + name +
                    ", which needs 2 to 4096 tokens.");
    const std::int64_t least = name == "induction" ? 9 : 2; // induction: a segment of 3 fits T / 3
    if (context < least || context > 4096)
        throw Error("--context " + std::to_string(context) + " does not fit " + name + ", which needs " +
                    std::to_string(least) + " to 4096 tokens.");
}

Task::Task(const std::string& name, std::int64_t vocab, std::int64_t context, std::uint64_t seed)
    : name_(name), vocab_(vocab), context_(context), rng_(seed * 0x9E3779B97F4A7C15ULL + 1)
{
    check_task(name, vocab, context);
    const std::size_t T = static_cast<std::size_t>(context);
    if (name == "the-verdict") {
        std::vector<std::int64_t> ids = story_ids();
        const std::size_t split = story_split(ids.size());
        story_train_.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(split));
        // Non-overlapping windows of the held-out tokens, each target scored once (the book's validation loader).
        for (std::size_t s = split; s + T < ids.size(); s += T) {
            held_out_.ids.insert(held_out_.ids.end(), ids.begin() + s, ids.begin() + s + T);
            held_out_.targets.insert(held_out_.targets.end(), ids.begin() + s + 1, ids.begin() + s + T + 1);
            ++held_out_.batch;
        }
        held_out_.tokens = T;
        return;
    }
    std::mt19937_64 held(kHeldOutSeed);
    held_out_.batch = kHeldOutSequences;
    held_out_.tokens = T;
    held_out_.ids.resize(kHeldOutSequences * T);
    held_out_.targets.resize(kHeldOutSequences * T);
    for (std::size_t b = 0; b < kHeldOutSequences; ++b)
        fill(held, held_out_.ids.data() + b * T, held_out_.targets.data() + b * T);
}

void Task::fill(std::mt19937_64& rng, std::int64_t* ids, std::int64_t* targets) const
{
    const std::int64_t T = context_;
    if (name_ == "the-verdict") {
        // Every start position of the training tokens (TRAIN_STRIDE 1).
        const std::int64_t starts = static_cast<std::int64_t>(story_train_.size()) - T;
        const std::int64_t s = below(rng, starts);
        std::copy_n(story_train_.begin() + s, T, ids);
        std::copy_n(story_train_.begin() + s + 1, T, targets);
        return;
    }
    if (name_ == "associative-recall")
        return fill_recall(rng, vocab_, T, ids, targets);
    for (std::int64_t t = 0; t < T; ++t)
        ids[t] = below(rng, vocab_);
    std::fill_n(targets, T, std::int64_t{-100});
    if (name_ == "previous-token") {
        for (std::int64_t t = 1; t < T; ++t)
            targets[t] = ids[t - 1];
        return;
    }
    const std::int64_t length = 3 + below(rng, T / 3 - 3 + 1);
    // Placements (s0, gap) with s0 + 2L + gap <= T, numbered row by row, one drawn uniformly.
    const std::int64_t room = T - 2 * length;
    std::int64_t pick = below(rng, (room + 1) * (room + 2) / 2);
    std::int64_t s0 = 0;
    while (pick > room - s0) {
        pick -= room - s0 + 1;
        ++s0;
    }
    const std::int64_t s1 = s0 + length + pick;
    for (std::int64_t i = 0; i < length; ++i)
        ids[s1 + i] = ids[s0 + i];
    for (std::int64_t i = 0; i + 1 < length; ++i)
        targets[s1 + i] = ids[s1 + i + 1];
}

Batch Task::next_batch(std::size_t batch)
{
    Batch b;
    b.batch = batch;
    b.tokens = static_cast<std::size_t>(context_);
    b.ids.resize(batch * b.tokens);
    b.targets.resize(batch * b.tokens);
    for (std::size_t i = 0; i < batch; ++i)
        fill(rng_, b.ids.data() + i * b.tokens, b.targets.data() + i * b.tokens);
    return b;
}

std::string Task::token_name(std::int64_t id) const
{
    if (name_ == "the-verdict")
        return verdict_tokenizer().token(id);
    return letter_token(id);
}

} // namespace attnlab::train
