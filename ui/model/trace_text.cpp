// The Text input source of the Session: a sentence through one of the GPTs trained on The Verdict.
// Choosing a variant sets the call to the model's own attention (d_in = d_out = 128, its num_heads,
// context_length 64, eval-mode dropout 0.0), so the trained weights fit; editing the call away from
// it is allowed and explained (gpt/gpt_input.h), and undo brings the trained heads back.
#include "model/trace_state.h"

#include "model/document_model.h"

#include "gpt/gpt_input.h"
#include "gpt/model_paths.h"
#include "model/model_job.h"
#include "tensor/error.h"

#include <QCoreApplication>

namespace attnlab::ui {

namespace {

std::shared_ptr<const GptModel> modelOrNull(const std::string& path)
{
    if (path.empty())
        return nullptr;
    try {
        return cached_gpt_model(path);
    } catch (const Error&) {
        return nullptr; // addTextDiagnostics() says why
    }
}

} // namespace

void TraceState::useTrainedModel(int numHeads, int layer)
{
    const std::vector<std::string> dirs = gpt_model_dirs(QCoreApplication::applicationDirPath().toStdString());
    std::string path;
    try {
        path = resolve_gpt_model(gpt_model_name(numHeads), dirs);
    } catch (const Error&) {
        path = gpt_model_name(numHeads) + ".safetensors"; // kept, so the diagnostic names what is missing
    }
    ExperimentSpec spec = document_->spec();
    spec.input = InputSource::Text;
    spec.gpt_model_path = path;
    spec.gpt_layer = layer;
    if (spec.text.empty())
        spec.text = verdict_first_sentence();
    const auto model = modelOrNull(path);
    if (model)
        spec.config = gpt_attention_config(*model);
    spec.batch = 1;
    spec.num_tokens = std::max<std::int64_t>(1, static_cast<std::int64_t>(tokensFor(spec).ids.size()));
    document_->setSpec(spec, model != nullptr);
}

void TraceState::setInputText(const QString& text)
{
    ExperimentSpec spec = document_->spec();
    if (text.toStdString() == spec.text)
        return;
    spec.text = text.toStdString();
    spec.batch = 1;
    // The token count is a setting like any other: validate() then checks it against context_length.
    spec.num_tokens = std::max<std::int64_t>(1, static_cast<std::int64_t>(tokensFor(spec).ids.size()));
    document_->setSpec(spec, false);
}

int TraceState::gptHeads() const
{
    if (usesOpenedModel())
        return static_cast<int>(modelJob_->model()->model->settings.n_heads);
    const auto model = modelOrNull(document_->spec().gpt_model_path);
    return model ? static_cast<int>(model->settings.n_heads) : 0;
}

TokenizedText TraceState::textTokens() const
{
    return tokensFor(document_->spec());
}

TokenizedText TraceState::tokensFor(const ExperimentSpec& spec) const
{
    const bool opened = opensWithModel(spec);
    if (opened && modelJob_->model()->reader != TextReader::Gpt2Bpe)
        return tokenize_for(*modelJob_->model()->model, spec.text);
    if (opened) { // GPT-2's byte-level BPE: every text has tokens, none unknown
        TokenizedText t;
        const Gpt2Tokenizer& tokenizer = *modelJob_->model()->tokenizer;
        try {
            t.ids = tokenizer.encode(spec.text, true);
        } catch (const Error&) {
            return {}; // not UTF-8: addTextDiagnostics says so
        }
        for (std::int64_t id : t.ids)
            t.tokens.push_back(tokenizer.piece_text(id));
        t.unknown.assign(t.ids.size(), false);
        return t;
    }
    return verdict_tokenizer().tokenize(spec.text);
}

void TraceState::addTextDiagnostics()
{
    const ExperimentSpec& spec = document_->spec();
    if (!document_->usesTextInput())
        return;
    if (const auto problem = text_problem(spec.text)) {
        diagnostics_.push_back({DiagnosticCode::TextUnusable, Severity::Error, std::nullopt, *problem, {}, {}});
        return;
    }
    if (textTokens().ids.empty()) {
        diagnostics_.push_back({DiagnosticCode::TextEmpty,
                                Severity::Error,
                                std::nullopt,
                                "the text has no tokens; type at least one word.",
                                {},
                                {}});
        return;
    }
    if (usesOpenedModel())
        return addOpenedModelDiagnostics();
    if (!unopenedPath_.empty() && spec.gpt_model_path == unopenedPath_) {
        diagnostics_.push_back({DiagnosticCode::ModelMissing, Severity::Error, std::nullopt, unopenedProblem_, {}, {}});
        return;
    }
    std::shared_ptr<const GptModel> model;
    try {
        model = cached_gpt_model(spec.gpt_model_path);
    } catch (const Error& e) {
        diagnostics_.push_back({DiagnosticCode::ModelMissing, Severity::Error, std::nullopt, e.what(), {}, {}});
        return;
    }
    if (const auto problem = layer_problem(*model, spec.gpt_layer)) {
        diagnostics_.push_back({DiagnosticCode::LayerMissing, Severity::Error, std::nullopt, *problem, {}, {}});
        return;
    }
    if (const auto note = fit_note(spec.config, *model)) {
        Diagnostic d{DiagnosticCode::TrainedWeights, Severity::Warning, Slot::d_out, *note, {}, {}};
        const auto emb = model->settings.emb_dim;
        if (spec.config.d_in != emb)
            d.fixes.push_back({Slot::d_in, emb});
        if (spec.config.d_out != emb)
            d.fixes.push_back({Slot::d_out, emb});
        if (spec.config.num_heads != model->settings.n_heads)
            d.fixes.push_back({Slot::num_heads, model->settings.n_heads});
        diagnostics_.push_back(d);
    }
}

} // namespace attnlab::ui
