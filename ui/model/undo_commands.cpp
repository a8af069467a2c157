#include "model/undo_commands.h"

#include "model/document_model.h"

#include <QUndoStack>

#include <vector>

namespace attnlab::ui {

SettingsCommand::SettingsCommand(SettingsHistory* history, Document before, Document after, qint64 atMs)
    : history_(history), before_(std::move(before)), after_(std::move(after)), atMs_(atMs)
{
    field_ = changedField(before_, after_);
    setText(QObject::tr("Change %1").arg(fieldLabel(field_)));
}

void SettingsCommand::undo()
{
    history_->replay(before_);
}

void SettingsCommand::redo()
{
    if (std::exchange(applied_, false))
        return; // the session already holds `after` when the command is pushed
    history_->replay(after_);
}

bool SettingsCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SettingsCommand*>(other);
    // Never typed: a whole edit, a file loaded, a click on another element.
    if (next->field_ != field_ || next->atMs_ - atMs_ > kMergeWindowMs || !mergesWhenTyped(field_))
        return false;
    after_ = next->after_;
    atMs_ = next->atMs_;
    setObsolete(before_ == after_); // typed and typed back: nothing to undo
    return true;
}

SettingsHistory::SettingsHistory(DocumentModel* document, QObject* parent)
    : QObject(parent), document_(document), stack_(new QUndoStack(this)), last_(document->document())
{
    clock_.start();
    connect(document_, &DocumentModel::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Lesson | ChangeFlag::Selection))
            record();
    });
}

void SettingsHistory::clear()
{
    stack_->clear();
    last_ = document_->document();
}

void SettingsHistory::record()
{
    if (replaying_)
        return;
    Document now = document_->document();
    if (now == last_)
        return;
    Document before = std::exchange(last_, now);
    stack_->push(new SettingsCommand(this, std::move(before), std::move(now), clock_.elapsed()));
}

void SettingsHistory::replay(const Document& document)
{
    replaying_ = true;
    document_->restore(document);
    last_ = document;
    replaying_ = false;
}

} // namespace attnlab::ui
