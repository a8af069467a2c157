// The Trade-offs tab's jobs, and a model trained in its sweep as the model under study: its weights, kept with the
// sweep's results, are written as `train --save` writes them and opened like any GPT file, so every tab (the stepper,
// the heatmaps, the overview, Predict First) shows that trained model on its task's letters.
#include "features/tradeoffs/tradeoffs_state.h"

#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_run_models.h"
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

#include <utility>

namespace attnlab::ui {

namespace {

QString unusableRun(const SweepResults& results, int runIndex)
{
    if (runIndex < 0 || runIndex >= static_cast<int>(results.runs.size()))
        return QObject::tr("There is no trained run %1 in the sweep; train one first.").arg(runIndex + 1);
    const SweepRun& run = results.runs[static_cast<std::size_t>(runIndex)];
    if (!run.finished)
        return QObject::tr("That run was cancelled before it finished; train it again to study it.");
    if (!run.params && !run.modelProblem.isEmpty())
        return run.modelProblem;
    if (!run.params)
        return QObject::tr("These results were read from a session file saved without this run's model (before "
                           "sessions kept models, or beyond what a session keeps); train again to study it.");
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
        studiedRun_ = -1;
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
    if (!sweep_->hasResults())
        return;
    QJsonObject sweep = sweepToJson(sweep_->results()); // while training: what the runs have reached so far
    // The run under study, when the session keeps its model: opened again on reopening, its file being gone.
    const SweepResults& r = sweep_->results();
    if (studiedRun_ >= 0 && studiedRun_ < static_cast<int>(r.runs.size()) &&
        trace()->openedCheckpoint() == studiedPath_ && sweepModelsKept(r)[static_cast<std::size_t>(studiedRun_)])
        sweep.insert("studied", studiedRun_);
    file.insert("sweep", sweep);
}

void TradeoffsState::restoreSection(const QJsonObject& file)
{
    std::optional<SweepResults> saved;
    if (file.contains("sweep"))
        saved = sweepFromJson(file.value("sweep").toObject(), nullptr);
    const bool same = saved ? sweep_->hasResults() && *saved == sweep_->results() : !sweep_->hasResults();
    if (!same || sweep_->busy()) // a file replaces the session, a sweep in training too
        sweep_->restore(saved);
    studiedRun_ = -1;
    reopenedStudy_.clear();
    const QJsonValue studied = file.value("sweep").toObject().value("studied");
    const int run = studied.isDouble() ? studied.toInt(-1) : -1;
    const SweepResults& r = sweep_->results();
    if (run < 0 || run >= static_cast<int>(r.runs.size()) || !r.runs[static_cast<std::size_t>(run)].params)
        return; // nothing studied, or its model was not kept: the session's checkpoint says what is missing
    if (!studyDir_ || !studyDir_->isValid())
        studyDir_ = std::make_shared<QTemporaryDir>();
    const QString path = studyDir_->filePath(sweepRunFileName(r, run));
    try {
        train::save_trained_model(path.toStdString(), sweepRunToSave(r, run),
                                  sweepRunMetadata(r.runs[static_cast<std::size_t>(run)]));
    } catch (const Error&) {
        return; // a full temporary folder: the checkpoint the session names is said missing instead
    }
    studiedRun_ = run;
    studiedPath_ = reopenedStudy_ = path;
}

QString TradeoffsState::takeReopenedStudy()
{
    return std::exchange(reopenedStudy_, QString());
}

bool TradeoffsState::checkSection(const QJsonObject& file, QString* error)
{
    QJsonObject sweep;
    if (!file.contains("sweep"))
        return true;
    if (!json_fields::object(file, "sweep", &sweep, error))
        return false;
    const auto results = sweepFromJson(sweep, error);
    if (!results)
        return false;
    double studied = 0; // optional: the run under study when it was saved
    return !sweep.contains("studied") ||
           json_fields::integer(sweep, "studied", 0, static_cast<double>(results->runs.size()) - 1, &studied, error);
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
        train::save_trained_model(path.toStdString(), sweepRunToSave(results, runIndex),
                                  sweepRunMetadata(results.runs[static_cast<std::size_t>(runIndex)]));
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
        studiedRun_ = runIndex;
        studiedPath_ = path;
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
        train::save_trained_model(path.toStdString(), sweepRunToSave(results, runIndex),
                                  sweepRunMetadata(results.runs[static_cast<std::size_t>(runIndex)]));
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace attnlab::ui
