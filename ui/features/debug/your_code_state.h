#pragma once
// Compare With My Code, in the Debugging tab: the learner's recording and how it compares with the book's forward
// (recording_compare.h). Its part of a session file is which file it compares ("comparison"): opening the session
// reads that file again.
#include <QJsonObject>
#include <QObject>

namespace attnlab::ui {

class RecordingCompare;

// Held by the Debugging tab's state (debug_state.h), whose section "Your code" shows it.
class YourCodeState : public QObject {
    Q_OBJECT
public:
    explicit YourCodeState(QObject* parent = nullptr);

    RecordingCompare* comparison() const { return comparison_; }
    void saveSection(QJsonObject& file) const;
    void restoreSection(const QJsonObject& file);
    static bool checkSection(const QJsonObject& file, QString* error);

Q_SIGNALS:
    void comparisonChanged(); // another recording, or the same compared again

private:
    RecordingCompare* comparison_;
};

} // namespace attnlab::ui
