#pragma once
// Runs the core's equivalence check (a matched-width wrapper sliced from the integrated weights
// against the integrated module's context.merged) off the GUI thread, for the comparison view.
// The check is capped at kMaxTokens tokens and kMaxBatch sequences: the module is causal, so the
// first tokens' outputs do not depend on the later ones, and the comparison stays instant even for
// 1,024-token settings. The newest request wins: a running check it overtakes is cancelled at its
// next stage boundary (its result would be dropped anyway).
#include "designs/equivalence.h"
#include "model/latest_worker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace attnlab::ui {

class EquivalenceJob : public QObject {
    Q_OBJECT
public:
    static constexpr std::int64_t kMaxTokens = 32;
    static constexpr std::int64_t kMaxBatch = 2;

    explicit EquivalenceJob(QObject* parent = nullptr);

    // spec.config may be a MultiHeadAttention or a wrapper call (read as the same arguments).
    void request(ExperimentSpec spec);
    bool busy() const { return worker_->busy(); }
    std::shared_ptr<const Equivalence> result() const { return result_; } // null when not computable
    const QString& error() const { return error_; }                       // why there is no result
    const ExperimentSpec& checkedSpec() const { return checked_; }        // the capped request behind result()

Q_SIGNALS:
    void finished();

private:
    LatestWorker* worker_;
    ExperimentSpec checked_;
    std::shared_ptr<const Equivalence> result_;
    QString error_;
};

} // namespace attnlab::ui
