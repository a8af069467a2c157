#include "features/designs/equivalence_job.h"

#include "model/job_failure.h"

#include <algorithm>
#include <exception>

namespace attnlab::ui {

EquivalenceJob::EquivalenceJob(QObject* parent) : QObject(parent), worker_(new LatestWorker(this)) {}

void EquivalenceJob::request(ExperimentSpec spec)
{
    // A grouped-query module slices into a wrapper as it is (its heads of one group get the same keys); a
    // wrapper's file does not load into the integrated module: seeded, as its call.
    if (!spec.config.is_integrated()) {
        spec.weights_path.clear();
        spec.config.kind = ModuleKind::MultiHeadAttention;
    }
    spec.training = false; // dropout off: both designs must see the same weights, unperturbed
    spec.num_tokens = std::min(spec.num_tokens, kMaxTokens);
    spec.batch = std::min(spec.batch, kMaxBatch);
    // Capped, the book's six tokens no longer fit; a sentence is one trained layer's input, not a design's.
    if ((spec.input == InputSource::Book && !book_input_fits(spec.config, spec.num_tokens)) ||
        spec.input == InputSource::Text)
        spec.input = InputSource::Random;
    worker_->request([this, spec](const std::atomic<bool>* cancel) -> LatestWorker::Delivery {
        std::shared_ptr<const Equivalence> result;
        QString error;
        try {
            result = std::make_shared<const Equivalence>(check_equivalence(spec, cancel));
        } catch (...) { // Cancelled included: only a superseded check is cancelled
            error = currentFailureSentence();
        }
        return [this, spec, result, error](LatestWorker::Outcome outcome) {
            if (outcome != LatestWorker::Outcome::Current)
                return;
            result_ = result;
            error_ = error;
            checked_ = spec;
            Q_EMIT finished();
        };
    });
}

} // namespace attnlab::ui
