#include "train/sweep_spec.h"

#include "call/config.h"
#include "tensor/error.h"

#include <algorithm>

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
    for (std::size_t i = 0; i < counts.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (counts[i] == counts[j])
                throw Error("num_heads " + std::to_string(counts[i]) +
                            " is listed twice; the same seeds would train the same runs again, so list each head "
                            "count once (more seeds give more runs of it).");
    if (counts.empty()) // emb below 1 has no divisors: check_run says why with the shape it refuses
        counts.push_back(1);
    std::vector<RunSettings> runs;
    for (std::int64_t h : counts)
        for (std::uint64_t seed : seed_list()) {
            RunSettings r = base;
            r.shape.n_heads = h;
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
