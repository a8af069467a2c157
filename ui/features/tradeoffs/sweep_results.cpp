#include "features/tradeoffs/sweep_results.h"

#include "call/config.h"
#include "tensor/error.h"

#include <algorithm>

namespace attnlab::ui {

std::vector<std::int64_t> SweepSettings::headList() const
{
    return heads.empty() && emb > 0 ? divisors(emb) : heads;
}

std::int64_t SweepSettings::evalEvery() const
{
    return std::clamp<std::int64_t>(steps / 20, 1, 100);
}

SweepSettings sweepDefaults(const std::string& task)
{
    const train::TaskSettings d = train::task_defaults(task);
    SweepSettings s;
    s.task = task;
    s.vocab = d.vocab;
    s.context = d.context;
    s.emb = d.emb;
    s.layers = d.layers;
    s.steps = d.steps;
    s.batch = d.batch;
    s.lr = d.lr;
    s.weightDecay = d.weight_decay;
    return s;
}

std::optional<std::vector<std::int64_t>> parseHeadList(const QString& text, QString* error)
{
    std::vector<std::int64_t> heads;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong h = item.trimmed().toLongLong(&ok);
        if (!ok || h < 1 || h > (1 << 20)) {
            *error = QObject::tr("num_heads '%1' is not a whole number from 1 up; list head counts such as 1, 2, 4, "
                                 "or leave the list empty for every divisor of emb.")
                         .arg(item.trimmed());
            return std::nullopt;
        }
        if (std::find(heads.begin(), heads.end(), h) == heads.end())
            heads.push_back(h);
    }
    return heads;
}

std::vector<train::RunSettings> sweepRuns(const SweepSettings& s)
{
    train::RunSettings base;
    base.task = s.task;
    base.shape.vocab_size = s.vocab;
    base.shape.context_length = s.context;
    base.shape.emb_dim = s.emb;
    base.shape.n_layers = s.layers;
    base.shape.drop_rate = train::task_defaults(s.task).drop_rate;
    base.steps = s.steps;
    base.batch = s.batch;
    base.optimizer.lr = s.lr;
    base.optimizer.weight_decay = s.weightDecay;
    base.eval_every = s.evalEvery();
    if (s.seeds < 1)
        throw Error("seeds is " + std::to_string(s.seeds) + "; a sweep needs at least 1 seed.");
    std::vector<std::int64_t> heads = s.headList();
    if (heads.empty()) // emb below 1 has no divisors: core says why with the shape it refuses
        heads.push_back(1);
    std::vector<train::RunSettings> runs;
    for (std::int64_t h : heads)
        for (int seed = 0; seed < s.seeds; ++seed) {
            train::RunSettings r = base;
            r.shape.n_heads = h;
            r.seed = static_cast<std::uint64_t>(seed);
            train::check_run(r);
            runs.push_back(r);
        }
    return runs;
}

bool SweepResults::operator==(const SweepResults& o) const
{
    return sweepToJson(*this) == sweepToJson(o);
}

QString sweepRunFileName(const SweepResults& results, int runIndex)
{
    const SweepRun& run = results.runs.at(static_cast<std::size_t>(runIndex));
    return QStringLiteral("%1-h%2-seed%3.safetensors")
        .arg(QString::fromStdString(results.settings.task))
        .arg(run.heads)
        .arg(run.seed);
}

std::vector<SweepRow> sweepTable(const SweepResults& results)
{
    std::vector<SweepRow> rows;
    for (std::int64_t h : results.settings.headList()) {
        SweepRow row;
        row.heads = h;
        row.headDim = results.settings.emb / h;
        row.seedsAsked = results.settings.seeds;
        std::vector<double> loss, acc, to90, ms;
        for (const SweepRun& r : results.runs) {
            if (r.heads != h || !r.finished || r.evals.empty())
                continue;
            train::RunResult asCore; // the run's own rule for "steps to 90%", on its measurements
            asCore.evals = r.evals;
            loss.push_back(r.evals.back().loss);
            acc.push_back(r.evals.back().accuracy);
            to90.push_back(static_cast<double>(asCore.steps_to_90()));
            ms.push_back(r.msPerStep);
        }
        if (loss.empty())
            continue;
        row.seedsDone = static_cast<int>(loss.size());
        row.loss = train::spread(loss);
        row.accuracy = train::spread(acc);
        row.stepsTo90 = train::spread(to90).mean;
        row.msPerStep = train::spread(ms).mean;
        rows.push_back(row);
    }
    return rows;
}

} // namespace attnlab::ui
