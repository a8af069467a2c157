#include "train/sweep_spec.h"

#include "call/config.h"
#include "tensor/error.h"
#include "train/gpt_params.h"

#include <algorithm>
#include <numeric>
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

void refuse_repeats(const std::vector<std::int64_t>& counts, const char* what, const char* list)
{
    for (std::size_t i = 0; i < counts.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (counts[i] == counts[j])
                throw Error(std::string(what) + " " + std::to_string(counts[i]) +
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

std::vector<RunSettings> SweepSpec::expand() const
{
    RunSettings base;
    base.task = task;
    base.shape.vocab_size = vocab;
    base.shape.context_length = context;
    base.shape.emb_dim = emb;
    base.shape.n_layers = layers;
    base.shape.window = window;
    base.shape.drop_rate = task_defaults(task).drop_rate; // an unknown task is refused first, by name
    base.steps = steps;
    base.batch = batch;
    base.optimizer.lr = lr;
    base.optimizer.weight_decay = weight_decay;
    base.eval_every = eval_every();
    base.record_batches = record_batches;
    if (seeds < 1)
        throw Error("seeds is " + std::to_string(seeds) + "; a sweep needs at least 1 seed.");
    std::vector<std::int64_t> counts = head_list();
    refuse_repeats(counts, "num_heads", "head count");
    refuse_repeats(kv_groups, "num_kv_groups", "key/value group count");
    check_kv_groups(kv_groups, counts);
    if (counts.empty()) // emb below 1 has no divisors: check_run says why with the shape it refuses
        counts.push_back(1);
    std::vector<RunSettings> runs;
    for (std::int64_t h : counts)
        for (std::int64_t g : kv_group_list())
            for (std::uint64_t seed : seed_list()) {
                RunSettings r = base;
                r.shape.n_heads = h;
                r.shape.n_kv_groups = g == h ? 0 : g; // as many as the heads is the book's MultiHeadAttention
                r.seed = seed;
                check_run(r);
                runs.push_back(r);
            }
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
