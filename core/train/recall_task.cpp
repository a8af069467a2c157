#include "train/recall_task.h"

#include "tensor/error.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace attnlab::train {

namespace {

// rng() % n, as tasks.cpp draws: portable across standard libraries.
std::int64_t below(std::mt19937_64& rng, std::int64_t n)
{
    return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
}

} // namespace

std::int64_t recall_pairs(std::int64_t context)
{
    return context / 4;
}

void check_recall(std::int64_t vocab, std::int64_t context)
{
    if (vocab < 4 || vocab > 4096 || vocab % 2 != 0)
        throw Error("--vocab " + std::to_string(vocab) +
                    " does not fit associative-recall, which needs an even 4 to 4096 tokens (half keys, half values).");
    if (context < 4 || context > 4096)
        throw Error("--context " + std::to_string(context) +
                    " does not fit associative-recall, which needs 4 to 4096 tokens.");
    if (recall_pairs(context) > vocab / 2)
        throw Error("--context " + std::to_string(context) + " asks for " + std::to_string(recall_pairs(context)) +
                    " pairs with different keys, but --vocab " + std::to_string(vocab) + " has only " +
                    std::to_string(vocab / 2) + " keys; give a --vocab of at least " +
                    std::to_string(2 * recall_pairs(context)) + ".");
}

void fill_recall(std::mt19937_64& rng, std::int64_t vocab, std::int64_t context, std::int64_t* ids,
                 std::int64_t* targets)
{
    const std::int64_t keys = vocab / 2, pairs = recall_pairs(context);
    std::fill_n(targets, context, std::int64_t{-100});
    // The pairs' keys: the first `pairs` of a shuffled key list (Fisher-Yates, drawn with below()).
    std::vector<std::int64_t> order(static_cast<std::size_t>(keys));
    std::iota(order.begin(), order.end(), 0);
    for (std::int64_t i = 0; i < pairs; ++i)
        std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(i + below(rng, keys - i))]);
    std::vector<std::int64_t> value(static_cast<std::size_t>(pairs));
    for (std::int64_t p = 0; p < pairs; ++p) {
        value[static_cast<std::size_t>(p)] = keys + below(rng, vocab - keys);
        ids[2 * p] = order[static_cast<std::size_t>(p)];
        ids[2 * p + 1] = value[static_cast<std::size_t>(p)];
    }
    // The queries: the pairs in a random order, each key followed by its value (what the model predicts there).
    std::vector<std::int64_t> asked(static_cast<std::size_t>(pairs));
    std::iota(asked.begin(), asked.end(), 0);
    for (std::int64_t i = pairs - 1; i > 0; --i)
        std::swap(asked[static_cast<std::size_t>(i)], asked[static_cast<std::size_t>(below(rng, i + 1))]);
    for (std::int64_t q = 0; q < pairs; ++q) {
        const std::size_t p = static_cast<std::size_t>(asked[static_cast<std::size_t>(q)]);
        const std::int64_t at = 2 * pairs + 2 * q;
        ids[at] = order[p];
        ids[at + 1] = value[p];
        targets[at] = value[p];
    }
    for (std::int64_t t = 4 * pairs; t < context; ++t) // a context that is not a multiple of 4
        ids[t] = keys + below(rng, vocab - keys);
}

} // namespace attnlab::train
