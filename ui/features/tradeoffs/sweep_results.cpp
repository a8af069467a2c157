#include "features/tradeoffs/sweep_results.h"

#include <algorithm>

namespace attnlab::ui {

train::SweepSpec SweepSettings::spec() const
{
    train::SweepSpec s;
    s.task = task;
    s.vocab = vocab;
    s.context = context;
    s.emb = emb;
    s.layers = layers;
    s.heads = heads;
    s.seeds = seeds; // seeded 0, 1, ...
    s.steps = steps;
    s.batch = batch;
    s.lr = lr;
    s.weight_decay = weightDecay;
    return s;
}

std::vector<std::int64_t> SweepSettings::headList() const
{
    return spec().head_list();
}

std::int64_t SweepSettings::evalEvery() const
{
    return spec().eval_every();
}

SweepSettings sweepDefaults(const std::string& task)
{
    const train::SweepSpec d = train::sweep_defaults(task);
    SweepSettings s; // the window's own seed count
    s.task = d.task;
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
        heads.push_back(h); // a repeat is refused by core (SweepSpec::expand), as train refuses it
    }
    return heads;
}

std::vector<train::RunSettings> sweepRuns(const SweepSettings& s)
{
    return s.spec().expand();
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
            if (r.heads == h && r.divergedAt > 0)
                ++row.seedsDiverged;
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

QStringList sweepDivergences(const SweepResults& results)
{
    QStringList out;
    for (const SweepRun& r : results.runs)
        if (r.divergedAt > 0)
            out << QObject::tr("%n head(s), seed %1: %2", nullptr, static_cast<int>(r.heads))
                       .arg(r.seed)
                       .arg(QString::fromStdString(
                           train::divergence_text(r.divergedAt, r.lossBefore, results.settings.lr)));
    return out;
}

} // namespace attnlab::ui
