#include "train/sweep.h"

#include "train/parallel.h"

#include <cmath>

namespace attnlab::train {

std::vector<RunResult> run_sweep(const std::vector<RunSettings>& runs, int threads, const SweepHooks& hooks)
{
    for (const RunSettings& r : runs)
        check_run(r); // every refusal before anything trains
    std::vector<RunResult> results(runs.size());
    parallel_for(runs.size(), threads, [&](std::size_t i) {
        RunHooks h;
        h.cancel = hooks.cancel;
        if (hooks.on_step)
            h.on_step = [&, i](const StepReport& r) { hooks.on_step(i, r); };
        results[i] = train_run(runs[i], h);
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
