#include "features/tradeoffs/sweep_job.h"

#include "model/job_failure.h"

#include <QMetaObject>
#include <QTimer>

#include <algorithm>
#include <mutex>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace attnlab::ui {

namespace {

constexpr int kProgressMs = 100; // ten updates a second: curves move smoothly, the event loop stays free

// Linux gives each thread its own nice value and threads inherit it from the one that starts them, so
// lowering the sweep's thread before it starts the runs' threads lowers them all.
void lowerThisThreadsPriority()
{
#if defined(__linux__)
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

// The finished runs' heads are measured here, on the sweep's thread, on as many threads as the runs trained.
std::vector<SweepRun> fromCore(const std::vector<train::RunResult>& results, int threads)
{
    const std::vector<train::HeadReport> reports = train::head_reports(results, threads);
    std::vector<SweepRun> runs;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const train::RunResult& r = results[i];
        SweepRun run;
        run.heads = r.settings.shape.n_heads;
        run.kvGroups = r.settings.shape.n_kv_groups;
        run.seed = r.settings.seed;
        run.evals = r.evals;
        run.stepsDone = static_cast<std::int64_t>(r.train_loss.size());
        run.msPerStep = r.ms_per_step;
        run.finished = !r.cancelled && !r.diverged();
        run.divergedAt = r.diverged_at;
        run.lossBefore = r.loss_before;
        run.report = reports[i].heads;
        run.ablationSkipped = reports[i].skipped;
        if (!r.cancelled)
            run.params = std::make_shared<const std::vector<float>>(r.params);
        runs.push_back(std::move(run));
    }
    return runs;
}

} // namespace

struct SweepJob::Live {
    std::mutex mutex;
    std::vector<SweepRun> runs;
    std::int64_t steps = 0;
    std::atomic<bool> dirty{false};
};

SweepJob::SweepJob(QObject* parent)
    : QObject(parent), cancel_(std::make_shared<std::atomic<bool>>(false)), timer_(new QTimer(this))
{
    timer_->setInterval(kProgressMs);
    connect(timer_, &QTimer::timeout, this, &SweepJob::poll);
}

SweepJob::~SweepJob()
{
    stopWorker();
}

bool SweepJob::start(const SweepSettings& settings)
{
    if (busy())
        return false;
    std::vector<train::RunSettings> runs;
    try {
        runs = sweepRuns(settings);
    } catch (...) {
        error_ = currentFailureSentence();
        return false;
    }
    error_.clear();
    const quint64 generation = ++generation_;
    live_ = std::make_shared<Live>();
    for (const train::RunSettings& r : runs) {
        SweepRun run;
        run.heads = r.shape.n_heads;
        run.kvGroups = r.shape.n_kv_groups;
        run.seed = r.seed;
        live_->runs.push_back(std::move(run));
    }
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    results_ = SweepResults{settings, live_->runs, 0.0, false};
    stepsDone_ = 0;
    paceMark_.reset();
    stepsTotal_ = static_cast<std::int64_t>(runs.size()) * settings.steps;
    clock_.start();
    const int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    worker_ = std::make_unique<std::thread>([this, live = live_, cancel = cancel_, runs, generation, threads] {
        lowerThisThreadsPriority();
        train::SweepHooks hooks;
        hooks.cancel = cancel.get();
        hooks.on_step = [live](std::size_t i, const train::StepReport& r) {
            const std::lock_guard<std::mutex> lock(live->mutex);
            SweepRun& run = live->runs[i];
            run.stepsDone = r.step;
            if (r.eval)
                run.evals.push_back(*r.eval);
            run.finished = r.step == r.steps;
            ++live->steps;
            live->dirty = true;
        };
        std::vector<SweepRun> done;
        QString error;
        try {
            done = fromCore(train::run_sweep(runs, threads, hooks), threads);
        } catch (...) {
            error = currentFailureSentence();
        }
        // Posted to the job's thread; a job destroyed first joins this thread, and its pending events go with it.
        QMetaObject::invokeMethod(
            this,
            [this, generation, done = std::move(done), error]() mutable { finish(generation, std::move(done), error); },
            Qt::QueuedConnection);
    });
    timer_->start();
    Q_EMIT started();
    return true;
}

void SweepJob::cancel()
{
    if (!busy() || cancel_->exchange(true))
        return;
    Q_EMIT progressed(); // "cancelling" until the runs reach their next step
}

double SweepJob::elapsedSeconds() const
{
    return busy() ? static_cast<double>(clock_.elapsed()) / 1000.0 : results_.wallSeconds;
}

std::optional<double> SweepJob::secondsLeft() const
{
    if (!busy() || !paceMark_)
        return std::nullopt;
    return remainingSeconds(paceMark_->first, paceMark_->second, elapsedSeconds(), stepsDone_, stepsTotal_);
}

std::optional<double> SweepJob::remainingSeconds(double markSeconds, std::int64_t markSteps, double nowSeconds,
                                                 std::int64_t nowSteps, std::int64_t total)
{
    const std::int64_t enough = std::max<std::int64_t>(1, (3 * total + 99) / 100);
    if (total <= 0 || nowSteps - markSteps < enough || nowSeconds - markSeconds < 1.0)
        return std::nullopt;
    const double pace = (nowSeconds - markSeconds) / static_cast<double>(nowSteps - markSteps);
    return pace * static_cast<double>(std::max<std::int64_t>(total - nowSteps, 0));
}

void SweepJob::poll()
{
    if (!live_ || !live_->dirty.exchange(false))
        return;
    {
        const std::lock_guard<std::mutex> lock(live_->mutex);
        results_.runs = live_->runs;
        stepsDone_ = live_->steps;
    }
    if (!paceMark_ && stepsDone_ >= std::max<std::int64_t>(1, (2 * stepsTotal_ + 99) / 100))
        paceMark_ = std::pair{elapsedSeconds(), stepsDone_};
    Q_EMIT progressed();
}

void SweepJob::finish(quint64 generation, std::vector<SweepRun> runs, QString error)
{
    if (generation != generation_)
        return; // restored from a file meanwhile
    const double wall = static_cast<double>(clock_.elapsed()) / 1000.0;
    const bool cancelled = cancel_->load();
    stopWorker();
    if (error.isEmpty()) {
        results_.runs = std::move(runs);
    } else { // what the runs reached before the failure stays on screen, with its sentence
        const std::lock_guard<std::mutex> lock(live_->mutex);
        results_.runs = live_->runs;
    }
    live_.reset();
    error_ = error;
    // A run the cancel caught before its first step has nothing to show.
    std::erase_if(results_.runs, [](const SweepRun& r) { return !r.finished && r.stepsDone == 0; });
    results_.wallSeconds = wall;
    results_.cancelled = cancelled || !error.isEmpty();
    stepsDone_ = 0;
    for (const SweepRun& r : results_.runs)
        stepsDone_ += r.stepsDone;
    Q_EMIT finished();
}

void SweepJob::restore(const std::optional<SweepResults>& results)
{
    stopWorker();
    ++generation_;
    live_.reset();
    results_ = results.value_or(SweepResults{});
    error_.clear();
    stepsDone_ = stepsTotal_ = 0;
    for (const SweepRun& r : results_.runs)
        stepsDone_ += r.stepsDone;
    Q_EMIT finished();
}

void SweepJob::stopWorker()
{
    timer_->stop();
    if (!worker_)
        return;
    cancel_->store(true);
    worker_->join();
    worker_.reset();
}

} // namespace attnlab::ui
