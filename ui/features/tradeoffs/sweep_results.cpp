#include "features/tradeoffs/sweep_results.h"

#include "designs/kv_cache.h"

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
    s.kv_groups = kvGroups;
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

std::vector<std::int64_t> SweepSettings::kvGroupList(std::int64_t h) const
{
    return kvGroups.empty() ? std::vector<std::int64_t>{h} : kvGroups;
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

namespace {

// A comma-separated list of whole numbers from 1 up; a repeat is refused by core (SweepSpec::check), as train
// refuses it. `sentence` says what the item is not, with %1 the item.
std::optional<std::vector<std::int64_t>> parseCounts(const QString& text, const QString& sentence, QString* error)
{
    std::vector<std::int64_t> counts;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong n = item.trimmed().toLongLong(&ok);
        if (!ok || n < 1 || n > (1 << 20)) {
            *error = sentence.arg(item.trimmed());
            return std::nullopt;
        }
        counts.push_back(n);
    }
    return counts;
}

} // namespace

std::optional<std::vector<std::int64_t>> parseHeadList(const QString& text, QString* error)
{
    return parseCounts(text,
                       QObject::tr("num_heads '%1' is not a whole number from 1 up; list head counts such as 1, 2, 4, "
                                   "or leave the list empty for every divisor of emb."),
                       error);
}

std::optional<std::vector<std::int64_t>> parseKvGroupList(const QString& text, QString* error)
{
    return parseCounts(text,
                       QObject::tr("num_kv_groups '%1' is not a whole number from 1 up; list key/value head counts "
                                   "such as 8, 4, 2, 1, or leave the list empty for as many as the heads."),
                       error);
}

std::vector<train::RunSettings> sweepRuns(const SweepSettings& s)
{
    return s.spec().expand();
}

void checkSweep(const SweepSettings& s)
{
    s.spec().check();
}

bool SweepResults::operator==(const SweepResults& o) const
{
    return sweepToJson(*this) == sweepToJson(o);
}

QString sweepRunFileName(const SweepResults& results, int runIndex)
{
    const SweepRun& run = results.runs.at(static_cast<std::size_t>(runIndex));
    return QStringLiteral("%1-h%2%3-seed%4.safetensors")
        .arg(QString::fromStdString(results.settings.task))
        .arg(run.heads)
        .arg(run.kvHeads() != run.heads ? QStringLiteral("-kv%1").arg(run.kvHeads()) : QString())
        .arg(run.seed);
}

bool sweepGrouped(const SweepSettings& settings)
{
    return !settings.kvGroups.empty();
}

QString sweepVariantName(std::int64_t heads, std::int64_t kvGroups, bool grouped)
{
    const QString h = heads == 1 ? QObject::tr("1 head") : QObject::tr("%1 heads").arg(heads);
    if (!grouped && kvGroups == heads)
        return h;
    return kvGroups == 1 ? QObject::tr("%1, 1 key/value head").arg(h)
                         : QObject::tr("%1, %2 key/value heads").arg(h).arg(kvGroups);
}

int sweepRunIndex(const SweepResults& results, std::int64_t heads, std::int64_t kvGroups, std::uint64_t seed)
{
    for (std::size_t i = 0; i < results.runs.size(); ++i) {
        const SweepRun& r = results.runs[i];
        if (r.heads == heads && r.kvHeads() == kvGroups && r.seed == seed)
            return static_cast<int>(i);
    }
    return -1;
}

namespace {

// What the KV cache of one generated token holds in the trained model: 2 x layers x kv heads x head_dim floats.
std::int64_t kvBytesPerToken(const SweepSettings& s, std::int64_t heads, std::int64_t kvGroups)
{
    AttentionShape shape;
    shape.name = "trained here";
    shape.layers = s.layers;
    shape.d_model = s.emb;
    shape.num_heads = heads;
    shape.num_kv_heads = kvGroups;
    shape.head_dim = heads > 0 ? s.emb / heads : 0;
    shape.context_length = s.context;
    try {
        return kv_bytes_per_token(shape, KvDtype::F32); // the trainer's floats
    } catch (...) {
        return 0; // a shape core refuses trains no run, so no row shows it
    }
}

} // namespace

std::vector<SweepRow> sweepTable(const SweepResults& results)
{
    std::vector<SweepRow> rows;
    for (std::int64_t h : results.settings.headList())
        for (std::int64_t g : results.settings.kvGroupList(h)) {
            SweepRow row;
            row.heads = h;
            row.kvGroups = g;
            row.headDim = results.settings.emb / h;
            row.kvBytesPerToken = kvBytesPerToken(results.settings, h, g);
            row.seedsAsked = results.settings.seeds;
            std::vector<double> loss, acc, to90, ms;
            for (const SweepRun& r : results.runs) {
                const bool mine = r.heads == h && r.kvHeads() == g;
                if (mine && r.divergedAt > 0)
                    ++row.seedsDiverged;
                if (!mine || !r.finished || r.evals.empty())
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
            out << QObject::tr("%1, seed %2: %3")
                       .arg(sweepVariantName(r.heads, r.kvHeads(), sweepGrouped(results.settings)))
                       .arg(r.seed)
                       .arg(QString::fromStdString(
                           train::divergence_text(r.divergedAt, r.lossBefore, results.settings.lr)));
    return out;
}

} // namespace attnlab::ui
