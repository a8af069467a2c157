#include "model/forward_job.h"

#include "tensor/error.h"

#include <exception>

namespace attnlab::ui {

ForwardJob::ForwardJob(QObject* parent) : QObject(parent), worker_(new LatestWorker(this)) {}

void ForwardJob::request(const ExperimentSpec& spec)
{
    worker_->request([this, spec](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        ForwardResult result;
        try {
            result.trace = std::make_shared<const Trace>(run(prepare(spec), cancel));
        } catch (const Cancelled&) {
            result.cancelled = true;
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        return [this, result](LatestWorker::Outcome outcome) mutable {
            if (outcome != LatestWorker::Outcome::Current) { // only busy() changed, or the user stopped it
                result = ForwardResult{};
                result.cancelled = outcome == LatestWorker::Outcome::CancelledByUser;
                result.stale = outcome == LatestWorker::Outcome::Stale;
            }
            Q_EMIT finished(result);
        };
    });
}

} // namespace attnlab::ui
