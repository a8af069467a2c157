// The document's equality and what an edit changed (the Edit menu's "Change num_heads", undo's merging).
#include "model/document.h"

#include "call/call_parser.h"

#include <QObject>

#include <vector>

namespace attnlab::ui {

bool Document::operator==(const Document& o) const
{
    const ExperimentSpec &x = spec, &y = o.spec;
    return x.config == y.config && x.batch == y.batch && x.num_tokens == y.num_tokens && x.seed == y.seed &&
           x.weights_path == y.weights_path && x.layout == y.layout && x.layout_from_file == y.layout_from_file &&
           x.layer == y.layer && x.input == y.input && x.input_path == y.input_path && x.training == y.training &&
           x.dropout_seed == y.dropout_seed && x.text == y.text && x.gpt_model_path == y.gpt_model_path &&
           x.gpt_layer == y.gpt_layer && x.memory_budget == y.memory_budget && callText == o.callText &&
           bookInput == o.bookInput && lessons == o.lessons && selection == o.selection;
}

namespace {

// The lesson choice that changed, when only lesson choices did.
DocumentPart lessonPart(const LessonState& a, const LessonState& b)
{
    if (a.bug != b.bug)
        return DocumentPart::Bug;
    if (a.transfer != b.transfer)
        return DocumentPart::TransferLines;
    return DocumentPart::ContractCall;
}

} // namespace

DocumentField changedField(const Document& a, const Document& b)
{
    const Config &c = a.spec.config, &d = b.spec.config;
    Document onlyLessons = a, onlySelection = a;
    onlyLessons.lessons = b.lessons;
    onlySelection.selection = b.selection;
    if (a.lessons != b.lessons && onlyLessons == b)
        return lessonPart(a.lessons, b.lessons);
    if (a.selection != b.selection && onlySelection == b)
        return DocumentPart::Selection;
    std::vector<DocumentField> fields;
    const auto note = [&fields](bool changed, DocumentField field) {
        if (changed)
            fields.push_back(field);
    };
    note(c.kind != d.kind, DocumentPart::Module);
    note(c.d_in != d.d_in, Slot::d_in);
    note(c.d_out != d.d_out, Slot::d_out);
    note(c.context_length != d.context_length, Slot::context_length);
    note(c.dropout != d.dropout, Slot::dropout);
    note(c.num_heads != d.num_heads, Slot::num_heads);
    note(c.qkv_bias != d.qkv_bias, Slot::qkv_bias);
    note(a.spec.batch != b.spec.batch, Slot::batch);
    note(a.spec.num_tokens != b.spec.num_tokens, Slot::num_tokens);
    note(a.spec.training != b.spec.training, DocumentPart::Training);
    note(a.spec.seed != b.spec.seed, DocumentPart::Seed);
    note(a.spec.dropout_seed != b.spec.dropout_seed, DocumentPart::DropoutSeed);
    note(a.spec.text != b.spec.text, DocumentPart::Text);
    note(a.spec.gpt_model_path != b.spec.gpt_model_path || a.spec.input != b.spec.input, DocumentPart::Model);
    note(a.spec.gpt_layer != b.spec.gpt_layer, DocumentPart::Layer);
    // Loading a file sets d_in, d_out, num_heads, ... from it: one edit, named by what the student did.
    if (a.spec.weights_path != b.spec.weights_path || a.spec.layer != b.spec.layer)
        return DocumentPart::Weights;
    // Typing in the call line changes the text and, whenever it binds, some slots: one field, "the call".
    // A spin box edit goes from one written-out call to the next; typing starts or ends off that form.
    const auto writtenOut = [](const Document& s) {
        return s.callText == QString::fromStdString(positional_call(s.spec.config));
    };
    if (a.callText != b.callText && (!writtenOut(a) || !writtenOut(b)) && fields.size() <= 1)
        return DocumentPart::Call;
    if (fields.size() == 1)
        return fields.front();
    return DocumentPart::Whole;
}

QString fieldLabel(const DocumentField& field)
{
    if (const Slot* slot = std::get_if<Slot>(&field))
        return *slot == Slot::num_tokens ? QStringLiteral("tokens") : QString::fromStdString(slot_name(*slot));
    switch (std::get<DocumentPart>(field)) {
    case DocumentPart::Module: return QStringLiteral("module");
    case DocumentPart::Training: return QStringLiteral("training");
    case DocumentPart::Seed: return QStringLiteral("seed");
    case DocumentPart::DropoutSeed: return QStringLiteral("dropout seed");
    case DocumentPart::Text: return QStringLiteral("text");
    case DocumentPart::Model: return QStringLiteral("model");
    case DocumentPart::Layer: return QStringLiteral("layer");
    case DocumentPart::Weights: return QStringLiteral("weights");
    case DocumentPart::Call: return QObject::tr("the call");
    case DocumentPart::Bug: return QObject::tr("the bug");
    case DocumentPart::TransferLines: return QObject::tr("the transfer lines");
    case DocumentPart::ContractCall: return QObject::tr("the contract call");
    case DocumentPart::Selection: return QObject::tr("the followed element");
    case DocumentPart::Whole: return QObject::tr("settings");
    }
    return QObject::tr("settings");
}

bool mergesWhenTyped(const DocumentField& field)
{
    return field != DocumentField{DocumentPart::Whole} && field != DocumentField{DocumentPart::Weights} &&
           field != DocumentField{DocumentPart::Selection};
}

} // namespace attnlab::ui
