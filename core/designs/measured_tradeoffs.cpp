#include "designs/measured_tradeoffs.h"

#include "forward/experiment.h"
#include "forward/trace.h"
#include "tensor/error.h"
#include "tensor/threads.h"

#include <algorithm>
#include <chrono>

namespace attnlab {

TrainedLoss trained_loss(const GptModel& model)
{
    TrainedLoss t;
    t.num_heads = model.settings.n_heads;
    t.model = model.name;
    t.val_loss = model.meta_number("val_loss");
    t.val_mean = model.meta_number("val_loss_mean");
    t.val_std = model.meta_number("val_loss_std");
    t.train_mean = model.meta_number("train_loss_mean");
    t.train_std = model.meta_number("train_loss_std");
    t.seeds = model.meta("seeds", "?");
    t.how = "read from " + model.name + "'s metadata: mean cross-entropy (nats) on the story's held-out last 10%, " +
            "after " + model.meta("training_steps", "?") + " training steps; the file holds seed " +
            model.meta("seed", "?") + "'s model, the spread is over seeds " + t.seeds + ".";
    return t;
}

std::vector<HeadTiming> time_head_counts(const TimingQuery& q, const std::atomic<bool>* cancel,
                                         const std::function<void(std::size_t done, std::size_t total)>& progress)
{
    if (q.d_in < 1 || q.d_out < 1 || q.num_tokens < 1 || q.batch < 1 || q.repeats < 1)
        throw Error("timing needs positive d_in, d_out, tokens, batch and repeats.");
    std::vector<HeadTiming> out;
    const std::vector<std::int64_t> counts = divisors(q.d_out);
    for (std::int64_t heads : counts) {
        if (progress)
            progress(out.size(), counts.size());
        HeadTiming h;
        h.num_heads = heads;
        h.head_dim = q.d_out / heads;
        Config c;
        c.d_in = q.d_in;
        c.d_out = q.d_out;
        c.num_heads = heads;
        c.context_length = q.num_tokens;
        c.dropout = 0.0;
        const std::uint64_t need = estimate_memory_bytes(c, {q.batch, q.num_tokens});
        if (need > q.memory_budget) {
            h.skipped = true;
            h.how = "not run: it would hold " + format_bytes(need) + ", more than the " +
                    format_bytes(q.memory_budget) + " allowed for timing.";
            out.push_back(h);
            continue;
        }
        const StateDict weights = init_weights(c, 123);
        const Tensor x = random_input(c, q.batch, q.num_tokens, 124);
        ForwardOptions options;
        options.cancel = cancel;
        trace_forward(c, weights, x, options); // warm-up: first-touch pages and caches
        std::vector<double> ms;
        for (int r = 0; r < q.repeats; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            trace_forward(c, weights, x, options);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(ms.begin(), ms.end());
        h.median_ms = ms[ms.size() / 2];
        h.min_ms = ms.front();
        h.max_ms = ms.back();
        h.how = "median of " + std::to_string(q.repeats) + " timed runs after one warm-up: the engine's whole traced " +
                "forward (every stage recorded), seeded weights and input, " + std::to_string(engine_threads()) +
                " engine thread(s), on this machine.";
        out.push_back(h);
    }
    return out;
}

} // namespace attnlab
