#include "cli/cli_train_plan.h"

#include "forward/experiment.h"
#include "forward/experiment_check.h"

#include <cstdio>

namespace cli {

using namespace attnlab;
using namespace attnlab::train;

TrainPlan plan_training(const std::vector<RunSettings>& runs, int threads, std::uint64_t budget, Ablation ablation)
{
    TrainPlan plan;
    plan.memory = sweep_memory(runs, threads, process_baseline_bytes());
    check_sweep_memory(plan.memory, costliest_run(runs), budget, machine_memory_bytes());
    plan.time = estimate_sweep_time(runs, threads, calibrate(costliest_run(runs)), ablation);
    check_sweep_time(plan.time, runs.front());
    plan.long_run = plan.time.total() >= kStateWorkSeconds;
    if (plan.long_run) {
        const SweepTime& t = plan.time;
        std::fprintf(stderr,
                     "train: %zu run(s) of %lld steps, about %s on %d thread(s) (%s of training, %s of head "
                     "reports), estimated from a measured step (%s) and held-out pass of the largest run; it "
                     "holds about %s; progress follows.\n",
                     t.runs, static_cast<long long>(runs.front().steps), duration_text(t.total()).c_str(), t.threads,
                     duration_text(t.training).c_str(), duration_text(t.reports).c_str(),
                     duration_text(t.measured.step_seconds).c_str(), format_bytes(plan.memory.total()).c_str());
        std::fflush(stderr);
    }
    return plan;
}

TrainProgress::TrainProgress(const std::vector<RunSettings>& runs, bool shown)
    : shown_(shown), runs_(runs.size()), start_(std::chrono::steady_clock::now()), said_(start_)
{
    for (const RunSettings& r : runs)
        steps_ += r.steps;
}

void TrainProgress::say(const std::string& line, bool last)
{
    const auto now = std::chrono::steady_clock::now();
    if (!last && now - said_ < std::chrono::seconds(2))
        return;
    said_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "train: %s (%s)\n", line.c_str(), duration_text(elapsed).c_str());
    std::fflush(stderr);
}

SweepHooks TrainProgress::hooks()
{
    SweepHooks h;
    if (!shown_)
        return h;
    h.on_step = [this](std::size_t, const StepReport&) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++steps_done_;
        say(std::to_string(steps_done_) + " of " + std::to_string(steps_) + " steps, " + std::to_string(runs_done_) +
                " of " + std::to_string(runs_) + " runs done",
            false);
    };
    h.on_done = [this](std::size_t) {
        std::lock_guard<std::mutex> lock(mutex_);
        ++runs_done_;
        say(std::to_string(runs_done_) + " of " + std::to_string(runs_) + " runs done", runs_done_ == runs_);
    };
    return h;
}

std::function<void()> TrainProgress::report_done()
{
    if (!shown_)
        return {};
    return [this] {
        std::lock_guard<std::mutex> lock(mutex_);
        ++reports_done_;
        say(std::to_string(reports_done_) + " of " + std::to_string(runs_) + " head reports done",
            reports_done_ == runs_);
    };
}

} // namespace cli
