#include "model/latest_worker.h"

#include <QMetaObject>

namespace attnlab::ui {

LatestWorker::LatestWorker(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1); // one computation at a time: they are memory-bound and large
}

LatestWorker::~LatestWorker()
{
    if (flag_)
        *flag_ = true; // nobody wants the result any more: closing the window should not wait for it
    pool_.waitForDone();
}

void LatestWorker::request(Task task)
{
    pending_ = std::move(task);
    ++generation_;
    stoppedByUser_ = false;
    if (running_)
        *flag_ = true; // stale: its result would be dropped; finish() starts the newest
    else
        start();
}

void LatestWorker::runHere(const Task& task)
{
    pending_ = nullptr;
    const quint64 generation = ++generation_;
    stoppedByUser_ = false;
    if (running_)
        *flag_ = true; // stale now: finish() will report it as such
    const std::atomic<bool> never{false};
    const Delivery delivery = runGuarded(task, &never);
    ++deliveringHere_;
    QMetaObject::invokeMethod(
        this,
        [this, generation, delivery] {
            --deliveringHere_;
            // A newer request since then makes this one stale, as it would a worker's.
            if (delivery)
                delivery(generation == generation_ ? Outcome::Current : Outcome::Stale);
        },
        Qt::QueuedConnection);
}

void LatestWorker::cancel()
{
    pending_ = nullptr;
    if (running_)
        *flag_ = stoppedByUser_ = true;
}

LatestWorker::Delivery LatestWorker::runGuarded(const Task& task, const std::atomic<bool>* cancel)
{
    // The tasks catch what their computation throws and deliver it as a sentence; should anything still
    // escape, it must not end the program (from a pool thread it would): the owner hears nothing new.
    try {
        return task(cancel);
    } catch (...) {
        return nullptr;
    }
}

void LatestWorker::start()
{
    running_ = true;
    flag_ = std::make_shared<std::atomic<bool>>(false);
    const quint64 generation = generation_;
    pool_.start([this, generation, task = std::move(pending_), flag = flag_] {
        const Delivery delivery = runGuarded(task, flag.get());
        // Queued to the owner's thread; if the worker is gone the event dies with it (the destructor waits).
        QMetaObject::invokeMethod(
            this, [this, generation, delivery] { finish(generation, delivery); }, Qt::QueuedConnection);
    });
    pending_ = nullptr;
}

void LatestWorker::finish(quint64 generation, const Delivery& delivery)
{
    running_ = false;
    flag_.reset();
    const Outcome outcome = generation == generation_ ? Outcome::Current
                            : stoppedByUser_          ? Outcome::CancelledByUser
                                                      : Outcome::Stale;
    stoppedByUser_ = false;
    if (pending_)
        start();
    if (delivery)
        delivery(outcome);
}

} // namespace attnlab::ui
