#pragma once
// The session's forward pass on a worker thread (latest_worker.h: the newest request wins, stale work
// is cancelled). cancel() stops it on the user's word; the result of a request overtaken by a newer
// one is never delivered.
#include "forward/experiment.h"
#include "forward/trace.h"
#include "model/latest_worker.h"

#include <QObject>
#include <QString>

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

    void request(const ExperimentSpec& spec);
    // The newest settings cannot be computed: forget a request not started yet. A running one goes on,
    // since it may still deliver a valid trace to keep on screen.
    void dropPending() { worker_->dropPending(); }
    // Stops the running computation at its next stage boundary and forgets any pending request.
    void cancel() { worker_->cancel(); }
    bool busy() const { return worker_->busy(); }
    bool cancelling() const { return worker_->cancelling(); }

Q_SIGNALS:
    // Once per computation, on the thread that owns the job, after the next one (if any) has started.
    void finished(const attnlab::ui::ForwardResult& result);

private:
    LatestWorker* worker_;
};

} // namespace attnlab::ui
