#pragma once
// Times the forward pass for every valid num_heads of a width (core/designs/measured_tradeoffs.h) on a
// worker, on request only: it takes seconds and keeps a core busy. The last measurement stays until the
// next one ends, with the query it answers, so a view can say which settings the times are of.
#include "designs/measured_tradeoffs.h"
#include "model/latest_worker.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

namespace attnlab::ui {

class TimingsJob : public QObject {
    Q_OBJECT
public:
    explicit TimingsJob(QObject* parent = nullptr);

    void request(const TimingQuery& query);
    void cancel() { worker_->cancel(); }
    bool busy() const { return worker_->busy(); }
    // What is being measured while busy(), else what the result is of (nullopt before any).
    const std::optional<TimingQuery>& query() const { return busy() ? asked_ : measured_; }
    const std::vector<HeadTiming>& timings() const { return timings_; }
    const QString& error() const { return error_; } // why the last measurement has no numbers
    // While busy(): head counts timed so far, of how many.
    std::size_t done() const { return done_; }
    std::size_t total() const { return total_; }

Q_SIGNALS:
    void started();
    void progressed();
    void finished();

private:
    LatestWorker* worker_;
    std::optional<TimingQuery> asked_, measured_;
    std::vector<HeadTiming> timings_;
    QString error_;
    std::size_t done_ = 0, total_ = 0;
};

} // namespace attnlab::ui
