#include "model/forward_job.h"

#include "tensor/error.h"

#include <QMetaObject>

#include <exception>

namespace attnlab::ui {

ForwardJob::ForwardJob(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1); // one forward pass at a time: they are memory-bound and large
}

ForwardJob::~ForwardJob()
{
    if (flag_)
        *flag_ = true; // nobody wants the result any more: closing the window should not wait for it
    pool_.waitForDone();
}

void ForwardJob::request(const ExperimentSpec& spec)
{
    next_ = spec;
    ++generation_;
    pending_ = true;
    stoppedByUser_ = false;
    if (running_)
        *flag_ = true; // stale: its result would be dropped; finish() starts the newest
    else
        start();
}

void ForwardJob::cancel()
{
    pending_ = false;
    if (running_)
        *flag_ = stoppedByUser_ = true;
}

void ForwardJob::start()
{
    pending_ = false;
    running_ = true;
    flag_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = generation_;
    pool_.start([this, generation, spec = next_, flag = flag_] {
        ForwardResult result;
        try {
            result.trace = std::make_shared<const Trace>(run(prepare(spec), flag.get()));
        } catch (const Cancelled&) {
            result.cancelled = true;
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        // Queued to the owner's thread; if the job is gone the event dies with it (the destructor waits).
        QMetaObject::invokeMethod(
            this, [this, generation, result] { finish(generation, result); }, Qt::QueuedConnection);
    });
}

void ForwardJob::finish(quint64 generation, ForwardResult result)
{
    running_ = false;
    flag_.reset();
    if (generation != generation_) { // overtaken by a newer request: its numbers are of old settings
        // ...unless the user cancelled, which dropped that newer request too: then say so.
        result = ForwardResult{};
        result.cancelled = stoppedByUser_;
        result.stale = !stoppedByUser_;
    }
    stoppedByUser_ = false;
    if (pending_)
        start();
    Q_EMIT finished(result);
}

} // namespace attnlab::ui
