#include "model/forward_job.h"

#include "model/job_failure.h"

#include "tensor/error.h"

#include <exception>

namespace attnlab::ui {

namespace {

// Work up to about GPT-2 small's attention at 16 tokens (a few ms of one core) is computed on the
// GUI thread: handing it to the worker and back costs more than that on a busy machine (two thread
// wake-ups), and the student waits for the whole round trip. Units: multiply-adds, plus the seeded
// initialisation's random numbers at ~20 each; only seeded weights on generated input, so no file
// or trained model is ever read on the GUI thread.
constexpr double kRunHereWork = 2.5e8;

bool smallEnoughToRunHere(const ExperimentSpec& spec)
{
    if (!spec.weights_path.empty() || (spec.input != InputSource::Random && spec.input != InputSource::Book))
        return false;
    const double rows = double(spec.batch) * double(spec.num_tokens);
    const double in = double(spec.config.d_in), out = double(spec.config.output_width());
    const double products = rows * (3 * in * out + out * out) + rows * double(spec.num_tokens) * out * 2;
    const double init = 4 * in * out;
    return 2 * products + 20 * init <= kRunHereWork;
}

} // namespace

ForwardJob::ForwardJob(QObject* parent) : QObject(parent), worker_(new LatestWorker(this)) {}

void ForwardJob::request(const ExperimentSpec& spec)
{
    auto task = [this, spec](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        ForwardResult result;
        try {
            result.trace = std::make_shared<const Trace>(run(prepare(spec), cancel));
        } catch (const Cancelled&) {
            result.cancelled = true;
        } catch (...) {
            result.error = currentFailureSentence();
        }
        return [this, result](LatestWorker::Outcome outcome) mutable {
            if (outcome != LatestWorker::Outcome::Current) { // only busy() changed, or the user stopped it
                result = ForwardResult{};
                result.cancelled = outcome == LatestWorker::Outcome::CancelledByUser;
                result.stale = outcome == LatestWorker::Outcome::Stale;
            }
            Q_EMIT finished(result);
        };
    };
    if (smallEnoughToRunHere(spec))
        worker_->runHere(task);
    else
        worker_->request(task);
}

} // namespace attnlab::ui
