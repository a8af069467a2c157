#include "session.h"

#include "call_parser.h"
#include "presets.h"

#include <QMetaObject>

#include <algorithm>
#include <exception>

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

Session::Session(QObject* parent) : QObject(parent)
{
    // One forward pass at a time: edits that arrive meanwhile collapse into the newest one.
    pool_.setMaxThreadCount(1);
    callText_ = QString::fromStdString(positional_call(spec_.config));
    refreshDiagnostics();
}

Session::~Session()
{
    pool_.waitForDone();
}

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

void Session::setSlot(const std::string& slot, double value)
{
    Config c = spec_.config;
    const auto asInt = static_cast<std::int64_t>(value);
    if (slot == "batch")
        return setInputShape(asInt, spec_.num_tokens);
    if (slot == "num_tokens")
        return setInputShape(spec_.batch, asInt);
    if (slot == "d_in")
        c.d_in = asInt;
    else if (slot == "d_out")
        c.d_out = asInt;
    else if (slot == "context_length")
        c.context_length = asInt;
    else if (slot == "num_heads")
        c.num_heads = asInt;
    else if (slot == "dropout")
        c.dropout = value;
    else if (slot == "qkv_bias")
        c.qkv_bias = value != 0.0;
    if (c == spec_.config && !callError_)
        return;
    setConfig(c);
}

void Session::setModuleKind(ModuleKind kind)
{
    Config c = spec_.config;
    c.kind = kind;
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
    spec_.batch = preset.batch;
    spec_.num_tokens = preset.numTokens;
    preferBookInput_ = preset.bookInput;
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

ExperimentSpec Session::effectiveSpec() const
{
    ExperimentSpec spec = spec_;
    spec.input = usesBookInput() ? InputSource::Book : InputSource::Random;
    return spec;
}

void Session::refreshDiagnostics()
{
    diagnostics_.clear();
    if (callError_) {
        diagnostics_.push_back(
            {"call-syntax",
             Severity::Error,
             "",
             "column " + std::to_string(callError_->column + 1) + " of the call: " + callError_->message,
             {}});
        return; // the spin boxes still show the last call that bound; judging them would confuse
    }
    const InputShape input{spec_.batch, spec_.num_tokens};
    diagnostics_ = validate(spec_.config, input);
    if (!has_error(diagnostics_)) {
        const std::uint64_t need = estimate_memory_bytes(spec_.config, input);
        if (need > spec_.memory_budget) {
            const std::int64_t fit =
                tokensWithinBudget(spec_.config, spec_.batch, spec_.num_tokens, spec_.memory_budget);
            Diagnostic d{"memory-budget",
                         Severity::Error,
                         "num_tokens",
                         "tracing this needs about " + format_bytes(need) +
                             " (weights plus every recorded stage), more than the " +
                             format_bytes(spec_.memory_budget) +
                             " budget, so it was not attempted; use fewer tokens, a "
                             "smaller batch or fewer heads.",
                         {}};
            if (fit > 0)
                d.fixes.push_back({"num_tokens", fit});
            diagnostics_.push_back(d);
        }
    }
    if (engineError_)
        diagnostics_.push_back(*engineError_);
}

void Session::settingsEdited(ChangeFlags flags)
{
    engineError_.reset();
    refreshDiagnostics();
    flags |= ChangeFlag::Diagnostics | ChangeFlag::Busy;
    if (hasErrors()) {
        pending_ = false; // keep the last good trace; a job already running may still deliver a valid one
    } else {
        ++generation_;
        pending_ = true;
        if (!running_)
            startJob();
    }
    emit changed(flags);
}

void Session::startJob()
{
    pending_ = false;
    running_ = true;
    const quint64 generation = generation_;
    const ExperimentSpec spec = effectiveSpec();
    pool_.start([this, generation, spec] {
        std::shared_ptr<const Trace> trace;
        QString error;
        try {
            trace = std::make_shared<const Trace>(run(prepare(spec)));
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        // Queued to the GUI thread; if the session is gone the event dies with it (the destructor waits).
        QMetaObject::invokeMethod(
            this, [this, generation, trace, error] { finishJob(generation, trace, error); }, Qt::QueuedConnection);
    });
}

void Session::finishJob(quint64 generation, std::shared_ptr<const Trace> trace, const QString& error)
{
    running_ = false;
    ChangeFlags flags = ChangeFlag::Busy;
    if (generation == generation_) { // anything older was overtaken by a newer edit: drop it
        if (trace) {
            trace_ = std::move(trace);
            const int n = static_cast<int>(trace_->stages.size());
            stageIndex_ = std::clamp(stageIndex_, 0, n - 1);
            for (int i = 0; i < n; ++i)
                if (trace_->stages[static_cast<std::size_t>(i)].name == stageName_)
                    stageIndex_ = i;
            stageName_ = trace_->stages[static_cast<std::size_t>(stageIndex_)].name;
            head_ = std::clamp(head_, 0, headCount() - 1);
            const int batches =
                trace_->config.is_batched() ? static_cast<int>(trace_->stages.front().tensor.size(0)) : 1;
            batchIndex_ = std::clamp(batchIndex_, 0, batches - 1);
            flags |= ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Head;
        } else {
            engineError_ = Diagnostic{"engine", Severity::Error, "", error.toStdString(), {}};
            refreshDiagnostics();
            flags |= ChangeFlag::Diagnostics;
        }
    }
    if (pending_)
        startJob();
    emit changed(flags);
}

QStringList Session::tokenLabels() const
{
    QStringList labels;
    if (!trace_)
        return labels;
    const Tensor& x = trace_->stages.front().tensor;
    const std::int64_t tokens = x.size(-2);
    const auto& book = book_tokens();
    // The book's input is recognisable by its shape; its words make the heatmaps readable.
    const bool book_words = preferBookInput_ && x.size(-1) == 3 && tokens == static_cast<std::int64_t>(book.size());
    for (std::int64_t t = 0; t < tokens; ++t)
        labels << (book_words ? QString::fromStdString(book[static_cast<std::size_t>(t)]) : QString::number(t));
    return labels;
}

const Stage* Session::stage() const
{
    if (!trace_ || trace_->stages.empty())
        return nullptr;
    return &trace_->stages[static_cast<std::size_t>(stageIndex_)];
}

void Session::setStageIndex(int index)
{
    if (!trace_)
        return;
    index = std::clamp(index, 0, static_cast<int>(trace_->stages.size()) - 1);
    if (index == stageIndex_)
        return;
    stageIndex_ = index;
    stageName_ = trace_->stages[static_cast<std::size_t>(index)].name;
    emit changed(ChangeFlag::Stage);
}

bool Session::setStageByName(const QString& name)
{
    stageName_ = name.toStdString(); // remembered, so it applies to a trace still being computed
    if (!trace_)
        return true;
    for (std::size_t i = 0; i < trace_->stages.size(); ++i)
        if (trace_->stages[i].name == stageName_) {
            setStageIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

int Session::headCount() const
{
    const Config& c = trace_ ? trace_->config : spec_.config;
    return c.has_heads() ? static_cast<int>(std::max<std::int64_t>(c.num_heads, 1)) : 1;
}

void Session::setHead(int head)
{
    head = std::clamp(head, 0, headCount() - 1);
    if (head == head_)
        return;
    head_ = head;
    emit changed(ChangeFlag::Head);
}

void Session::setBatchIndex(int index)
{
    const int batches =
        trace_ && trace_->config.is_batched() ? static_cast<int>(trace_->stages.front().tensor.size(0)) : 1;
    index = std::clamp(index, 0, batches - 1);
    if (index == batchIndex_)
        return;
    batchIndex_ = index;
    emit changed(ChangeFlag::Head);
}

void Session::setView(ViewMode view)
{
    if (view == view_)
        return;
    view_ = view;
    emit changed(ChangeFlag::View);
}

void Session::setHeatmapKind(HeatmapKind kind)
{
    if (kind == heatmapKind_)
        return;
    heatmapKind_ = kind;
    emit changed(ChangeFlag::View);
}

} // namespace attnlab::ui
