#pragma once
// The injected-bug lesson's state: the chosen bug, and the core's diagnosis of it on the session's
// settings -- the book's forward and the buggy one on the same weights and input, compared stage by
// stage. The input is capped to a small batch and token count so the comparison stays instant; the
// views only read what diagnose() returned.
#include "lessons/bugs.h"
#include "lessons/divergence.h"
#include "model/change_events.h"

#include <QObject>
#include <QString>

#include <optional>

namespace attnlab::ui {

class DocumentModel;

class BugLesson : public QObject {
    Q_OBJECT
public:
    static constexpr std::int64_t kMaxBatch = 2;
    static constexpr std::int64_t kMaxTokens = 16;

    explicit BugLesson(DocumentModel* document, QObject* parent = nullptr);
    // New settings or another bug: diagnosed again now when the lesson is on screen (or the bug is new), else marked
    // stale.
    void documentChanged(ChangeFlags flags);

    Bug bug() const; // the document's choice (lesson_state.h)
    void setBug(Bug bug);
    // Recomputes only while active (the lesson is on screen); a stale lesson catches up on activation.
    void setActive(bool active);

    const std::optional<Diagnosis>& diagnosis() const { return diagnosis_; }
    QString error() const { return error_; } // why nothing could be compared; empty otherwise
    std::int64_t batch() const { return batch_; }
    std::int64_t numTokens() const { return tokens_; }
    bool capped() const { return capped_; } // the session's input was larger than what was run
    int firstDivergenceRow() const;         // index into diagnosis()->stages; -1 when none
    int selectedRow() const { return selected_; }
    // A lesson step holding the answer back (GuideState::held): the views mark no first divergence and nothing is
    // selected for the student; revealing selects the first divergence.
    void setAnswerHeld(bool held);
    bool answerHeld() const { return held_; }
    void setSelectedRow(int row);
    const Stage* bookStage(int row) const;  // the book's stage for a row; null for "config"
    const Stage* buggyStage(int row) const; // what the buggy run computed; null when it did not

Q_SIGNALS:
    void changed();     // a new diagnosis (or error)
    void rowSelected(); // the selected row moved

private:
    void recompute();

    DocumentModel* document_;
    Bug diagnosed_ = Bug::SkipHeadTranspose; // the bug diagnosis_ is of
    bool active_ = false;
    bool stale_ = true;
    std::optional<Diagnosis> diagnosis_;
    QString error_;
    std::int64_t batch_ = 0;
    std::int64_t tokens_ = 0;
    bool capped_ = false;
    bool held_ = false;
    int selected_ = -1;
};

} // namespace attnlab::ui
