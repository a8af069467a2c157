// The Trade-offs tab's jobs, and a model trained in its sweep as the model under study: its weights, kept with the
// sweep's results, are written as `train --save` writes them and opened like any GPT file, so every tab (the stepper,
// the heatmaps, the overview, Predict First) shows that trained model on its task's letters.
#include "features/tradeoffs/tradeoffs_state.h"

#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/timings_job.h"
#include "features/tradeoffs/trained_variants.h"
#include "gpt/gpt2_checkpoint.h"
#include "model/document_model.h"
#include "model/json_fields.h"
#include "model/model_job.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "tensor/error.h"
#include "train/run_files.h"

#include <QTemporaryDir>

namespace attnlab::ui {

namespace {

// The run's own settings and weights, as train_run returned them (what save_trained_model reads).
train::RunResult runToSave(const SweepResults& results, int runIndex)
{
    const SweepRun& run = results.runs.at(static_cast<std::size_t>(runIndex));
    train::RunResult r;
    // The run's own settings, found by its variant and seed: a cancel drops the runs that had not started, so
    // an index into the results need not be one into the settings' runs.
    for (const train::RunSettings& s : sweepRuns(results.settings))
        if (s.shape.n_heads == run.heads && s.shape.kv_groups() == run.kvHeads() && s.seed == run.seed)
            r.settings = s;
    r.params = *run.params;
    r.evals = run.evals;
    return r;
}

train::Metadata resultsOf(const SweepRun& run)
{
    if (run.evals.empty())
        return {};
    return {{"val_loss", std::to_string(run.evals.back().loss)},
            {"val_accuracy", std::to_string(run.evals.back().accuracy)}};
}

QString unusableRun(const SweepResults& results, int runIndex)
{
    if (runIndex < 0 || runIndex >= static_cast<int>(results.runs.size()))
        return QObject::tr("There is no trained run %1 in the sweep; train one first.").arg(runIndex + 1);
    const SweepRun& run = results.runs[static_cast<std::size_t>(runIndex)];
    if (!run.finished)
        return QObject::tr("That run was cancelled before it finished; train it again to study it.");
    if (!run.params)
        return QObject::tr("These results were read from a session file, which keeps what the runs reached but "
                           "not their weights; train again to study a model.");
    return {};
}

} // namespace

TradeoffsState::TradeoffsState(const SessionParts& parts, QObject* parent)
    : FeatureState(parts, parent), timings_(new TimingsJob(this)), sweep_(new SweepJob(this))
{
    for (auto signal : {&TimingsJob::started, &TimingsJob::progressed, &TimingsJob::finished})
        connect(timings_, signal, this, [this] {
            Q_EMIT timingsChanged();
            Q_EMIT delivered();
        });
    connect(sweep_, &SweepJob::started, this, [this] {
        headsShown_ = -1; // a new sweep's runs are other models
        Q_EMIT sweepStarted();
        Q_EMIT delivered();
    });
    // Ten a second: news for its page, noise for the rest.
    connect(sweep_, &SweepJob::progressed, this, &TradeoffsState::sweepProgressed);
    connect(sweep_, &SweepJob::finished, this, [this] {
        waitForSweep_ = false;
        Q_EMIT sweepFinished();
        Q_EMIT delivered();
    });
}

TradeoffsState::~TradeoffsState() = default;

void TradeoffsState::measureTimings()
{
    TimingQuery q;
    q.d_in = document()->config().d_in;
    q.d_out = document()->config().d_out;
    q.num_tokens = document()->numTokens();
    q.batch = document()->batch();
    timings_->request(q);
}

const TrainedVariants& TradeoffsState::trainedVariants(const std::string& text, int layer)
{
    // Tens of milliseconds for the four small models: on the GUI thread, once per text and layer.
    if (!trainedVariants_ || trainedVariants_->text != text || trainedVariants_->layer != layer)
        trainedVariants_ = std::make_shared<const TrainedVariants>(computeTrainedVariants(text, layer));
    return *trainedVariants_;
}

bool TradeoffsState::computing() const
{
    return timings_->busy() || (waitForSweep_ && sweep_->busy());
}

void TradeoffsState::cancel()
{
    timings_->cancel();
}

void TradeoffsState::saveSection(QJsonObject& file) const
{
    if (sweep_->hasResults()) // while training: what the runs have reached so far
        file.insert("sweep", sweepToJson(sweep_->results()));
}

void TradeoffsState::restoreSection(const QJsonObject& file)
{
    std::optional<SweepResults> saved;
    if (file.contains("sweep"))
        saved = sweepFromJson(file.value("sweep").toObject(), nullptr);
    const bool same = saved ? sweep_->hasResults() && *saved == sweep_->results() : !sweep_->hasResults();
    if (!same || sweep_->busy()) // a file replaces the session, a sweep in training too
        sweep_->restore(saved);
}

bool TradeoffsState::checkSection(const QJsonObject& file, QString* error)
{
    QJsonObject sweep;
    if (!file.contains("sweep"))
        return true;
    return json_fields::object(file, "sweep", &sweep, error) && sweepFromJson(sweep, error).has_value();
}

void TradeoffsState::showHeadsOf(int runIndex)
{
    headsShown_ = runIndex;
    Q_EMIT headsShownChanged(runIndex);
}

QString TradeoffsState::studySweepRun(int runIndex)
{
    const SweepResults& results = sweep_->results();
    if (const QString problem = unusableRun(results, runIndex); !problem.isEmpty())
        return problem;
    if (!studyDir_ || !studyDir_->isValid())
        studyDir_ = std::make_shared<QTemporaryDir>();
    const QString path = studyDir_->filePath(sweepRunFileName(results, runIndex));
    try {
        train::save_trained_model(path.toStdString(), runToSave(results, runIndex),
                                  resultsOf(results.runs[static_cast<std::size_t>(runIndex)]));
        const Gpt2Plan plan = plan_gpt2_checkpoint(path.toStdString());
        // Once in, the overview: every head of the model just trained. A failed open takes the wish back.
        ModelJob* job = trace()->modelJob();
        auto shown = std::make_shared<QMetaObject::Connection>();
        *shown = connect(job, &ModelJob::opened, this, [this, shown] {
            disconnect(*shown);
            view()->setTab(ViewMode::Overview);
        });
        connect(
            job, &ModelJob::openFailed, this, [shown] { disconnect(*shown); }, Qt::SingleShotConnection);
        trace()->openModel(plan);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString TradeoffsState::saveSweepRun(int runIndex, const QString& path) const
{
    const SweepResults& results = sweep_->results();
    if (const QString problem = unusableRun(results, runIndex); !problem.isEmpty())
        return problem;
    try {
        train::save_trained_model(path.toStdString(), runToSave(results, runIndex),
                                  resultsOf(results.runs[static_cast<std::size_t>(runIndex)]));
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace attnlab::ui
