#pragma once
// Undo/redo of the document (model/document.h): every settings edit, every choice in the Debugging tab's lessons, the
// element followed. The document model is the one place they change, so the history watches it: each edit (a spin box,
// the call line, a preset, a fix, an opened session) becomes one command holding the document before and after;
// keystrokes into the same field within a moment merge.
#include "model/document.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QUndoCommand>

class QUndoStack;

namespace attnlab::ui {

class DocumentModel;
class SettingsHistory;

class SettingsCommand : public QUndoCommand {
public:
    static constexpr int kId = 0x41544c; // "ATL"
    static constexpr qint64 kMergeWindowMs = 1500;
    SettingsCommand(SettingsHistory* history, Document before, Document after, qint64 atMs);
    void undo() override;
    void redo() override;
    int id() const override { return kId; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    SettingsHistory* history_;
    Document before_, after_;
    DocumentField field_;
    qint64 atMs_;
    bool applied_ = true; // pushed after the session already changed: the first redo is a no-op
};

// Owns the undo stack of one session and records every settings change made outside undo/redo.
class SettingsHistory : public QObject {
    Q_OBJECT
public:
    explicit SettingsHistory(DocumentModel* document, QObject* parent = nullptr);
    // Otherwise the dying undo stack still signals listeners that reach back into this half-destroyed history.
    ~SettingsHistory() override { stack_->disconnect(); }
    QUndoStack* stack() const { return stack_; }
    void clear(); // e.g. after opening a session file: a new document, a new history

private:
    friend class SettingsCommand;
    void record();
    void replay(const Document& document); // undo/redo: set the document without recording

    DocumentModel* document_;
    QUndoStack* stack_;
    Document last_;
    QElapsedTimer clock_;
    bool replaying_ = false;
};

} // namespace attnlab::ui
