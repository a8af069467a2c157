#include "train/sweep.h"

#include "train/parallel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab::train {

std::vector<RunResult> run_sweep(const std::vector<RunSettings>& runs, int threads, const SweepHooks& hooks)
{
    for (const RunSettings& r : runs)
        check_run(r); // every refusal before anything trains
    std::vector<RunResult> results(runs.size());
    // Longest first, so the last runs to start are short ones and no core waits long at the end; a step's
    // cost grows with its activations (at more heads mostly the batch x heads x T x T weights).
    std::vector<std::size_t> order(runs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto cost = [&](std::size_t i) { return static_cast<double>(runs[i].steps) * activation_bytes(runs[i]); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return cost(a) > cost(b); });
    parallel_for(runs.size(), threads, [&](std::size_t k) {
        const std::size_t i = order[k];
        RunHooks h;
        h.cancel = hooks.cancel;
        if (hooks.on_step)
            h.on_step = [&, i](const StepReport& r) { hooks.on_step(i, r); };
        results[i] = train_run(runs[i], h);
        if (hooks.on_done)
            hooks.on_done(i);
    });
    return results;
}

Spread spread(const std::vector<double>& values)
{
    Spread s;
    if (values.empty())
        return s;
    for (double v : values)
        s.mean += v;
    s.mean /= static_cast<double>(values.size());
    if (values.size() > 1) {
        double sq = 0.0;
        for (double v : values)
            sq += (v - s.mean) * (v - s.mean);
        s.std = std::sqrt(sq / static_cast<double>(values.size() - 1));
    }
    return s;
}

} // namespace attnlab::train
