// What the settings column and the pages say about the settings beside their values: what the input
// is; whether torch.manual_seed draws anything at all (no weights to draw, trained or loaded weights, an
// input that is not seeded), so no box looks live that changes nothing; and whether the trace shown is
// of these settings or the last valid one, and of which call.
#include "model/trace_state.h"

#include "model/document_model.h"

#include "forward/trace.h"
#include "gpt/gpt_input.h"
#include "io/weights.h"
#include "tensor/error.h"

#include <QFileInfo>

namespace attnlab::ui {

namespace {

bool trainedWeightsFit(const ExperimentSpec& spec, std::int64_t* width)
{
    try {
        const auto model = cached_gpt_model(spec.gpt_model_path);
        *width = model->settings.emb_dim;
        return trained_weights_fit(spec.config, model->settings);
    } catch (const Error&) {
        return false; // the diagnostics say the model is missing; the seed box stays as it was
    }
}

} // namespace

QString TraceState::inputSummary() const
{
    const ExperimentSpec& spec_ = document_->spec();
    if (document_->usesTextInput())
        return tr("the input is the typed text, through the trained model");
    if (spec_.input == InputSource::File)
        return tr("the input is x from %1").arg(QFileInfo(QString::fromStdString(spec_.input_path)).fileName());
    if (document_->usesBookInput())
        return tr("the input is the book's six tokens, \"Your journey starts with one step\"");
    return tr("the input is seeded random numbers");
}

QString TraceState::seedUnusedReason() const
{
    const ExperimentSpec& spec_ = document_->spec();
    const bool usesTextInput = document_->usesTextInput();
    const Config& c = spec_.config;
    const auto& slots = module_slots(c.kind);
    const bool dropoutSlot = std::find(slots.begin(), slots.end(), "dropout") != slots.end();
    if (spec_.training && dropoutSlot && c.dropout > 0.0 && !spec_.dropout_seed)
        return {}; // dropout's masks continue the stream the seed started
    std::int64_t width = 0;
    const bool trained = usesTextInput && trainedWeightsFit(spec_, &width);
    QString weights;
    if (c.kind == ModuleKind::SimpleSelfAttention)
        weights = tr("SimpleSelfAttention() has no weights to draw");
    else if (trained)
        weights = tr("the weights are the trained model's");
    else if (!spec_.weights_path.empty())
        weights = tr("the weights come from %1").arg(QFileInfo(QString::fromStdString(spec_.weights_path)).fileName());
    else
        return {};
    const bool seededInput =
        usesTextInput ? !trained && c.d_in != width : spec_.input == InputSource::Random && !document_->usesBookInput();
    if (seededInput)
        return {}; // the seed still draws the input (torch.rand from seed + 1)
    return tr("Not used here: %1 and %2, so torch.manual_seed draws nothing.").arg(weights, inputSummary());
}

bool TraceState::traceStale() const
{
    return trace_ && (document_->callError().has_value() || hasErrors() || cancelled_);
}

QString TraceState::traceCall() const
{
    return trace_ ? QString::fromStdString(positional_call(trace_->config)) : QString();
}

QStringList TraceState::tokenLabels() const
{
    QStringList labels;
    if (!trace_)
        return labels;
    const Tensor& x = trace_->stages.front().tensor;
    const std::int64_t tokens = x.size(-2);
    if (document_->usesTextInput()) { // the real tokens, while the trace is of a text with as many
        const TokenizedText text = textTokens();
        if (static_cast<std::int64_t>(text.tokens.size()) == tokens) {
            for (const auto& t : text.tokens)
                labels << QString::fromStdString(t);
            return labels;
        }
    }
    const auto& book = book_tokens();
    // The book's input is recognisable by its shape; its words make the heatmaps readable.
    const bool book_words =
        document_->prefersBookInput() && x.size(-1) == 3 && tokens == static_cast<std::int64_t>(book.size());
    for (std::int64_t t = 0; t < tokens; ++t)
        labels << (book_words ? QString::fromStdString(book[static_cast<std::size_t>(t)]) : QString::number(t));
    return labels;
}

} // namespace attnlab::ui
