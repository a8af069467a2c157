#include "model/session.h"

#include "call/call_parser.h"
#include "lessons/contract_call.h"
#include "model/bug_lesson.h"
#include "model/forward_job.h"
#include "model/presets.h"

namespace attnlab::ui {

Session::Session(QObject* parent) : QObject(parent), job_(new ForwardJob(this)), bugLesson_(new BugLesson(this, this))
{
    connect(job_, &ForwardJob::finished, this, &Session::adoptResult);
    callText_ = QString::fromStdString(positional_call(spec_.config));
    connectJobs();
    refreshDiagnostics();
}

Session::~Session() = default; // the job (a child) cancels its computation and waits for it

bool Session::usesBookInput() const
{
    return preferBookInput_ && book_input_fits(spec_.config, spec_.num_tokens);
}

void Session::setConfig(const Config& config)
{
    spec_.config = config;
    callText_ = QString::fromStdString(positional_call(config));
    callError_.reset();
    settingsEdited();
}

void Session::setSlot(Slot slot, double value)
{
    Config c = spec_.config;
    const auto asInt = static_cast<std::int64_t>(value);
    switch (slot) {
    case Slot::batch: return setInputShape(asInt, spec_.num_tokens);
    case Slot::num_tokens: return setInputShape(spec_.batch, asInt);
    case Slot::d_in: c.d_in = asInt; break;
    case Slot::d_out: c.d_out = asInt; break;
    case Slot::context_length: c.context_length = asInt; break;
    case Slot::num_heads: c.num_heads = asInt; break;
    case Slot::dropout: c.dropout = value; break;
    case Slot::qkv_bias: c.qkv_bias = value != 0.0; break;
    }
    if (c == spec_.config && !callError_)
        return;
    setConfig(c);
}

void Session::setModuleKind(ModuleKind kind)
{
    Config c = spec_.config;
    c.kind = kind;
    // SimpleSelfAttention() has no slots to carry over: take exactly what its call line parses to.
    if (kind == ModuleKind::SimpleSelfAttention)
        c = *parse_call(module_class_name(kind) + "()").config;
    setConfig(c);
}

void Session::setInputShape(std::int64_t batch, std::int64_t numTokens)
{
    if (batch == spec_.batch && numTokens == spec_.num_tokens)
        return;
    spec_.batch = batch;
    spec_.num_tokens = numTokens;
    settingsEdited();
}

void Session::setCallText(const QString& text)
{
    callText_ = text;
    const ParsedCall parsed = parse_call(text.toStdString());
    if (!parsed.ok()) {
        callError_ = parsed.error;
        settingsEdited();
        return;
    }
    callError_.reset();
    spec_.config = *parsed.config;
    settingsEdited();
}

void Session::applyFix(const Fix& fix)
{
    setSlot(fix.slot, static_cast<double>(fix.value));
}

void Session::applyCallFix(const std::string& call)
{
    setCallText(QString::fromStdString(call));
}

void Session::applyPreset(const Preset& preset)
{
    spec_.config = preset.config;
    spec_.input = InputSource::Random; // a preset is an experiment of its own, not the trained model's
    spec_.batch = preset.batch;
    spec_.num_tokens = preset.numTokens;
    preferBookInput_ = preset.bookInput;
    spec_.seed = preset.seed;
    spec_.training = preset.training;
    spec_.dropout_seed = preset.dropoutSeed;
    callText_ = preset.call;
    callError_.reset();
    settingsEdited();
}

void Session::setMemoryBudget(std::uint64_t bytes)
{
    spec_.memory_budget = bytes;
    settingsEdited();
}

void Session::setTraining(bool training)
{
    if (training == spec_.training)
        return;
    spec_.training = training;
    settingsEdited();
}

void Session::setSeed(std::uint64_t seed)
{
    if (seed == spec_.seed)
        return;
    spec_.seed = seed;
    settingsEdited();
}

void Session::setDropoutSeed(std::optional<std::uint64_t> seed)
{
    if (seed == spec_.dropout_seed)
        return;
    spec_.dropout_seed = seed;
    settingsEdited();
}

void Session::restoreSettings(const ExperimentSpec& spec, const QString& callText, bool bookInput)
{
    spec_ = spec;
    preferBookInput_ = bookInput;
    callText_ = callText;
    const ParsedCall parsed = parse_call(callText.toStdString());
    if (parsed.ok())
        callError_.reset();
    else
        callError_ = parsed.error; // an unfinished call line comes back as it was, spec untouched
    settingsEdited();
}

bool Session::hasErrors() const
{
    return has_error(diagnostics_);
}

void Session::refreshDiagnostics()
{
    diagnostics_.clear();
    const InputShape input{spec_.batch, spec_.num_tokens};
    // Core's one reading of the call: a likely swap first, with the swapped call as its fix.
    const CallReading reading = read_call(callText_.toStdString(), input);
    if (callError_) {
        if (reading.error)
            callError_ = reading.error;
        diagnostics_ = reading.diagnostics;
        return; // the spin boxes still show the last call that bound; judging them would confuse
    }
    diagnostics_ =
        reading.config && *reading.config == spec_.config ? reading.diagnostics : validate(spec_.config, input);
    addTextDiagnostics();
    if (!has_error(diagnostics_))
        if (auto memory = memory_budget_check(spec_.config, input, spec_.memory_budget))
            diagnostics_.push_back(*memory);
    if (engineError_)
        diagnostics_.push_back(*engineError_);
    if (cancelled_) {
        // Filled in place: GCC 12 warned falsely (-Warray-bounds) on copying a braced temporary's string in.
        Diagnostic& cancelled = diagnostics_.emplace_back();
        cancelled.code = DiagnosticCode::Cancelled;
        cancelled.severity = Severity::Warning;
        cancelled.message = "computing these settings was cancelled, so the result shown is of the previous "
                            "settings; press Compute to run them.";
    }
}

void Session::settingsEdited(ChangeFlags flags)
{
    engineError_.reset();
    cancelled_ = false; // the new settings are computed (or refused) afresh
    refreshDiagnostics();
    compute();
    Q_EMIT changed(flags | ChangeFlag::Diagnostics | ChangeFlag::Busy);
}

} // namespace attnlab::ui
