#pragma once
// The session's forward pass on a worker thread. One computation at a time; requests that arrive
// meanwhile collapse into the newest, and the running one -- now stale -- is cancelled at its next
// stage boundary instead of being finished and thrown away, so edits at 1,024 tokens x batch 8 do not
// queue behind old work. cancel() stops it on the user's word; the result of a request overtaken by
// a newer one is never delivered.
#include "forward/experiment.h"
#include "forward/trace.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace attnlab::ui {

// What one computation came to: a trace, or the sentence that refused it, or neither when it was
// cancelled. A computation overtaken by a newer request is `stale`: only busy() changed.
struct ForwardResult {
    std::shared_ptr<const Trace> trace;
    QString error;
    bool cancelled = false;
    bool stale = false;
};

class ForwardJob : public QObject {
    Q_OBJECT
public:
    explicit ForwardJob(QObject* parent = nullptr);
    ~ForwardJob() override; // cancels the running computation and waits for its thread

    void request(const ExperimentSpec& spec);
    // The newest settings cannot be computed: forget a request not started yet. A running one goes on,
    // since it may still deliver a valid trace to keep on screen.
    void dropPending() { pending_ = false; }
    // Stops the running computation at its next stage boundary and forgets any pending request.
    void cancel();
    bool busy() const { return running_ || pending_; }
    bool cancelling() const { return running_ && flag_ && flag_->load(); }

Q_SIGNALS:
    // Once per computation, on the thread that owns the job, after the next one (if any) has started.
    void finished(const attnlab::ui::ForwardResult& result);

private:
    void start();
    void finish(quint64 generation, ForwardResult result);

    QThreadPool pool_;
    ExperimentSpec next_;
    std::shared_ptr<std::atomic<bool>> flag_; // the running computation's cancel flag
    quint64 generation_ = 0;
    bool running_ = false;
    bool pending_ = false;
    bool stoppedByUser_ = false; // cancel() was called on the running computation
};

} // namespace attnlab::ui
