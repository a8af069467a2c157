#include "train/sweep.h"

#include "tensor/threads.h"

#include <cmath>
#include <exception>
#include <thread>

namespace attnlab::train {

std::vector<RunResult> run_sweep(const std::vector<RunSettings>& runs, int threads, const SweepHooks& hooks)
{
    for (const RunSettings& r : runs)
        check_run(r); // every refusal before anything trains
    if (threads < 1)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads), runs.size()));
    const int before = engine_threads();
    set_engine_threads(1);
    std::vector<RunResult> results(runs.size());
    std::vector<std::exception_ptr> errors(runs.size());
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < runs.size(); i = next++) {
            RunHooks h;
            h.cancel = hooks.cancel;
            if (hooks.on_step)
                h.on_step = [&, i](const StepReport& r) { hooks.on_step(i, r); };
            try {
                results[i] = train_run(runs[i], h);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    set_engine_threads(before);
    for (const std::exception_ptr& e : errors)
        if (e)
            std::rethrow_exception(e);
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
