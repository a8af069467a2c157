// A sweep's part of a session file: its settings, and per run the held-out curve as [step, loss,
// accuracy] triples, steps taken and time per step -- the weights are left out (megabytes per sweep,
// and a second's training makes them again). Each refusal is one sentence naming the field.
#include "features/tradeoffs/sweep_results.h"

#include "model/json_fields.h"

#include <QJsonArray>

#include <cmath>
#include <exception>

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
    const QJsonValue heads = o.value("heads");
    if (!heads.isArray() || heads.toArray().size() > kMostEntries) {
        *error = notA("heads", "a list of head counts", heads);
        return false;
    }
    for (const QJsonValue& h : heads.toArray()) {
        if (!h.isDouble() || h.toDouble() < 1 || h.toDouble() > s.emb || h.toDouble() != std::floor(h.toDouble())) {
            *error = notA("heads", "a list of head counts from 1 to emb", h);
            return false;
        }
        s.heads.push_back(static_cast<std::int64_t>(h.toDouble()));
    }
    return true;
}

bool readRun(const QJsonValue& value, const SweepSettings& settings, SweepRun& r, QString* error)
{
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
    // Optional: [layer, head, previous, first, self, induction, entropy, ablated loss, ablated accuracy].
    const QJsonValue report = o.value("report");
    if (report.isUndefined())
        return true;
    const auto notHeads = [&](const QJsonValue& v) {
        *error = notA("report",
                      "a list of [layer, head, previous, first, self, induction, entropy, ablated loss, "
                      "ablated accuracy]",
                      v);
        return false;
    };
    if (!report.isArray() || report.toArray().size() > kMostEntries)
        return notHeads(report);
    for (const QJsonValue& e : report.toArray()) {
        const QJsonArray t = e.toArray();
        bool ok = e.isArray() && t.size() == 9;
        for (qsizetype i = 0; ok && i < t.size(); ++i)
            ok = t[i].isDouble() && std::isfinite(t[i].toDouble()) && t[i].toDouble() >= 0;
        for (qsizetype i = 2; ok && i < 6; ++i) // shares
            ok = t[i].toDouble() <= 1 + 1e-9;
        ok = ok && t[0].toDouble() < kLargestCount && t[1].toDouble() < static_cast<double>(r.heads) &&
             t[8].toDouble() <= 1;
        if (!ok)
            return notHeads(e);
        train::HeadStats h;
        h.layer = static_cast<std::int64_t>(t[0].toDouble());
        h.head = static_cast<std::int64_t>(t[1].toDouble());
        h.shares.previous = t[2].toDouble();
        h.shares.first = t[3].toDouble();
        h.shares.self = t[4].toDouble();
        h.shares.induction = t[5].toDouble();
        h.shares.entropy = t[6].toDouble();
        h.ablated = {0, t[7].toDouble(), t[8].toDouble()};
        h.role = train::head_role(h.shares);
        r.report.push_back(h);
    }
    return true;
}

} // namespace

QJsonObject sweepToJson(const SweepResults& results)
{
    const SweepSettings& s = results.settings;
    QJsonArray heads;
    for (std::int64_t h : s.heads)
        heads.append(static_cast<double>(h));
    const QJsonObject settings{
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
    QJsonArray runs;
    for (const SweepRun& r : results.runs) {
        QJsonArray evals;
        for (const train::EvalPoint& e : r.evals)
            evals.append(QJsonArray{static_cast<double>(e.step), e.loss, e.accuracy});
        QJsonObject run{{"heads", static_cast<double>(r.heads)},
                        {"seed", static_cast<double>(r.seed)},
                        {"steps_done", static_cast<double>(r.stepsDone)},
                        {"ms_per_step", r.msPerStep},
                        {"finished", r.finished},
                        {"evals", evals}};
        if (r.divergedAt > 0) { // files without a diverged run keep their bytes
            run.insert("diverged_at", static_cast<double>(r.divergedAt));
            if (std::isfinite(r.lossBefore))
                run.insert("loss_before", r.lossBefore);
        }
        if (!r.report.empty()) { // files from before the heads were measured keep their bytes
            QJsonArray heads;
            for (const train::HeadStats& h : r.report)
                heads.append(QJsonArray{static_cast<double>(h.layer), static_cast<double>(h.head), h.shares.previous,
                                        h.shares.first, h.shares.self, h.shares.induction, h.shares.entropy,
                                        h.ablated.loss, h.ablated.accuracy});
            run.insert("report", heads);
        }
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
    for (const QJsonValue& v : runs.toArray()) {
        SweepRun run;
        if (!readRun(v, r.settings, run, error))
            return std::nullopt;
        r.runs.push_back(std::move(run));
    }
    return r;
}

} // namespace attnlab::ui
