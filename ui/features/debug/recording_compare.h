#pragma once
// Compare With My Code's state: the recording a learner opened and how it compares with the book's
// forward on the same weights and input. The Session owns it and saves which file it compares; a
// recording brings its own weights and input and changes none of the settings.
#include "lessons/compare_recording.h"
#include "lessons/recording.h"

#include <QObject>
#include <QString>

#include <optional>

namespace attnlab::ui {

class RecordingCompare : public QObject {
    Q_OBJECT
public:
    enum class Outcome { Compared, Refused, NeedsNumHeads };
    explicit RecordingCompare(QObject* parent = nullptr);

    // Reads and compares `path`; num_heads > 0 overrides the recorded one. A refused file keeps the
    // previous comparison and sets error(); NeedsNumHeads: ask the learner, then open again with it.
    Outcome open(const QString& path, std::int64_t num_heads = 0);

    bool hasResult() const { return result_.has_value(); }
    const RecordingComparison& result() const { return *result_; }
    const Recording& recording() const { return *recording_; }
    QString path() const { return path_; }
    std::int64_t numHeads() const { return numHeads_; } // the num_heads the learner gave; 0: the recording's own
    QString error() const { return error_; }            // the last refusal, one sentence; empty after a success
    std::int64_t askedDOut() const { return dOut_; }    // with NeedsNumHeads: the d_out to split

Q_SIGNALS:
    void changed();

private:
    std::optional<Recording> recording_;
    std::optional<RecordingComparison> result_;
    QString path_, error_;
    std::int64_t numHeads_ = 0;
    std::int64_t dOut_ = 0;
};

} // namespace attnlab::ui
