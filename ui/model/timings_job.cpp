#include "model/timings_job.h"

#include "tensor/error.h"

#include <memory>

namespace attnlab::ui {

TimingsJob::TimingsJob(QObject* parent) : QObject(parent), worker_(new LatestWorker(this)) {}

void TimingsJob::request(const TimingQuery& query)
{
    query_ = query;
    worker_->request([this, query](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        auto timings = std::make_shared<std::vector<HeadTiming>>();
        QString error;
        try {
            *timings = time_head_counts(query, cancel);
        } catch (const std::exception& e) { // Cancelled included: what was asked is not measured
            error = QString::fromUtf8(e.what());
        }
        return [this, query, timings, error](LatestWorker::Outcome outcome) {
            if (outcome == LatestWorker::Outcome::Stale)
                return; // a newer request's delivery follows
            query_ = query;
            timings_ = std::move(*timings);
            error_ = error;
            Q_EMIT finished();
        };
    });
    Q_EMIT started();
}

} // namespace attnlab::ui
