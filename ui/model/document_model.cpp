#include "model/document_model.h"

#include "forward/experiment_check.h"
#include "lessons/contract_call.h"
#include "model/presets.h"

namespace attnlab::ui {

DocumentModel::DocumentModel(QObject* parent) : QObject(parent)
{
    doc_.callText = QString::fromStdString(positional_call(doc_.spec.config));
}

bool DocumentModel::usesBookInput() const
{
    return doc_.bookInput && book_input_fits(doc_.spec.config, doc_.spec.num_tokens);
}

ExperimentSpec DocumentModel::effectiveSpec() const
{
    ExperimentSpec spec = doc_.spec;
    if (spec.input != InputSource::Text)
        spec.input = usesBookInput() ? InputSource::Book : InputSource::Random;
    return spec;
}

void DocumentModel::reparseCall()
{
    const ParsedCall parsed = parse_call(doc_.callText.toStdString());
    if (parsed.ok()) {
        callError_.reset();
        return;
    }
    // Core's one reading of the call, against the input as set: a likely swap is said in place of the binder's advice.
    const CallReading reading =
        read_call(doc_.callText.toStdString(), InputShape{doc_.spec.batch, doc_.spec.num_tokens});
    callError_ = reading.error ? reading.error : parsed.error;
}

void DocumentModel::settingsEdited()
{
    reparseCall();
    // The contract's input follows the settings again, as its boxes did when they showed them.
    doc_.lessons.contractDIn.reset();
    doc_.lessons.contractTokens.reset();
    Q_EMIT changed(ChangeFlag::Settings);
}

void DocumentModel::setConfig(const Config& config)
{
    doc_.spec.config = config;
    doc_.callText = QString::fromStdString(positional_call(config));
    settingsEdited();
}

void DocumentModel::setSlot(Slot slot, double value)
{
    Config c = doc_.spec.config;
    const auto asInt = static_cast<std::int64_t>(value);
    switch (slot) {
    case Slot::batch: return setInputShape(asInt, doc_.spec.num_tokens);
    case Slot::num_tokens: return setInputShape(doc_.spec.batch, asInt);
    case Slot::d_in: c.d_in = asInt; break;
    case Slot::d_out: c.d_out = asInt; break;
    case Slot::context_length: c.context_length = asInt; break;
    case Slot::num_heads: c.num_heads = asInt; break;
    case Slot::num_kv_groups: c.num_kv_groups = asInt; break;
    case Slot::window_size: // the box's lowest value, shown as None, is the whole causal context
        c.window_size = asInt > 0 ? std::optional<std::int64_t>(asInt) : std::nullopt;
        break;
    case Slot::dropout: c.dropout = value; break;
    case Slot::qkv_bias: c.qkv_bias = value != 0.0; break;
    }
    if (c == doc_.spec.config && !callError_)
        return;
    setConfig(c);
}

void DocumentModel::setModuleKind(ModuleKind kind)
{
    Config c = doc_.spec.config;
    c.kind = kind;
    // SimpleSelfAttention() has no slots to carry over: take exactly what its call line parses to.
    if (kind == ModuleKind::SimpleSelfAttention)
        c = *parse_call(module_class_name(kind) + "()").config;
    // Switching to grouped-query attention: key/value heads shared in pairs where the heads allow it (the
    // first grouping that makes a difference), else one per head until the student picks.
    if (kind == ModuleKind::GroupedQueryAttention && !c.kv_groups_split_heads())
        c.num_kv_groups =
            c.num_heads > 1 && c.num_heads % 2 == 0 ? c.num_heads / 2 : std::max<std::int64_t>(c.num_heads, 1);
    setConfig(c);
}

void DocumentModel::setInputShape(std::int64_t batch, std::int64_t numTokens)
{
    if (batch == doc_.spec.batch && numTokens == doc_.spec.num_tokens)
        return;
    doc_.spec.batch = batch;
    doc_.spec.num_tokens = numTokens;
    settingsEdited();
}

void DocumentModel::setCallText(const QString& text)
{
    doc_.callText = text;
    if (const ParsedCall parsed = parse_call(text.toStdString()); parsed.ok())
        doc_.spec.config = *parsed.config;
    settingsEdited();
}

void DocumentModel::applyFix(const Fix& fix)
{
    setSlot(fix.slot, static_cast<double>(fix.value));
}

void DocumentModel::applyCallFix(const std::string& call)
{
    setCallText(QString::fromStdString(call));
}

void DocumentModel::applyPreset(const Preset& preset)
{
    ExperimentSpec& spec = doc_.spec;
    spec.config = preset.config;
    spec.input = InputSource::Random; // a preset is an experiment of its own, not the trained model's
    spec.batch = preset.batch;
    spec.num_tokens = preset.numTokens;
    doc_.bookInput = preset.bookInput;
    spec.seed = preset.seed;
    spec.training = preset.training;
    spec.dropout_seed = preset.dropoutSeed;
    doc_.callText = preset.call;
    settingsEdited();
}

void DocumentModel::setMemoryBudget(std::uint64_t bytes)
{
    doc_.spec.memory_budget = bytes;
    settingsEdited();
}

void DocumentModel::setTraining(bool training)
{
    if (training == doc_.spec.training)
        return;
    doc_.spec.training = training;
    settingsEdited();
}

void DocumentModel::setSeed(std::uint64_t seed)
{
    if (seed == doc_.spec.seed)
        return;
    doc_.spec.seed = seed;
    settingsEdited();
}

void DocumentModel::setDropoutSeed(std::optional<std::uint64_t> seed)
{
    if (seed == doc_.spec.dropout_seed)
        return;
    doc_.spec.dropout_seed = seed;
    settingsEdited();
}

void DocumentModel::useSeededInput()
{
    if (!usesTextInput())
        return;
    doc_.spec.input = InputSource::Random;
    settingsEdited();
}

void DocumentModel::setGptLayer(int layer)
{
    if (layer == doc_.spec.gpt_layer)
        return;
    doc_.spec.gpt_layer = layer;
    settingsEdited();
}

void DocumentModel::setSpec(const ExperimentSpec& spec, bool callFollows)
{
    doc_.spec = spec;
    if (callFollows)
        doc_.callText = QString::fromStdString(positional_call(spec.config));
    settingsEdited();
}

void DocumentModel::setLessonState(const LessonState& state)
{
    if (state == doc_.lessons)
        return;
    doc_.lessons = state;
    Q_EMIT changed(ChangeFlag::Lesson);
}

void DocumentModel::setBug(Bug bug)
{
    LessonState s = doc_.lessons;
    s.bug = bug;
    setLessonState(s);
}

void DocumentModel::setTransferLine(TransferRole role, bool written, bool transpose)
{
    LessonState s = doc_.lessons;
    s.transfer.line(role) = {written, transpose};
    setLessonState(s);
}

void DocumentModel::setTransferWidths(std::int64_t d_in, std::int64_t d_out)
{
    LessonState s = doc_.lessons;
    s.transfer.d_in = d_in;
    s.transfer.d_out = d_out;
    setLessonState(s);
}

void DocumentModel::setContractCall(std::optional<QString> call)
{
    LessonState s = doc_.lessons;
    s.contractCall = std::move(call);
    setLessonState(s);
}

void DocumentModel::setContractInput(std::int64_t d_in, std::int64_t num_tokens)
{
    LessonState s = doc_.lessons;
    s.contractDIn = d_in;
    s.contractTokens = num_tokens;
    setLessonState(s);
}

void DocumentModel::resetContract()
{
    LessonState s = doc_.lessons;
    s.contractCall.reset();
    s.contractDIn.reset();
    s.contractTokens.reset();
    setLessonState(s);
}

void DocumentModel::setSelectedElement(const ElementSelection& selection)
{
    if (selection == doc_.selection)
        return;
    doc_.selection = selection;
    Q_EMIT changed(ChangeFlag::Selection);
}

void DocumentModel::restore(const Document& document)
{
    doc_.spec = document.spec;
    doc_.bookInput = document.bookInput;
    doc_.callText = document.callText; // an unfinished call line comes back as it was, spec untouched
    reparseCall();
    Q_EMIT changed(ChangeFlag::Settings);
    setLessonState(document.lessons);
    setSelectedElement(document.selection);
}

} // namespace attnlab::ui
