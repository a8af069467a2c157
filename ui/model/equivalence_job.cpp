#include "model/equivalence_job.h"

#include <QMetaObject>

#include <algorithm>
#include <exception>

namespace attnlab::ui {

EquivalenceJob::EquivalenceJob(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1);
}

EquivalenceJob::~EquivalenceJob()
{
    if (cancel_)
        *cancel_ = true; // nobody will read the result
    pool_.waitForDone();
}

void EquivalenceJob::request(ExperimentSpec spec)
{
    spec.config.kind = ModuleKind::MultiHeadAttention;
    spec.training = false; // dropout off: both designs must see the same weights, unperturbed
    spec.num_tokens = std::min(spec.num_tokens, kMaxTokens);
    spec.batch = std::min(spec.batch, kMaxBatch);
    if (spec.input == InputSource::Book && (spec.num_tokens != 6 || spec.config.d_in != 3))
        spec.input = InputSource::Random;
    next_ = spec;
    ++generation_;
    pending_ = true;
    if (running_)
        *cancel_ = true;
    else
        start();
}

void EquivalenceJob::start()
{
    pending_ = false;
    running_ = true;
    running_spec_ = next_;
    const quint64 generation = generation_;
    const ExperimentSpec spec = next_;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    pool_.start([this, generation, spec, cancel = cancel_] {
        std::shared_ptr<const Equivalence> result;
        QString error;
        try {
            result = std::make_shared<const Equivalence>(check_equivalence(spec, cancel.get()));
        } catch (const std::exception& e) { // Cancelled included: only a superseded check is cancelled
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, generation, result, error] { finish(generation, result, error); }, Qt::QueuedConnection);
    });
}

void EquivalenceJob::finish(quint64 generation, std::shared_ptr<const Equivalence> result, const QString& error)
{
    running_ = false;
    cancel_.reset();
    const bool current = generation == generation_;
    if (current) {
        result_ = std::move(result);
        error_ = error;
        checked_ = running_spec_;
    }
    if (pending_)
        start();
    if (current)
        Q_EMIT finished();
}

} // namespace attnlab::ui
