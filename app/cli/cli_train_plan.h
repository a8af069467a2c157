#pragma once
// `train`'s work stated and bounded before it runs: the memory the sweep will hold checked against --max-memory
// and the machine (train/train_memory.h), a short measured calibration and the estimated time checked against
// train's hour (train/train_time.h), both refused in one sentence naming the setting; when the estimate says the
// sweep is long, the run count and the time on stderr before it starts, and its progress on stderr while it runs
// (never on stdout, which --json keeps for the document).
#include "train/sweep.h"
#include "train/train_memory.h"
#include "train/train_time.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace cli {

// Below this estimate a sweep is short: nothing is said on stderr.
inline constexpr double kStateWorkSeconds = 2.0;

struct TrainPlan {
    attnlab::train::SweepMemory memory;
    attnlab::train::SweepTime time;
    bool long_run = false; // the estimate reaches kStateWorkSeconds: stated, and its progress shown
};

// The checks in order (memory first: the calibration allocates one run), then the statement on stderr when the
// sweep is long. Throws attnlab::Error with the refusal's sentence.
TrainPlan plan_training(const std::vector<attnlab::train::RunSettings>& runs, int threads, std::uint64_t budget,
                        attnlab::train::Ablation ablation);

// Progress lines on stderr, at most one every two seconds and the last, from any thread: the steps done of all
// the sweep's steps and the runs finished, then the head reports finished. Silent unless the plan is long.
class TrainProgress {
public:
    TrainProgress(const std::vector<attnlab::train::RunSettings>& runs, bool shown);
    attnlab::train::SweepHooks hooks();  // for run_sweep
    std::function<void()> report_done(); // for head_reports

private:
    void say(const std::string& line, bool last);
    bool shown_;
    std::size_t runs_ = 0, runs_done_ = 0, reports_done_ = 0;
    std::int64_t steps_ = 0, steps_done_ = 0;
    std::chrono::steady_clock::time_point start_, said_;
    std::mutex mutex_;
};

} // namespace cli
