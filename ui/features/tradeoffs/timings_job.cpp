#include "features/tradeoffs/timings_job.h"

#include "model/job_failure.h"

#include "tensor/error.h"

#include <QMetaObject>

#include <memory>

namespace attnlab::ui {

TimingsJob::TimingsJob(QObject* parent) : QObject(parent), worker_(new LatestWorker(this)) {}

void TimingsJob::request(const TimingQuery& query)
{
    asked_ = query;
    done_ = 0;
    total_ = divisors(query.d_out).size();
    worker_->request([this, query](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        auto timings = std::make_shared<std::vector<HeadTiming>>();
        QString error;
        // Heard on the worker thread, told on the owner's: the job outlives its worker (a child that waits).
        const auto progress = [this, cancel](std::size_t done, std::size_t total) {
            if (*cancel)
                return;
            QMetaObject::invokeMethod(
                this,
                [this, done, total] {
                    done_ = done;
                    total_ = total;
                    Q_EMIT progressed();
                },
                Qt::QueuedConnection);
        };
        bool cancelled = false;
        try {
            *timings = time_head_counts(query, cancel, progress);
        } catch (const Cancelled&) {
            cancelled = true;
        } catch (...) {
            error = currentFailureSentence();
        }
        return [this, query, timings, error, cancelled](LatestWorker::Outcome outcome) {
            if (outcome == LatestWorker::Outcome::Stale)
                return; // a newer request's delivery follows
            if (cancelled || outcome == LatestWorker::Outcome::CancelledByUser) {
                Q_EMIT finished(); // stopped on request: what was measured before stays
                return;
            }
            measured_ = query;
            timings_ = std::move(*timings);
            error_ = error;
            Q_EMIT finished();
        };
    });
    Q_EMIT started();
}

} // namespace attnlab::ui
