// A whole GPT opened from a file (model_job.h) as the Session's Text input, and the overview's every
// layer's heads. An opened checkpoint's trace comes from its own forward, not the ForwardJob: the whole
// model runs once a text, and the chosen layer's trace and every layer's heads come out of the same run.
#include "model/trace_state.h"

#include "model/document_model.h"

#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_input.h"
#include "gpt/gpt_text.h"
#include "gpt/model_paths.h"
#include "model/forward_job.h"
#include "model/model_job.h"
#include "tensor/error.h"
#include "text/tokenizer.h"

#include <QCoreApplication>

namespace attnlab::ui {

void TraceState::connectModelJob()
{
    modelJob_ = new ModelJob(this);
    connect(modelJob_, &ModelJob::opened, this, &TraceState::useOpenedModel);
    connect(modelJob_, &ModelJob::openFailed, this, [this](const QString& sentence) {
        modelProblem_ = sentence;
        Q_EMIT changed(ChangeFlag::Model | ChangeFlag::Busy);
    });
    connect(modelJob_, &ModelJob::progressed, this, [this] { Q_EMIT changed(ChangeFlag::Busy); });
    connect(modelJob_, &ModelJob::finished, this, [this](const ModelRunResult& r) {
        Q_EMIT modelRunFinished(r); // the overview takes the layers it brings along first
        adoptResult({r.trace, r.error, r.cancelled, r.stale});
    });
}

void TraceState::useOpenedModel()
{
    if (!modelJob_->model())
        return;
    const OpenedModel& m = *modelJob_->model();
    ExperimentSpec spec = document_->spec();
    spec.input = InputSource::Text;
    spec.gpt_model_path = m.plan.file;
    spec.gpt_layer = 0;
    // A task model has never seen a word: it is shown a sequence of its own task, unless the text
    // already is one it reads (a student's own letters, kept when the same kind of model is reopened).
    // The story's sentence, the default, is cut to what the model reads (57 tokens; a Verdict model trained with
    // --context 56 opened on an inline error); a student's own text is kept, too long or not.
    const auto tooLong = [&] {
        return static_cast<std::int64_t>(tokensFor(spec).ids.size()) > m.model->settings.context_length;
    };
    if (spec.text.empty() ||
        (m.reader == TextReader::Letters && !unreadable_token_sentence(*m.model, tokensFor(spec)).empty()) ||
        (spec.text == verdict_first_sentence() && tooLong()))
        spec.text = example_text(*m.model, m.tokenizer.get());
    spec.config = gpt_attention_config(*m.model);
    spec.batch = 1;
    spec.num_tokens = std::max<std::int64_t>(1, static_cast<std::int64_t>(tokensFor(spec).ids.size()));
    Q_EMIT openedModelUsed(); // the overview's heads of the model before are gone
    document_->setSpec(spec, true);
}

void TraceState::openModel(const Gpt2Plan& plan)
{
    modelProblem_.clear();
    modelJob_->open(plan, UINT64_MAX); // the machine's memory is the limit, checked before reading
    Q_EMIT changed(ChangeFlag::Busy);
}

QString TraceState::useShippedModel(const QString& name, int layer, const std::function<void()>& then)
{
    std::optional<Gpt2Plan> plan;
    try {
        const std::vector<std::string> dirs = gpt_model_dirs(QCoreApplication::applicationDirPath().toStdString());
        plan = plan_gpt2_checkpoint(resolve_gpt_model(name.toStdString(), dirs));
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    if (const auto m = modelJob_->model(); m && m->plan.file == plan->file) {
        if (!usesOpenedModel() || !trained_weights_fit(document_->spec().config, m->model->settings))
            useOpenedModel(); // its own call again
        document_->setGptLayer(layer);
        if (then)
            then();
        return {};
    }
    // After useOpenedModel (connected first), which starts at layer 0; a failed open takes the wish back.
    auto layered = std::make_shared<QMetaObject::Connection>();
    *layered = connect(modelJob_, &ModelJob::opened, this, [this, layered, layer, then] {
        disconnect(*layered);
        document_->setGptLayer(layer);
        if (then)
            then();
    });
    connect(
        modelJob_, &ModelJob::openFailed, this, [layered] { disconnect(*layered); }, Qt::SingleShotConnection);
    openModel(*plan);
    return {};
}

void TraceState::reopenModel(const QString& checkpoint, const std::function<void(const std::string& file)>& restore)
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

bool TraceState::usesOpenedModel() const
{
    return opensWithModel(document_->spec());
}

bool TraceState::opensWithModel(const ExperimentSpec& spec) const
{
    const auto m = modelJob_ ? modelJob_->model() : nullptr;
    return spec.input == InputSource::Text && m && spec.gpt_model_path == m->plan.file;
}

QString TraceState::unopenedCheckpoint() const
{
    if (!document_->usesTextInput() || usesOpenedModel() || unopenedPath_.empty() ||
        document_->spec().gpt_model_path != unopenedPath_)
        return {};
    return QString::fromStdString(unopenedPath_);
}

QString TraceState::openedCheckpoint() const
{
    return usesOpenedModel() ? QString::fromStdString(modelJob_->model()->plan.file) : QString();
}

int TraceState::gptLayers() const
{
    if (usesOpenedModel())
        return static_cast<int>(modelJob_->model()->model->settings.n_layers);
    try {
        return document_->usesTextInput()
                   ? static_cast<int>(cached_gpt_model(document_->spec().gpt_model_path)->settings.n_layers)
                   : 0;
    } catch (const Error&) {
        return 0;
    }
}

void TraceState::addOpenedModelDiagnostics()
{
    const GptModel& model = *modelJob_->model()->model;
    if (const std::string unreadable = unreadable_token_sentence(model, textTokens()); !unreadable.empty()) {
        diagnostics_.push_back({DiagnosticCode::TextUnusable, Severity::Error, std::nullopt, unreadable, {}, {}});
        return;
    }
    const ExperimentSpec& spec = document_->spec();
    if (const auto problem = layer_problem(model, spec.gpt_layer)) {
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
    if (trained_weights_fit(spec.config, model.settings))
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
    if (spec.config.d_in != emb)
        d.fixes.push_back({Slot::d_in, emb});
    if (spec.config.d_out != emb)
        d.fixes.push_back({Slot::d_out, emb});
    if (spec.config.num_heads != model.settings.n_heads)
        d.fixes.push_back({Slot::num_heads, model.settings.n_heads});
    diagnostics_.push_back(d);
}

void TraceState::runOpenedModel()
{
    const OpenedModel& m = *modelJob_->model();
    ModelRun run{m.model, m.plan,     m.plan.layer_norm_eps, textTokens().ids, document_->gptLayer(),
                 false,   UINT64_MAX, m.tokenizerBytes};
    modelJob_->run(run);
    Q_EMIT modelRunStarted();
}

} // namespace attnlab::ui
