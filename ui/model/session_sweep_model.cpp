// A model trained in the Trade-offs tab's sweep becomes the model under study: its weights, kept with the
// sweep's results, are written as `train --save` writes them and opened like any GPT file, so every tab
// (the stepper, the heatmaps, the overview, Predict First) shows that trained model on its task's letters.
#include "model/session.h"

#include "gpt/gpt2_checkpoint.h"
#include "model/model_job.h"
#include "model/sweep_job.h"
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
    r.settings = sweepRuns(results.settings).at(static_cast<std::size_t>(runIndex));
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

QString Session::studySweepRun(int runIndex)
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
        auto shown = std::make_shared<QMetaObject::Connection>();
        *shown = connect(modelJob_, &ModelJob::opened, this, [this, shown] {
            disconnect(*shown);
            setView(ViewMode::Overview);
        });
        connect(
            modelJob_, &ModelJob::openFailed, this, [shown] { disconnect(*shown); }, Qt::SingleShotConnection);
        openModel(plan);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

QString Session::saveSweepRun(int runIndex, const QString& path) const
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
