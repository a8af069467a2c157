#include "features/tradeoffs/sweep_run_models.h"

#include "gpt/gpt_model.h"
#include "model/json_fields.h"
#include "tensor/error.h"
#include "train/gpt_params.h"

#include <QByteArray>
#include <QJsonArray>
#include <QObject>

#include <exception>

namespace attnlab::ui {

namespace {

// Room for a model file's header and metadata beside its weights: a few KB in practice.
constexpr std::uint64_t kHeaderAllowance = std::uint64_t{1} << 20;

// The run's own settings, found by its variant and seed: a cancel drops the runs that had not started, so an index
// into the results need not be one into the settings' runs.
train::RunSettings settingsOf(const SweepSettings& settings, const SweepRun& run)
{
    for (const train::RunSettings& s : sweepRuns(settings))
        if (s.shape.n_heads == run.heads && s.shape.kv_groups() == run.kvHeads() && s.seed == run.seed)
            return s;
    throw Error("the sweep's settings do not train that run.");
}

QString megabytes(std::uint64_t bytes)
{
    return QString::number(static_cast<double>(bytes) / 1e6, 'f', 1);
}

// "110 KB", "1.3 MB": a tiny sweep's models are not "0.0 MB".
QString size(std::uint64_t bytes)
{
    return bytes < 1000000 ? QObject::tr("%1 KB").arg((bytes + 999) / 1000)
                           : QObject::tr("%1 MB").arg(megabytes(bytes));
}

bool sameShape(const GptConfig& a, const GptConfig& b)
{
    return a.vocab_size == b.vocab_size && a.context_length == b.context_length && a.emb_dim == b.emb_dim &&
           a.n_layers == b.n_layers && a.n_heads == b.n_heads && a.kv_groups() == b.kv_groups() &&
           a.qkv_bias == b.qkv_bias && a.window == b.window;
}

} // namespace

train::RunResult sweepRunToSave(const SweepResults& results, int runIndex)
{
    const SweepRun& run = results.runs.at(static_cast<std::size_t>(runIndex));
    train::RunResult r;
    r.settings = settingsOf(results.settings, run);
    r.params = *run.params;
    r.evals = run.evals;
    return r;
}

train::Metadata sweepRunMetadata(const SweepRun& run)
{
    if (run.evals.empty())
        return {};
    return {{"val_loss", std::to_string(run.evals.back().loss)},
            {"val_accuracy", std::to_string(run.evals.back().accuracy)}};
}

std::vector<bool> sweepModelsKept(const SweepResults& results)
{
    std::vector<bool> kept(results.runs.size(), false);
    std::uint64_t used = 0;
    for (std::size_t i = 0; i < results.runs.size(); ++i) {
        const SweepRun& run = results.runs[i];
        if (!run.finished || !run.params)
            continue;
        const std::uint64_t bytes = run.params->size() * sizeof(float);
        if (used + bytes > kSessionModelBytes)
            continue; // a smaller model later in the sweep may still fit
        used += bytes;
        kept[i] = true;
    }
    return kept;
}

QString sweepModelsSentence(const SweepResults& results)
{
    const std::vector<bool> kept = sweepModelsKept(results);
    int withWeights = 0, keptCount = 0;
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < results.runs.size(); ++i) {
        const SweepRun& run = results.runs[i];
        if (!run.finished || !run.params)
            continue;
        ++withWeights;
        if (kept[i]) {
            ++keptCount;
            bytes += run.params->size() * sizeof(float);
        }
    }
    if (withWeights == 0)
        return {};
    if (keptCount == withWeights)
        return keptCount == 1
                   ? QObject::tr("A saved session keeps this model (%1).").arg(size(bytes))
                   : QObject::tr("A saved session keeps these %1 models (%2).").arg(keptCount).arg(size(bytes));
    return QObject::tr("A saved session keeps %1 of these %2 models (%3; it keeps at most %4 MiB): save the others "
                       "with Save Model….")
        .arg(keptCount)
        .arg(withWeights)
        .arg(size(bytes))
        .arg(kSessionModelBytes >> 20);
}

QString sweepModelToBase64(const SweepResults& results, int runIndex)
{
    const SweepRun& run = results.runs.at(static_cast<std::size_t>(runIndex));
    const std::string bytes = train::trained_model_bytes(sweepRunToSave(results, runIndex), sweepRunMetadata(run),
                                                         sweepRunFileName(results, runIndex).toStdString());
    return QString::fromLatin1(QByteArray::fromRawData(bytes.data(), static_cast<qsizetype>(bytes.size())).toBase64());
}

std::shared_ptr<const std::vector<float>> sweepModelFromBase64(const QJsonValue& value, const SweepSettings& settings,
                                                               const SweepRun& run, std::uint64_t* bytesLeft,
                                                               QString* problem)
{
    const QString who = QObject::tr("The model kept for %1, seed %2")
                            .arg(sweepVariantName(run.heads, run.kvHeads(), sweepGrouped(settings)))
                            .arg(run.seed);
    const auto refuse = [&](const QString& why) {
        *problem = QObject::tr("%1 was not opened (its results are kept; train again to study it): %2").arg(who, why);
        return nullptr;
    };
    if (!run.finished)
        return refuse(QObject::tr("the run did not finish, so it has no model to keep."));
    if (!value.isString())
        return refuse(QObject::tr("it must be base64 text, not %1.").arg(json_fields::describe(value)));
    train::RunSettings rs;
    try {
        rs = settingsOf(settings, run);
    } catch (const std::exception& e) {
        return refuse(QString::fromUtf8(e.what()));
    }
    // The run's own shape gives its weights' size, and with room for a header bounds the blob: a larger one is
    // refused before it is decoded, as is a model beyond what is left of the session's allowance.
    const std::uint64_t weights = gpt_layout(rs.shape).total * sizeof(float);
    if (weights > *bytesLeft)
        return refuse(QObject::tr("the session's models would come to more than the %1 MiB a session keeps.")
                          .arg(kSessionModelBytes >> 20));
    const std::uint64_t most = weights + kHeaderAllowance;
    const QString text = value.toString();
    const std::uint64_t decoded = static_cast<std::uint64_t>(text.size()) / 4 * 3;
    if (decoded > most + 3)
        return refuse(QObject::tr("it is %1 MB, more than a model of the run's shape (%2 MB) can be.")
                          .arg(megabytes(decoded), megabytes(weights)));
    const auto bytes = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!bytes)
        return refuse(QObject::tr("it is not base64 text."));
    const std::string name = sweepRunFileName(SweepResults{settings, {run}, 0.0, false}, 0).toStdString();
    GptModel model;
    try {
        SafetensorsOptions options;
        options.max_tensor_bytes = most;
        model = parse_gpt_model(std::string(bytes.decoded.constData(), static_cast<std::size_t>(bytes.decoded.size())),
                                name, options);
    } catch (const std::exception& e) {
        return refuse(QString::fromUtf8(e.what()));
    }
    if (!sameShape(model.settings, rs.shape) || model.meta("task") != rs.task)
        return refuse(QObject::tr("it is a model of another shape or task than the run's (%1, emb_dim %2, %3 layers).")
                          .arg(QString::fromStdString(rs.task))
                          .arg(rs.shape.emb_dim)
                          .arg(rs.shape.n_layers));
    const GptLayout layout = gpt_layout(rs.shape);
    std::vector<float> params(layout.total);
    for (const ParamEntry& e : layout.entries) {
        const std::vector<float> values = model.weights.at(e.name).to_vector(); // its shape checked by the reader
        std::copy(values.begin(), values.end(), params.begin() + static_cast<std::ptrdiff_t>(e.offset));
    }
    *bytesLeft -= weights;
    return std::make_shared<const std::vector<float>>(std::move(params));
}

void dropSweepModels(QJsonObject& features)
{
    if (!features.contains("sweep"))
        return;
    QJsonObject sweep = features.value("sweep").toObject();
    QJsonArray runs = sweep.value("runs").toArray();
    for (auto run = runs.begin(); run != runs.end(); ++run) {
        QJsonObject o = run->toObject();
        o.remove("model");
        *run = o;
    }
    sweep.insert("runs", runs);
    features.insert("sweep", sweep);
}

} // namespace attnlab::ui
