#pragma once
// Undo/redo of every settings edit and every choice in the Debugging tab's lessons. The session is the one place
// settings change, so the history watches it: each edit (a spin box, the call line, a preset, a fix, an opened session)
// becomes one command holding the settings before and after; keystrokes into the same field within a moment merge.
#include "forward/experiment.h"
#include "model/lesson_state.h"
#include "model/study_state.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QUndoCommand>

class QUndoStack;

namespace attnlab::ui {

class Session;
class SettingsHistory;

struct SettingsSnapshot {
    ExperimentSpec spec;
    QString callText;
    bool bookInput = false;
    LessonState lessons;        // the lessons' choices; the open section is where the student looks, not a choice
    ElementSelection selection; // the element followed: picking another is undone like an edit
};
SettingsSnapshot snapshotOf(const Session& session);
bool sameSettings(const SettingsSnapshot& a, const SettingsSnapshot& b);

// What one edit changed; edits of the same field close together merge. Settings (several at once) and Weights
// (a file loaded) and Selection (another element clicked) are whole edits that never merge.
enum class UndoField {
    Module,
    DIn,
    DOut,
    ContextLength,
    Dropout,
    NumHeads,
    QkvBias,
    Batch,
    Tokens,
    Training,
    Seed,
    DropoutSeed,
    Text,
    Model,
    Layer,
    Weights,
    Call,
    Bug,
    TransferLines,
    ContractCall,
    Selection,
    Settings,
};
UndoField changedField(const SettingsSnapshot& a, const SettingsSnapshot& b);
// As the Edit menu says it: "num_heads", "the call", "tokens", "weights", "the bug", "settings".
QString undoFieldLabel(UndoField field);
QString describeChange(const SettingsSnapshot& a, const SettingsSnapshot& b); // the label of changedField(a, b)

class SettingsCommand : public QUndoCommand {
public:
    static constexpr int kId = 0x41544c; // "ATL"
    static constexpr qint64 kMergeWindowMs = 1500;
    SettingsCommand(SettingsHistory* history, SettingsSnapshot before, SettingsSnapshot after, qint64 atMs);
    void undo() override;
    void redo() override;
    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    SettingsHistory* history_;
    SettingsSnapshot before_, after_;
    UndoField field_;
    qint64 atMs_;
    bool applied_ = true; // pushed after the session already changed: the first redo is a no-op
};

// Owns the undo stack of one session and records every settings change made outside undo/redo.
class SettingsHistory : public QObject {
    Q_OBJECT
public:
    explicit SettingsHistory(Session* session, QObject* parent = nullptr);
    // Otherwise the dying undo stack still signals listeners that reach back into this half-destroyed history.
    ~SettingsHistory() override { stack_->disconnect(); }
    QUndoStack* stack() const { return stack_; }
    void clear(); // e.g. after opening a session file: a new document, a new history

private:
    friend class SettingsCommand;
    void record();
    void replay(const SettingsSnapshot& snapshot); // undo/redo: set the session without recording

    Session* session_;
    QUndoStack* stack_;
    SettingsSnapshot last_;
    QElapsedTimer clock_;
    bool replaying_ = false;
};

} // namespace attnlab::ui
