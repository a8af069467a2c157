// A sweep's part of a session file: its settings, and per run the held-out curve as [step, loss,
// accuracy] triples, steps taken and time per step, and each finished run's model (sweep_run_models.h). Each
// refusal is one sentence naming the field; a model that cannot be read only leaves its run without one. The settings
// are held to train's own rules: once each field has its type, checkSweep (core's SweepSpec::check, which the CLI's
// train and the window's Train go through too) says whether they could train; each run must then be one of
// the runs they give, once, and each row of its heads' report one head of that model, once.
#include "features/tradeoffs/sweep_results.h"

#include "features/tradeoffs/sweep_run_models.h"

#include "model/json_fields.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <exception>
#include <set>
#include <tuple>

namespace attnlab::ui {

namespace {

constexpr double kLargestCount = 1 << 30; // steps, batch, sizes: far beyond any sweep, within int64
constexpr qsizetype kMostEntries = 1 << 20;

QString notA(const char* key, const char* what, const QJsonValue& v)
{
    return QObject::tr("\"%1\" of \"sweep\" must be %2, not %3.")
        .arg(QLatin1String(key), QLatin1String(what), json_fields::describe(v));
}

bool number(const QJsonObject& o, const char* key, double* out, QString* error)
{
    const QJsonValue v = o.value(key);
    if (!v.isDouble() || !std::isfinite(v.toDouble())) {
        *error = notA(key, "a number", v);
        return false;
    }
    *out = v.toDouble();
    return true;
}

// A list of whole numbers from 1 to `most`.
bool counts(const QJsonObject& o, const char* key, double most, const char* what, std::vector<std::int64_t>& out,
            QString* error)
{
    const QJsonValue list = o.value(key);
    if (!list.isArray() || list.toArray().size() > kMostEntries) {
        *error = notA(key, what, list);
        return false;
    }
    for (const QJsonValue& v : list.toArray()) {
        if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > most || v.toDouble() != std::floor(v.toDouble())) {
            *error = notA(key, what, v);
            return false;
        }
        out.push_back(static_cast<std::int64_t>(v.toDouble()));
    }
    return true;
}

bool readSettings(const QJsonObject& o, SweepSettings& s, QString* error)
{
    namespace f = json_fields;
    QString task;
    double vocab = 0, context = 0, emb = 0, layers = 0, seeds = 0, steps = 0, batch = 0;
    if (!f::string(o, "task", &task, error) || !f::integer(o, "vocab", 1, kLargestCount, &vocab, error) ||
        !f::integer(o, "context", 1, kLargestCount, &context, error) ||
        !f::integer(o, "emb", 1, kLargestCount, &emb, error) ||
        !f::integer(o, "layers", 1, kLargestCount, &layers, error) || !f::integer(o, "seeds", 1, 1000, &seeds, error) ||
        !f::integer(o, "steps", 1, kLargestCount, &steps, error) ||
        !f::integer(o, "batch", 1, kLargestCount, &batch, error) || !number(o, "lr", &s.lr, error) ||
        !number(o, "weight_decay", &s.weightDecay, error))
        return false;
    try {
        train::task_defaults(task.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    s.task = task.toStdString();
    s.vocab = static_cast<std::int64_t>(vocab);
    s.context = static_cast<std::int64_t>(context);
    s.emb = static_cast<std::int64_t>(emb);
    s.layers = static_cast<std::int64_t>(layers);
    s.seeds = static_cast<int>(seeds);
    s.steps = static_cast<std::int64_t>(steps);
    s.batch = static_cast<std::int64_t>(batch);
    if (!counts(o, "heads", static_cast<double>(s.emb), "a list of head counts from 1 to emb", s.heads, error))
        return false;
    // Optional: files from before key/value heads were compared have none, and train MultiHeadAttention.
    if (o.contains("kv_groups") &&
        !counts(o, "kv_groups", kLargestCount, "a list of key/value head counts from 1 up", s.kvGroups, error))
        return false;
    // train's own rules, through the function train itself calls: a width of 2^30, a rate of 0, the-verdict with
    // another vocabulary, a head count listed twice ...
    try {
        checkSweep(s);
    } catch (const std::exception& e) {
        *error = QObject::tr("\"settings\" of \"sweep\" could not train: %1").arg(QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

// What a run of the settings may be: one of heads x num_kv_groups x seeds, each once.
struct RunsAllowed {
    std::set<std::int64_t> heads;
    const SweepSettings* settings = nullptr;
    std::set<std::tuple<std::int64_t, std::int64_t, std::uint64_t>> seen;
    std::uint64_t modelBytesLeft = kSessionModelBytes; // the runs' models together, as sweepModelsKept keeps them
};

// Optional: the run's model. One that cannot be read leaves the run without it, said in its modelProblem; the
// rest of the sweep, and of the session, still opens.
void readModel(const QJsonObject& o, RunsAllowed& allowed, SweepRun& r)
{
    if (o.contains("model"))
        r.params =
            sweepModelFromBase64(o.value("model"), *allowed.settings, r, &allowed.modelBytesLeft, &r.modelProblem);
}

bool readRun(const QJsonValue& value, RunsAllowed& allowed, SweepRun& r, QString* error)
{
    const SweepSettings& settings = *allowed.settings;
    namespace f = json_fields;
    if (!value.isObject()) {
        *error = notA("runs", "a list of objects", value);
        return false;
    }
    const QJsonObject o = value.toObject();
    double heads = 0, seed = 0, steps = 0;
    if (!f::integer(o, "heads", 1, static_cast<double>(settings.emb), &heads, error) ||
        !f::integer(o, "seed", 0, 1000, &seed, error) ||
        !f::integer(o, "steps_done", 0, static_cast<double>(settings.steps), &steps, error) ||
        !number(o, "ms_per_step", &r.msPerStep, error) || !f::boolean(o, "finished", &r.finished, error, false))
        return false;
    r.heads = static_cast<std::int64_t>(heads);
    r.seed = static_cast<std::uint64_t>(seed);
    r.stepsDone = static_cast<std::int64_t>(steps);
    double kv = heads;
    if (o.contains("kv_groups") && !f::integer(o, "kv_groups", 1, heads, &kv, error))
        return false;
    r.kvGroups = kv == heads ? 0 : static_cast<std::int64_t>(kv);
    const std::vector<std::int64_t> kvList = settings.kvGroupList(r.heads);
    if (!allowed.heads.count(r.heads) || std::find(kvList.begin(), kvList.end(), r.kvHeads()) == kvList.end() ||
        r.seed >= static_cast<std::uint64_t>(settings.seeds)) {
        *error = QObject::tr("\"runs\" of \"sweep\" has a run of %1, seed %2, which its settings do not train.")
                     .arg(sweepVariantName(r.heads, r.kvHeads(), sweepGrouped(settings)))
                     .arg(r.seed);
        return false;
    }
    if (!allowed.seen.insert({r.heads, r.kvHeads(), r.seed}).second) {
        *error = QObject::tr("\"runs\" of \"sweep\" lists the run of %1, seed %2 twice.")
                     .arg(sweepVariantName(r.heads, r.kvHeads(), sweepGrouped(settings)))
                     .arg(r.seed);
        return false;
    }
    if (o.contains("diverged_at")) { // optional: a run whose loss became NaN or infinite at that step
        double at = 0;
        if (!f::integer(o, "diverged_at", 1, static_cast<double>(settings.steps), &at, error))
            return false;
        r.divergedAt = static_cast<std::int64_t>(at);
        if (r.finished) {
            *error = QObject::tr("The session's sweep has a run that both finished and diverged.");
            return false;
        }
        if (o.contains("loss_before")) {
            const QJsonValue before = o.value("loss_before");
            if (!before.isDouble() || !std::isfinite(before.toDouble()) || before.toDouble() < 0) {
                *error = notA("loss_before", "a finite loss of 0 or more", before);
                return false;
            }
            r.lossBefore = before.toDouble();
        }
    } else if (o.contains("loss_before")) {
        *error = QObject::tr("The session's sweep gives a run \"loss_before\" without \"diverged_at\".");
        return false;
    }
    const QJsonValue evals = o.value("evals");
    if (!evals.isArray() || evals.toArray().size() > kMostEntries) {
        *error = notA("evals", "a list of [step, loss, accuracy]", evals);
        return false;
    }
    for (const QJsonValue& e : evals.toArray()) {
        const QJsonArray t = e.toArray();
        if (!e.isArray() || t.size() != 3 || !t[0].isDouble() || !t[1].isDouble() || !t[2].isDouble() ||
            t[0].toDouble() < 0 || t[0].toDouble() > kLargestCount || !std::isfinite(t[1].toDouble()) ||
            !(t[2].toDouble() >= 0 && t[2].toDouble() <= 1)) {
            *error = notA("evals", "a list of [step, loss, accuracy]", e);
            return false;
        }
        r.evals.push_back({static_cast<std::int64_t>(t[0].toDouble()), t[1].toDouble(), t[2].toDouble()});
    }
    // Optional: [layer, head, previous, first, self, induction, entropy, ablated loss, ablated accuracy], the last
    // two left out, every row alike, when "ablation_skipped" says why the report did not measure them.
    const QJsonValue report = o.value("report");
    if (report.isUndefined()) {
        readModel(o, allowed, r);
        return true;
    }
    const QJsonValue skipped = o.value("ablation_skipped");
    if (!skipped.isUndefined() &&
        (!skipped.isString() || skipped.toString().isEmpty() || skipped.toString().size() > 1000)) {
        *error = notA("ablation_skipped", "a sentence saying why the heads were not ablated", skipped);
        return false;
    }
    r.ablationSkipped = skipped.toString().toStdString();
    const qsizetype columns = r.ablationSkipped.empty() ? 9 : 7;
    const auto notHeads = [&](const QJsonValue& v) {
        *error = notA("report",
                      columns == 9 ? "a list of [layer, head, previous, first, self, induction, entropy, ablated "
                                     "loss, ablated accuracy]"
                                   : "a list of [layer, head, previous, first, self, induction, entropy] (its "
                                     "\"ablation_skipped\" says the heads were not ablated)",
                      v);
        return false;
    };
    if (!report.isArray() || report.toArray().size() > kMostEntries)
        return notHeads(report);
    std::set<std::pair<std::int64_t, std::int64_t>> rows;
    for (const QJsonValue& e : report.toArray()) {
        const QJsonArray t = e.toArray();
        bool ok = e.isArray() && t.size() == columns;
        for (qsizetype i = 0; ok && i < t.size(); ++i)
            ok = t[i].isDouble() && std::isfinite(t[i].toDouble()) && t[i].toDouble() >= 0;
        for (qsizetype i = 2; ok && i < 6; ++i) // shares
            ok = t[i].toDouble() <= 1 + 1e-9;
        ok = ok && t[0].toDouble() == std::floor(t[0].toDouble()) && t[1].toDouble() == std::floor(t[1].toDouble()) &&
             (columns == 7 || t[8].toDouble() <= 1);
        if (!ok)
            return notHeads(e);
        // The model's own heads, each once: layer 10^9 of a 2-layer model is no head of it.
        if (t[0].toDouble() >= static_cast<double>(settings.layers) ||
            t[1].toDouble() >= static_cast<double>(r.heads)) {
            *error = QObject::tr("\"report\" of \"sweep\" has a row for layer %1 head %2, but its model of %3 has "
                                 "layers 0 to %4 and heads 0 to %5.")
                         .arg(t[0].toDouble(), 0, 'f', 0)
                         .arg(t[1].toDouble(), 0, 'f', 0)
                         .arg(sweepVariantName(r.heads, r.kvHeads(), false))
                         .arg(settings.layers - 1)
                         .arg(r.heads - 1);
            return false;
        }
        if (!rows.insert({static_cast<std::int64_t>(t[0].toDouble()), static_cast<std::int64_t>(t[1].toDouble())})
                 .second) {
            *error = QObject::tr("\"report\" of \"sweep\" has two rows for layer %1 head %2; each head has one.")
                         .arg(t[0].toDouble(), 0, 'f', 0)
                         .arg(t[1].toDouble(), 0, 'f', 0);
            return false;
        }
        train::HeadStats h;
        h.layer = static_cast<std::int64_t>(t[0].toDouble());
        h.head = static_cast<std::int64_t>(t[1].toDouble());
        h.shares.previous = t[2].toDouble();
        h.shares.first = t[3].toDouble();
        h.shares.self = t[4].toDouble();
        h.shares.induction = t[5].toDouble();
        h.shares.entropy = t[6].toDouble();
        if (columns == 9)
            h.ablated = {0, t[7].toDouble(), t[8].toDouble()};
        h.role = train::head_role(h.shares);
        r.report.push_back(h);
    }
    readModel(o, allowed, r);
    return true;
}

} // namespace

QJsonObject sweepToJson(const SweepResults& results)
{
    const SweepSettings& s = results.settings;
    QJsonArray heads;
    for (std::int64_t h : s.heads)
        heads.append(static_cast<double>(h));
    QJsonObject settings{
        {"task", QString::fromStdString(s.task)},
        {"vocab", static_cast<double>(s.vocab)},
        {"context", static_cast<double>(s.context)},
        {"emb", static_cast<double>(s.emb)},
        {"layers", static_cast<double>(s.layers)},
        {"heads", heads},
        {"seeds", s.seeds},
        {"steps", static_cast<double>(s.steps)},
        {"batch", static_cast<double>(s.batch)},
        {"lr", s.lr},
        {"weight_decay", s.weightDecay},
    };
    if (!s.kvGroups.empty()) { // absent otherwise, so files of sweeps over num_heads alone keep their bytes
        QJsonArray kv;
        for (std::int64_t g : s.kvGroups)
            kv.append(static_cast<double>(g));
        settings.insert("kv_groups", kv);
    }
    QJsonArray runs;
    const std::vector<bool> keepModel = sweepModelsKept(results);
    for (std::size_t i = 0; i < results.runs.size(); ++i) {
        const SweepRun& r = results.runs[i];
        QJsonArray evals;
        for (const train::EvalPoint& e : r.evals)
            evals.append(QJsonArray{static_cast<double>(e.step), e.loss, e.accuracy});
        QJsonObject run{{"heads", static_cast<double>(r.heads)},
                        {"seed", static_cast<double>(r.seed)},
                        {"steps_done", static_cast<double>(r.stepsDone)},
                        {"ms_per_step", r.msPerStep},
                        {"finished", r.finished},
                        {"evals", evals}};
        if (r.kvHeads() != r.heads) // a grouped run; absent: as many as the heads
            run.insert("kv_groups", static_cast<double>(r.kvHeads()));
        if (r.divergedAt > 0) { // files without a diverged run keep their bytes
            run.insert("diverged_at", static_cast<double>(r.divergedAt));
            if (std::isfinite(r.lossBefore))
                run.insert("loss_before", r.lossBefore);
        }
        if (!r.report.empty()) { // files from before the heads were measured keep their bytes
            QJsonArray heads;
            for (const train::HeadStats& h : r.report) {
                QJsonArray row{static_cast<double>(h.layer),
                               static_cast<double>(h.head),
                               h.shares.previous,
                               h.shares.first,
                               h.shares.self,
                               h.shares.induction,
                               h.shares.entropy};
                if (r.ablationSkipped.empty()) {
                    row.append(h.ablated.loss);
                    row.append(h.ablated.accuracy);
                }
                heads.append(row);
            }
            run.insert("report", heads);
            if (!r.ablationSkipped.empty())
                run.insert("ablation_skipped", QString::fromStdString(r.ablationSkipped));
        }
        if (keepModel[i]) // files of sweeps with no finished model keep their bytes
            run.insert("model", sweepModelToBase64(results, static_cast<int>(i)));
        runs.append(run);
    }
    return QJsonObject{{"settings", settings},
                       {"runs", runs},
                       {"wall_seconds", results.wallSeconds},
                       {"cancelled", results.cancelled}};
}

std::optional<SweepResults> sweepFromJson(const QJsonObject& o, QString* error)
{
    namespace f = json_fields;
    SweepResults r;
    QJsonObject settings;
    if (!f::object(o, "settings", &settings, error) || !readSettings(settings, r.settings, error) ||
        !number(o, "wall_seconds", &r.wallSeconds, error) || !f::boolean(o, "cancelled", &r.cancelled, error, false))
        return std::nullopt;
    const QJsonValue runs = o.value("runs");
    if (!runs.isArray() || runs.toArray().size() > kMostEntries) {
        *error = notA("runs", "a list of runs", runs);
        return std::nullopt;
    }
    RunsAllowed allowed;
    allowed.settings = &r.settings;
    for (std::int64_t h : r.settings.headList()) // checked above: at most the divisors of emb
        allowed.heads.insert(h);
    for (const QJsonValue& v : runs.toArray()) {
        SweepRun run;
        if (!readRun(v, allowed, run, error))
            return std::nullopt;
        r.runs.push_back(std::move(run));
    }
    return r;
}

} // namespace attnlab::ui
