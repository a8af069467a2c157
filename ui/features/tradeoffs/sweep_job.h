#pragma once
// A sweep of the book's GPT over num_heads x num_kv_groups x seeds, trained by core (train/sweep.h) on a thread of its
// own with one run per core, owned by the Session so that no page holds long work. The runs report
// every step; what they reached is copied under a lock and told to the GUI thread at most ten times a
// second, so a 60-second sweep neither floods the event loop nor leaves the page without news.
// Training threads run at a lower priority than the GUI's, which keeps painting an edit within a frame.
// cancel() stops every run at its next step: finished runs stay whole, the others keep their curves.
#include "features/tradeoffs/sweep_results.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <utility>

class QTimer;

namespace attnlab::ui {

class SweepJob : public QObject {
    Q_OBJECT
public:
    explicit SweepJob(QObject* parent = nullptr);
    ~SweepJob() override; // stops the runs and waits for them

    // Refused with core's sentence (check_run), kept in error(), when the settings could not train;
    // nothing starts then, and the results shown before stay. false as well while a sweep runs.
    bool start(const SweepSettings& settings);
    void cancel();
    bool busy() const { return worker_ != nullptr; }
    bool cancelling() const { return busy() && cancel_->load(); }
    const QString& error() const { return error_; }
    // While busy(): what the runs have reached so far; afterwards the sweep's results (or a session file's).
    const SweepResults& results() const { return results_; }
    bool hasResults() const { return !results_.runs.empty(); }
    std::int64_t stepsDone() const { return stepsDone_; }
    std::int64_t stepsTotal() const { return stepsTotal_; }
    double elapsedSeconds() const;
    // From the pace since the sweep warmed up; nullopt until that pace can be trusted (see remainingSeconds).
    std::optional<double> secondsLeft() const;
    // The time left for `total` steps, from the pace between a mark taken once 2% of the steps were done
    // (the first steps run while threads start and caches fill, and are several times slower) and now;
    // nullopt until another 3% of the steps and at least a second have passed since the mark, so that
    // "about 4 min left" for a 7-second sweep is never said.
    static std::optional<double> remainingSeconds(double markSeconds, std::int64_t markSteps, double nowSeconds,
                                                  std::int64_t nowSteps, std::int64_t total);
    // A session file's results (nullopt: none), replacing whatever ran or was shown.
    void restore(const std::optional<SweepResults>& results);

Q_SIGNALS:
    void started();
    void progressed(); // throttled: at most every kProgressMs
    void finished();

private:
    struct Live;
    void poll();
    void finish(quint64 generation, std::vector<SweepRun> runs, QString error);
    void stopWorker();

    std::shared_ptr<Live> live_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    std::unique_ptr<std::thread> worker_;
    QTimer* timer_;
    QElapsedTimer clock_;
    quint64 generation_ = 0;
    SweepResults results_;
    QString error_;
    std::int64_t stepsDone_ = 0, stepsTotal_ = 0;
    std::optional<std::pair<double, std::int64_t>> paceMark_; // (seconds, steps) once 2% were done
};

} // namespace attnlab::ui
