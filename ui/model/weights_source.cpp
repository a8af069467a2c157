#include "model/weights_source.h"
#include "gpt/gpt_input.h"

#include "tensor/error.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>

#include <algorithm>

namespace attnlab::ui {

WeightsChoice defaultChoice(const WeightsInfo& info, const ExperimentSpec& current)
{
    WeightsChoice choice;
    const auto& kinds = info.kinds;
    choice.kind =
        std::find(kinds.begin(), kinds.end(), current.config.kind) != kinds.end() ? current.config.kind : kinds.front();
    choice.layer = info.layers.empty() ? 0 : info.layers.front();
    const std::int64_t current_heads = current.config.has_heads() ? current.config.num_heads : 0;
    choice.numHeads = info.num_heads > 0 ? info.num_heads : suggested_num_heads(info.d_out, current_heads);
    return choice;
}

ExperimentSpec specWithFileWeights(const ExperimentSpec& current, const QString& path, const WeightsInfo& info,
                                   const WeightsChoice& choice)
{
    ExperimentSpec spec = current;
    Config& c = spec.config;
    c.kind = choice.kind;
    c.d_in = info.d_in;
    c.d_out = info.d_out;
    c.qkv_bias = info.qkv_bias;
    c.num_heads = choice.numHeads;
    // The file's own context length is the model's; otherwise any length that holds the input will do.
    c.context_length = info.context_length > 0 ? info.context_length : std::max(c.context_length, spec.num_tokens);
    spec.num_tokens = std::min(spec.num_tokens, c.context_length);
    spec.weights_path = QFileInfo(path).absoluteFilePath().toStdString();
    spec.layout = info.layout;
    spec.layout_from_file = false; // the layout was read from the names, whatever __metadata__ says
    spec.layer = info.layers.empty() ? 0 : choice.layer;
    return spec;
}

ExperimentSpec specWithSeededWeights(const ExperimentSpec& current)
{
    ExperimentSpec spec = current;
    spec.weights_path.clear();
    spec.layout = WeightLayout::Torch;
    spec.layout_from_file = true;
    spec.layer = 0;
    return spec;
}

std::optional<ExperimentSpec> specWithFileWeights(const ExperimentSpec& current, const QString& path,
                                                  std::optional<int> layer, QString* error)
{
    try {
        const WeightsInfo info = inspect_weights(open_safetensors(path.toStdString()));
        WeightsChoice choice = defaultChoice(info, current);
        if (layer) {
            if (std::find(info.layers.begin(), info.layers.end(), *layer) == info.layers.end()) {
                QStringList held;
                for (int l : info.layers)
                    held << QString::number(l);
                throw Error(info.layers.empty()
                                ? QStringLiteral("'%1' is a module's state_dict with no layers, so --layer does not "
                                                 "apply; leave it out.")
                                      .arg(path)
                                      .toStdString()
                                : QStringLiteral("'%1' has no layer %2; it holds layers %3.")
                                      .arg(path)
                                      .arg(*layer)
                                      .arg(held.join(QStringLiteral(", ")))
                                      .toStdString());
            }
            choice.layer = *layer;
        }
        return specWithFileWeights(current, path, info, choice);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

QString weightsSummary(const ExperimentSpec& spec)
{
    if (spec.config.kind == ModuleKind::SimpleSelfAttention) // section 3.3: nothing to seed or load
        return QObject::tr("No trainable weights");
    if (spec.input == InputSource::Text) { // the Text input decides the weights (gpt/gpt_input.h)
        const QString model = QFileInfo(QString::fromStdString(spec.gpt_model_path)).completeBaseName();
        try {
            if (trained_weights_fit(spec.config, cached_gpt_model(spec.gpt_model_path)->settings))
                return QObject::tr("Weights: trained, %1 layer %2").arg(model).arg(spec.gpt_layer);
        } catch (const Error&) {
        }
        return QObject::tr("Weights: seeded (seed %1); %2's do not fit").arg(spec.seed).arg(model);
    }
    if (spec.weights_path.empty())
        return QObject::tr("Weights: torch.manual_seed(%1)").arg(spec.seed);
    const QString name = QFileInfo(QString::fromStdString(spec.weights_path)).fileName();
    if (spec.layout == WeightLayout::Gpt2Hf)
        return QObject::tr("Weights: %1, layer %2").arg(name).arg(spec.layer);
    return QObject::tr("Weights: %1").arg(name);
}

} // namespace attnlab::ui
