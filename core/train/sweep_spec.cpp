#include "train/sweep_spec.h"

#include "call/config.h"
#include "tensor/error.h"
#include "train/gpt_params.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

namespace attnlab::train {

std::vector<std::int64_t> SweepSpec::head_list() const
{
    return heads.empty() ? divisors(emb) : heads;
}

std::vector<std::uint64_t> SweepSpec::seed_list() const
{
    std::vector<std::uint64_t> out;
    for (std::int64_t k = 0; k < seeds; ++k)
        out.push_back(first_seed + static_cast<std::uint64_t>(k));
    return out;
}

std::vector<std::int64_t> SweepSpec::kv_group_list() const
{
    return kv_groups.empty() ? std::vector<std::int64_t>{0} : kv_groups;
}

namespace {

// The first count seen before, in one pass: a list read from a file may be long.
void refuse_repeats(const std::vector<std::int64_t>& counts, const char* what, const char* list)
{
    std::set<std::int64_t> seen;
    for (std::int64_t c : counts)
        if (!seen.insert(c).second)
            throw Error(std::string(what) + " " + std::to_string(c) +
                        " is listed twice; the same seeds would train the same runs again, so list each " + list +
                        " once (more seeds give more runs of it).");
}

// Each key/value group count has to divide every head count: the common divisors are the ones that can.
void check_kv_groups(const std::vector<std::int64_t>& kv, const std::vector<std::int64_t>& heads)
{
    std::int64_t common = 0;
    for (std::int64_t h : heads)
        common = std::gcd(common, h);
    for (std::int64_t g : kv)
        for (std::int64_t h : heads)
            if (g < 1 || h % g != 0)
                throw Error("num_kv_groups " + std::to_string(g) + " does not divide num_heads " + std::to_string(h) +
                            "; the key/value group counts that divide every head count are " + divisor_list(common) +
                            ".");
}

} // namespace

std::int64_t SweepSpec::eval_every() const
{
    return std::clamp<std::int64_t>(steps / 20, 1, 100);
}

namespace {

// Every setting but num_heads, num_kv_groups and the seed, as each run gets it.
RunSettings base_run(const SweepSpec& s)
{
    RunSettings base;
    base.task = s.task;
    base.shape.vocab_size = s.vocab;
    base.shape.context_length = s.context;
    base.shape.emb_dim = s.emb;
    base.shape.n_layers = s.layers;
    base.shape.window = s.window;
    base.shape.drop_rate = task_defaults(s.task).drop_rate; // an unknown task is refused first, by name
    base.steps = s.steps;
    base.batch = s.batch;
    base.optimizer.lr = s.lr;
    base.optimizer.weight_decay = s.weight_decay;
    base.eval_every = s.eval_every();
    base.record_batches = s.record_batches;
    return base;
}

// The head counts, checked as a list: seeds, repeats, the group counts' divisibility.
std::vector<std::int64_t> checked_counts(const SweepSpec& s)
{
    if (s.seeds < 1)
        throw Error("seeds is " + std::to_string(s.seeds) + "; a sweep needs at least 1 seed.");
    std::vector<std::int64_t> counts = s.head_list();
    refuse_repeats(counts, "num_heads", "head count");
    refuse_repeats(s.kv_groups, "num_kv_groups", "key/value group count");
    check_kv_groups(s.kv_groups, counts);
    if (counts.empty()) // emb below 1 has no divisors: check_run says why with the shape it refuses
        counts.push_back(1);
    return counts;
}

RunSettings variant(const RunSettings& base, std::int64_t heads, std::int64_t groups, std::uint64_t seed)
{
    RunSettings r = base;
    r.shape.n_heads = heads;
    r.shape.n_kv_groups = groups == heads ? 0 : groups; // as many as the heads is the book's MultiHeadAttention
    r.seed = seed;
    return r;
}

} // namespace

void SweepSpec::check() const
{
    const RunSettings base = base_run(*this);
    for (std::int64_t h : checked_counts(*this))
        for (std::int64_t g : kv_group_list())
            check_run(variant(base, h, g, first_seed));
}

std::vector<RunSettings> SweepSpec::expand() const
{
    check();
    const RunSettings base = base_run(*this);
    std::vector<RunSettings> runs;
    for (std::int64_t h : checked_counts(*this))
        for (std::int64_t g : kv_group_list())
            for (std::uint64_t seed : seed_list())
                runs.push_back(variant(base, h, g, seed));
    return runs;
}

SweepSpec sweep_defaults(const std::string& task)
{
    const TaskSettings d = task_defaults(task);
    SweepSpec s;
    s.task = task;
    s.vocab = d.vocab;
    s.context = d.context;
    s.emb = d.emb;
    s.layers = d.layers;
    s.steps = d.steps;
    s.batch = d.batch;
    s.lr = d.lr;
    s.weight_decay = d.weight_decay;
    return s;
}

} // namespace attnlab::train
