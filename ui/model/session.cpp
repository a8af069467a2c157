#include "model/session.h"

#include "call/call_parser.h"
#include "model/bug_lesson.h"
#include "model/forward_job.h"
#include "model/presets.h"

namespace attnlab::ui {

namespace {

// The largest token count whose trace fits the budget, so the memory diagnostic can offer it as a fix.
std::int64_t tokensWithinBudget(const Config& config, std::int64_t batch, std::int64_t tokens, std::uint64_t budget)
{
    std::int64_t lo = 0, hi = tokens;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (estimate_memory_bytes(config, {batch, mid}) <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace

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
    return preferBookInput_ && spec_.config.d_in == 3 && spec_.num_tokens == 6;
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
    if (callError_) {
        diagnostics_.push_back(
            {DiagnosticCode::CallSyntax,
             Severity::Error,
             std::nullopt,
             "column " + std::to_string(callError_->column + 1) + " of the call: " + callError_->message,
             {}});
        return; // the spin boxes still show the last call that bound; judging them would confuse
    }
    const InputShape input{spec_.batch, spec_.num_tokens};
    diagnostics_ = validate(spec_.config, input);
    addTextDiagnostics();
    if (!has_error(diagnostics_)) {
        const std::uint64_t need = estimate_memory_bytes(spec_.config, input);
        if (need > spec_.memory_budget) {
            const std::int64_t fit =
                tokensWithinBudget(spec_.config, spec_.batch, spec_.num_tokens, spec_.memory_budget);
            Diagnostic d{DiagnosticCode::MemoryBudget,
                         Severity::Error,
                         Slot::num_tokens,
                         "tracing this needs about " + format_bytes(need) +
                             " (weights plus every recorded stage), more than the " +
                             format_bytes(spec_.memory_budget) +
                             " budget, so it was not attempted; use fewer tokens, a "
                             "smaller batch or fewer heads.",
                         {}};
            if (fit > 0)
                d.fixes.push_back({Slot::num_tokens, fit});
            diagnostics_.push_back(d);
        }
    }
    if (engineError_)
        diagnostics_.push_back(*engineError_);
    if (cancelled_)
        diagnostics_.push_back({DiagnosticCode::Cancelled,
                                Severity::Warning,
                                std::nullopt,
                                "computing these settings was cancelled, so the result shown is of the previous "
                                "settings; press Compute to run them.",
                                {}});
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
