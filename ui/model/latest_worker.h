#pragma once
// One computation at a time on a worker thread, where only the newest request matters: requests that
// arrive meanwhile collapse into the newest, and the running one -- now stale -- is cancelled at its
// next stage boundary instead of being finished and thrown away, so edits at 1,024 tokens x batch 8
// do not queue behind old work. The forward pass and the equivalence check both run through it.
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace attnlab::ui {

class LatestWorker : public QObject {
    Q_OBJECT
public:
    // How a computation ended, as its delivery hears on the owner's thread.
    enum class Outcome {
        Current,         // the newest request's result
        Stale,           // overtaken by a newer request: its numbers are of old settings
        CancelledByUser, // overtaken, but cancel() dropped the newer request too
    };
    using Delivery = std::function<void(Outcome)>;
    // Runs on the worker thread; stops at its next stage boundary once *cancel turns true. What it
    // returns is called on the owner's thread, after the next computation (if any) has started.
    using Task = std::function<Delivery(const std::atomic<bool>* cancel)>;

    explicit LatestWorker(QObject* parent = nullptr);
    ~LatestWorker() override; // cancels the running computation and waits for its thread

    void request(Task task);
    // The same, computed right here on the owner's thread: for work too small to be worth a thread
    // hop (the book's six tokens). It overtakes whatever runs or waits, as a newer request does, and
    // its delivery is queued like a worker's, so callers see the same order of events either way.
    void runHere(const Task& task);
    // Forgets a request not started yet. A running one goes on, since it may still deliver a valid result.
    void dropPending() { pending_ = nullptr; }
    // Stops the running computation at its next stage boundary and forgets any pending request.
    void cancel();
    bool busy() const { return running_ || pending_ || deliveringHere_ > 0; }
    bool cancelling() const { return running_ && flag_ && flag_->load(); }

private:
    static Delivery runGuarded(const Task& task, const std::atomic<bool>* cancel);
    void start();
    void finish(quint64 generation, const Delivery& delivery);

    QThreadPool pool_;
    Task pending_;
    std::shared_ptr<std::atomic<bool>> flag_; // the running computation's cancel flag
    quint64 generation_ = 0;
    bool running_ = false;
    bool stoppedByUser_ = false; // cancel() was called on the running computation
    int deliveringHere_ = 0;     // runHere() results queued for delivery
};

} // namespace attnlab::ui
