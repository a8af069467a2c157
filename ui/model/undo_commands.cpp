#include "model/undo_commands.h"

#include "model/session.h"

#include <QUndoStack>

#include <vector>

namespace attnlab::ui {

SettingsSnapshot snapshotOf(const Session& session)
{
    LessonState lessons = session.lessonState();
    lessons.section = DebugSection::Contract; // navigation, not a choice: undo leaves it where it is
    return {session.spec(), session.callText(), session.prefersBookInput(), lessons, session.selectedElement()};
}

bool sameSettings(const SettingsSnapshot& a, const SettingsSnapshot& b)
{
    const ExperimentSpec &x = a.spec, &y = b.spec;
    return x.config == y.config && x.batch == y.batch && x.num_tokens == y.num_tokens && x.seed == y.seed &&
           x.weights_path == y.weights_path && x.layout == y.layout && x.layout_from_file == y.layout_from_file &&
           x.layer == y.layer && x.input == y.input && x.input_path == y.input_path && x.training == y.training &&
           x.dropout_seed == y.dropout_seed && x.text == y.text && x.gpt_model_path == y.gpt_model_path &&
           x.gpt_layer == y.gpt_layer && x.memory_budget == y.memory_budget && a.callText == b.callText &&
           a.bookInput == b.bookInput && a.lessons == b.lessons && a.selection == b.selection;
}

namespace {

// The lesson choice that changed, when only lesson choices did.
UndoField lessonField(const LessonState& a, const LessonState& b)
{
    if (a.bug != b.bug)
        return UndoField::Bug;
    if (a.transfer != b.transfer)
        return UndoField::TransferLines;
    return UndoField::ContractCall;
}

} // namespace

UndoField changedField(const SettingsSnapshot& a, const SettingsSnapshot& b)
{
    const Config &c = a.spec.config, &d = b.spec.config;
    if (a.lessons != b.lessons && sameSettings({a.spec, a.callText, a.bookInput, b.lessons, b.selection}, b))
        return lessonField(a.lessons, b.lessons);
    if (a.selection != b.selection && sameSettings({a.spec, a.callText, a.bookInput, a.lessons, b.selection}, b))
        return UndoField::Selection;
    std::vector<UndoField> fields;
    const auto note = [&fields](bool changed, UndoField field) {
        if (changed)
            fields.push_back(field);
    };
    note(c.kind != d.kind, UndoField::Module);
    note(c.d_in != d.d_in, UndoField::DIn);
    note(c.d_out != d.d_out, UndoField::DOut);
    note(c.context_length != d.context_length, UndoField::ContextLength);
    note(c.dropout != d.dropout, UndoField::Dropout);
    note(c.num_heads != d.num_heads, UndoField::NumHeads);
    note(c.qkv_bias != d.qkv_bias, UndoField::QkvBias);
    note(a.spec.batch != b.spec.batch, UndoField::Batch);
    note(a.spec.num_tokens != b.spec.num_tokens, UndoField::Tokens);
    note(a.spec.training != b.spec.training, UndoField::Training);
    note(a.spec.seed != b.spec.seed, UndoField::Seed);
    note(a.spec.dropout_seed != b.spec.dropout_seed, UndoField::DropoutSeed);
    note(a.spec.text != b.spec.text, UndoField::Text);
    note(a.spec.gpt_model_path != b.spec.gpt_model_path || a.spec.input != b.spec.input, UndoField::Model);
    note(a.spec.gpt_layer != b.spec.gpt_layer, UndoField::Layer);
    // Loading a file sets d_in, d_out, num_heads, ... from it: one edit, named by what the student did.
    if (a.spec.weights_path != b.spec.weights_path || a.spec.layer != b.spec.layer)
        return UndoField::Weights;
    // Typing in the call line changes the text and, whenever it binds, some slots: one field, "the call".
    // A spin box edit goes from one written-out call to the next; typing starts or ends off that form.
    const auto writtenOut = [](const SettingsSnapshot& s) {
        return s.callText == QString::fromStdString(positional_call(s.spec.config));
    };
    if (a.callText != b.callText && (!writtenOut(a) || !writtenOut(b)) && fields.size() <= 1)
        return UndoField::Call;
    if (fields.size() == 1)
        return fields.front();
    return UndoField::Settings;
}

QString undoFieldLabel(UndoField field)
{
    switch (field) {
    case UndoField::Module: return QStringLiteral("module");
    case UndoField::DIn: return QStringLiteral("d_in");
    case UndoField::DOut: return QStringLiteral("d_out");
    case UndoField::ContextLength: return QStringLiteral("context_length");
    case UndoField::Dropout: return QStringLiteral("dropout");
    case UndoField::NumHeads: return QStringLiteral("num_heads");
    case UndoField::QkvBias: return QStringLiteral("qkv_bias");
    case UndoField::Batch: return QStringLiteral("batch");
    case UndoField::Tokens: return QStringLiteral("tokens");
    case UndoField::Training: return QStringLiteral("training");
    case UndoField::Seed: return QStringLiteral("seed");
    case UndoField::DropoutSeed: return QStringLiteral("dropout seed");
    case UndoField::Text: return QStringLiteral("text");
    case UndoField::Model: return QStringLiteral("model");
    case UndoField::Layer: return QStringLiteral("layer");
    case UndoField::Weights: return QStringLiteral("weights");
    case UndoField::Call: return QObject::tr("the call");
    case UndoField::Bug: return QObject::tr("the bug");
    case UndoField::TransferLines: return QObject::tr("the transfer lines");
    case UndoField::ContractCall: return QObject::tr("the contract call");
    case UndoField::Selection: return QObject::tr("the followed element");
    case UndoField::Settings: return QObject::tr("settings");
    }
    return QObject::tr("settings");
}

QString describeChange(const SettingsSnapshot& a, const SettingsSnapshot& b)
{
    return undoFieldLabel(changedField(a, b));
}

SettingsCommand::SettingsCommand(SettingsHistory* history, SettingsSnapshot before, SettingsSnapshot after, qint64 atMs)
    : history_(history), before_(std::move(before)), after_(std::move(after)), atMs_(atMs)
{
    field_ = changedField(before_, after_);
    setText(QObject::tr("Change %1").arg(undoFieldLabel(field_)));
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
    const bool whole = field_ == UndoField::Settings || field_ == UndoField::Weights || field_ == UndoField::Selection;
    if (next->field_ != field_ || next->atMs_ - atMs_ > kMergeWindowMs || whole)
        return false;
    after_ = next->after_;
    atMs_ = next->atMs_;
    setObsolete(sameSettings(before_, after_)); // typed and typed back: nothing to undo
    return true;
}

SettingsHistory::SettingsHistory(Session* session, QObject* parent)
    : QObject(parent), session_(session), stack_(new QUndoStack(this)), last_(snapshotOf(*session))
{
    clock_.start();
    connect(session_, &Session::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Settings | ChangeFlag::Lesson | ChangeFlag::Selection))
            record();
    });
}

void SettingsHistory::clear()
{
    stack_->clear();
    last_ = snapshotOf(*session_);
}

void SettingsHistory::record()
{
    if (replaying_)
        return;
    SettingsSnapshot now = snapshotOf(*session_);
    if (sameSettings(now, last_))
        return;
    SettingsSnapshot before = std::exchange(last_, now);
    stack_->push(new SettingsCommand(this, std::move(before), std::move(now), clock_.elapsed()));
}

void SettingsHistory::replay(const SettingsSnapshot& snapshot)
{
    replaying_ = true;
    session_->restoreSettings(snapshot.spec, snapshot.callText, snapshot.bookInput);
    LessonState lessons = snapshot.lessons;
    lessons.section = session_->lessonState().section;
    session_->setLessonState(lessons);
    session_->setSelectedElement(snapshot.selection);
    last_ = snapshot;
    replaying_ = false;
}

} // namespace attnlab::ui
