// A whole GPT opened from a file (model_job.h) as the Session's Text input, and the overview's every
// layer's heads. An opened checkpoint's trace comes from its own forward, not the ForwardJob: the whole
// model runs once a text, and the chosen layer's trace and every layer's heads come out of the same run.
#include "model/session.h"

#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_input.h"
#include "gpt/gpt_text.h"
#include "model/forward_job.h"
#include "model/model_job.h"
#include "tensor/error.h"
#include "text/tokenizer.h"

namespace attnlab::ui {

void Session::connectModelJob()
{
    modelJob_ = new ModelJob(this);
    connect(modelJob_, &ModelJob::opened, this, &Session::useOpenedModel);
    connect(modelJob_, &ModelJob::openFailed, this, [this](const QString& sentence) {
        modelProblem_ = sentence;
        Q_EMIT changed(ChangeFlag::Results | ChangeFlag::Busy);
    });
    connect(modelJob_, &ModelJob::progressed, this, [this] { Q_EMIT changed(ChangeFlag::Busy); });
    connect(modelJob_, &ModelJob::finished, this, &Session::adoptModelRun);
    connect(modelJob_, &ModelJob::overviewFinished, this, [this](const ModelRunResult& r) {
        if (r.stale)
            return;
        if (r.layers)
            layerAttention_ = r.layers;
        overviewError_ = r.error;
        Q_EMIT changed(ChangeFlag::Results);
    });
}

void Session::useOpenedModel()
{
    if (!modelJob_->model())
        return;
    const OpenedModel& m = *modelJob_->model();
    spec_.input = InputSource::Text;
    spec_.gpt_model_path = m.plan.file;
    spec_.gpt_layer = 0;
    // A task model has never seen a word: it is shown a sequence of its own task, unless the text
    // already is one it reads (a student's own letters, kept when the same kind of model is reopened).
    if (spec_.text.empty() ||
        (m.reader == TextReader::Letters && !unreadable_token_sentence(*m.model, textTokens()).empty()))
        spec_.text = example_text(*m.model);
    spec_.config = gpt_attention_config(*m.model);
    callText_ = QString::fromStdString(positional_call(spec_.config));
    callError_.reset();
    spec_.batch = 1;
    spec_.num_tokens = std::max<std::int64_t>(1, static_cast<std::int64_t>(textTokens().ids.size()));
    layerAttention_.reset();
    settingsEdited();
}

void Session::openModel(const Gpt2Plan& plan)
{
    modelProblem_.clear();
    modelJob_->open(plan, UINT64_MAX); // the machine's memory is the limit, checked before reading
    Q_EMIT changed(ChangeFlag::Busy);
}

void Session::reopenModel(const QString& checkpoint, const std::function<void(const std::string& file)>& restore)
{
    delete reopening_; // a session opened while the last one's checkpoint loads replaces it
    const std::string path = checkpoint.toStdString();
    const auto unopened = [this, path, restore](const std::string& why) {
        unopenedPath_ = path;
        unopenedProblem_ = "this session's checkpoint could not be opened: " + why;
        restore(path);
    };
    if (path.empty())
        return restore(path);
    if (const auto m = modelJob_->model(); m && m->plan.file == path)
        return restore(path); // already in, as when a session is opened twice
    std::optional<Gpt2Plan> plan;
    try {
        plan = plan_gpt2_checkpoint(path);
    } catch (const Error& e) {
        return unopened(e.what());
    }
    auto* pending = new QObject(this);
    reopening_ = pending;
    // Each waits once: the copies outlive the pending object, deleted before they run (they may reopen).
    connect(modelJob_, &ModelJob::opened, pending, [pending, restore, file = plan->file] {
        const auto run = restore;
        const std::string opened = file;
        delete pending;
        run(opened);
    });
    connect(modelJob_, &ModelJob::openFailed, pending, [pending, unopened](const QString& why) {
        const auto run = unopened;
        delete pending;
        run(why.toStdString());
    });
    openModel(*plan);
}

bool Session::usesOpenedModel() const
{
    const auto m = modelJob_ ? modelJob_->model() : nullptr;
    return spec_.input == InputSource::Text && m && spec_.gpt_model_path == m->plan.file;
}

QString Session::unopenedCheckpoint() const
{
    if (!usesTextInput() || usesOpenedModel() || unopenedPath_.empty() || spec_.gpt_model_path != unopenedPath_)
        return {};
    return QString::fromStdString(unopenedPath_);
}

int Session::gptLayers() const
{
    if (usesOpenedModel())
        return static_cast<int>(modelJob_->model()->model->settings.n_layers);
    try {
        return usesTextInput() ? static_cast<int>(cached_gpt_model(spec_.gpt_model_path)->settings.n_layers) : 0;
    } catch (const Error&) {
        return 0;
    }
}

void Session::addOpenedModelDiagnostics()
{
    const GptModel& model = *modelJob_->model()->model;
    if (const std::string unreadable = unreadable_token_sentence(model, textTokens()); !unreadable.empty()) {
        diagnostics_.push_back({DiagnosticCode::TextUnusable, Severity::Error, std::nullopt, unreadable, {}, {}});
        return;
    }
    if (const auto problem = layer_problem(model, spec_.gpt_layer)) {
        diagnostics_.push_back({DiagnosticCode::LayerMissing, Severity::Error, std::nullopt, *problem, {}, {}});
        return;
    }
    // Its positions are the checkpoint's, fixed: a longer text is shortened, no context_length helps.
    const auto tokens = static_cast<std::int64_t>(textTokens().ids.size());
    if (const auto positions = model.settings.context_length; tokens > positions) {
        std::erase_if(diagnostics_, [](const Diagnostic& d) { return d.code == DiagnosticCode::TokensExceedContext; });
        diagnostics_.push_back({DiagnosticCode::TokensExceedContext,
                                Severity::Error,
                                std::nullopt,
                                "the text has " + std::to_string(tokens) + " tokens, but " + model.name +
                                    " takes at most " + std::to_string(positions) +
                                    " positions (its checkpoint fixes them), so shorten the text to " +
                                    std::to_string(positions) + " tokens or fewer.",
                                {},
                                {}});
    }
    if (trained_weights_fit(spec_.config, model.settings))
        return;
    // The whole model runs, so its own attention must: there are no seeded weights to fall back to.
    Diagnostic d{
        DiagnosticCode::TrainedWeights,
        Severity::Error,
        Slot::d_out,
        model.name + "'s attention is " + positional_call(gpt_attention_config(model)) +
            "; the call no longer matches it, so the model cannot run; undo, or set it back, to see its heads.",
        {},
        {}};
    const auto emb = model.settings.emb_dim;
    if (spec_.config.d_in != emb)
        d.fixes.push_back({Slot::d_in, emb});
    if (spec_.config.d_out != emb)
        d.fixes.push_back({Slot::d_out, emb});
    if (spec_.config.num_heads != model.settings.n_heads)
        d.fixes.push_back({Slot::num_heads, model.settings.n_heads});
    diagnostics_.push_back(d);
}

void Session::runOpenedModel()
{
    const OpenedModel& m = *modelJob_->model();
    ModelRun run{m.model, m.plan, m.plan.layer_norm_eps, textTokens().ids, spec_.gpt_layer, false, UINT64_MAX};
    modelJob_->run(run);
    overviewStale_ = repeatText_; // the run brings the overview's heads along, unless it reads the text twice
}

void Session::adoptModelRun(const ModelRunResult& r)
{
    if (r.layers && !r.layers->repeated && !repeatText_) {
        layerAttention_ = r.layers;
        overviewError_.clear();
    }
    adoptResult({r.trace, r.error, r.cancelled, r.stale});
}

void Session::setRepeatText(bool on)
{
    if (on == repeatText_)
        return;
    repeatText_ = on;
    overviewStale_ = true;
    Q_EMIT changed(ChangeFlag::Results);
}

void Session::openHead(int layer, int head)
{
    setGptLayer(layer);
    setHead(head);
    setView(ViewMode::Heatmaps);
}

bool Session::overviewPending() const
{
    return view_ == ViewMode::Overview && usesTextInput() &&
           ((overviewStale_ && !hasErrors()) || modelJob_->overviewBusy());
}

void Session::overviewFollow(ChangeFlags flags)
{
    if (flags & ChangeFlag::Settings && !usesOpenedModel())
        overviewStale_ = true;
    if (view_ != ViewMode::Overview || !overviewStale_ || !usesTextInput() || hasErrors())
        return;
    if (usesOpenedModel() && !repeatText_) {
        if (!busy())
            runOpenedModel();
        return;
    }
    overviewStale_ = false;
    ModelRun run;
    run.ids = textTokens().ids;
    run.repeated = repeatText_;
    if (usesOpenedModel()) {
        const OpenedModel& m = *modelJob_->model();
        run.model = m.model;
        run.plan = m.plan;
        run.eps = m.plan.layer_norm_eps;
    } else {
        try {
            run.model = cached_gpt_model(spec_.gpt_model_path);
        } catch (const Error&) {
            return; // the diagnostics say why
        }
    }
    modelJob_->runOverview(run);
}

} // namespace attnlab::ui
