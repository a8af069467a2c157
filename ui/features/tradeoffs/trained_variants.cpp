#include "features/tradeoffs/trained_variants.h"

#include "gpt/gpt_input.h"
#include "gpt/model_paths.h"
#include "tensor/error.h"
#include "text/tokenizer.h"

#include <QCoreApplication>

namespace attnlab::ui {

TrainedVariants computeTrainedVariants(const std::string& text, int layer)
{
    TrainedVariants out;
    out.text = text;
    out.layer = layer;
    const auto dirs = gpt_model_dirs(QCoreApplication::applicationDirPath().toStdString());
    const std::vector<std::int64_t> ids = verdict_tokenizer().encode(text);
    out.tokens = ids.size();
    for (int heads : shipped_gpt_heads()) {
        TrainedVariant v;
        v.heads = heads;
        std::shared_ptr<const GptModel> model;
        try {
            model = cached_gpt_model(resolve_gpt_model(gpt_model_name(heads), dirs));
        } catch (const Error& e) {
            v.error = QString::fromUtf8(e.what());
            out.variants.push_back(std::move(v));
            continue;
        }
        v.loss = trained_loss(*model);
        v.how = QCoreApplication::translate(
                    "TrainedVariants",
                    "read from each file's metadata (written by the training script): mean cross-entropy in nats on "
                    "the story's held-out last 10% after %1 steps; the file holds seed %2's model, the spread is over "
                    "seeds %3.")
                    .arg(QString::fromStdString(model->meta("training_steps", "?")))
                    .arg(QString::fromStdString(model->meta("seed", "?")))
                    .arg(QString::fromStdString(v.loss.seeds));
        if (const auto problem = layer_problem(*model, layer)) {
            v.error = QString::fromStdString(*problem); // the variants need not have the same depth
        } else if (!ids.empty() && static_cast<std::int64_t>(ids.size()) <= model->settings.context_length) {
            // The same text through each variant's same layer: its trained attention, traced by the engine.
            try {
                const GptLayerInput in = gpt_layer_input(*model, ids, layer);
                v.trace = std::make_shared<const Trace>(trace_forward(in.config, in.weights, in.x));
                v.measures = head_measures(v.trace->find(stage::attn_weights)->tensor);
            } catch (const std::exception& e) {
                v.error = QString::fromUtf8(e.what());
            }
        }
        out.variants.push_back(std::move(v));
    }
    return out;
}

} // namespace attnlab::ui
