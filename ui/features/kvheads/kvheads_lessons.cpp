// The guided lesson "How many key/value heads?": it trains the book's GPT on the induction task with 8 query heads
// sharing 8, 4, 2 and 1 key/value heads (the Session's SweepJob, as lesson 9 trains its head counts), reads what the
// runs reached beside the KV cache each keeps per token, turns to what the cache costs a published model in the ⑦ tab,
// and studies the multi-query variant. Every number a check says comes from the sweep's results, core's KV cache
// counts or the opened model, never from the lesson.
//
// Here, in the ⑦ tab's folder, rather than beside lesson 9's actions in tradeoffs/: the lesson is about this tab's
// subject and ends in it; the Trade-offs tab only lends it its sweep, whose job and table were made to take
// num_kv_groups for it.
#include "features/kvheads/kvheads_lessons.h"

#include "designs/published_configs.h"
#include "features/kvheads/kv_memory.h"
#include "features/kvheads/kvheads_state.h"
#include "features/registry.h"
#include "features/session.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_question.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/model_job.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "shell/lessons_detail.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab::ui {

namespace {

std::optional<SweepSettings>& lessonSweepOverride()
{
    static std::optional<SweepSettings> settings;
    return settings;
}

// The published model the memory step counts: 32 query heads sharing 8 key/value heads, as Mistral 7B and most
// models since 2023 do, at its own context of 8,192 tokens.
constexpr const char* kPublished = "llama-3-8b";

TradeoffsState* tradeoffs(const LessonContext& c)
{
    return c.session->feature<TradeoffsState>();
}

void showTrained(const LessonContext& c)
{
    c.session->view()->setTab(ViewMode::Tradeoffs);
    c.session->view()->setTradeoffsSection(TradeoffsSection::Trained);
}

// The rows of one head count of a finished sweep that compares two key/value head counts or more (most first), or a
// sentence saying what is missing.
std::optional<std::vector<SweepRow>> kvRows(const Session& s, QString* why)
{
    const SweepJob* job = s.feature<TradeoffsState>()->sweep();
    if (job->busy()) {
        *why = QObject::tr("Still training: %1 of %2 steps.").arg(job->stepsDone()).arg(job->stepsTotal());
        return std::nullopt;
    }
    const std::vector<SweepRow> rows = sweepTable(job->results());
    for (const SweepRow& r : rows) {
        std::vector<SweepRow> same;
        std::copy_if(rows.begin(), rows.end(), std::back_inserter(same),
                     [&](const SweepRow& o) { return o.heads == r.heads; });
        if (same.size() > 1) {
            std::sort(same.begin(), same.end(),
                      [](const SweepRow& a, const SweepRow& b) { return a.kvGroups > b.kvGroups; });
            return same;
        }
    }
    *why = QObject::tr("Train one head count with two key/value head counts or more first (Show me trains 8 heads "
                       "sharing 8, 4, 2 and 1).");
    return std::nullopt;
}

// Trains the lesson's sweep unless one that compares key/value heads is in or on its way: a step entered directly
// has what its check reads once it is trained.
void trainUnlessTrained(const LessonContext& c)
{
    QString why;
    SweepJob* job = tradeoffs(c)->sweep();
    if (!job->busy() && !kvRows(*c.session, &why))
        job->start(kvHeadsLessonSweep());
}

// The finished run of the fewest key/value heads (multi-query when 1), -1 when none.
int fewestKvRun(const SweepResults& r)
{
    int found = -1;
    for (int i = 0; i < static_cast<int>(r.runs.size()); ++i) {
        const SweepRun& run = r.runs[static_cast<std::size_t>(i)];
        if (run.finished && run.params &&
            (found < 0 || run.kvHeads() < r.runs[static_cast<std::size_t>(found)].kvHeads()))
            found = i;
    }
    return found;
}

QString kvHeads(std::int64_t n)
{
    return n == 1 ? QObject::tr("1 key/value head") : QObject::tr("%1 key/value heads").arg(n);
}

CheckResult trained(const LessonContext& c)
{
    QString why;
    const auto rows = kvRows(*c.session, &why);
    if (!rows)
        return fail(why);
    QStringList counts;
    for (const SweepRow& r : *rows)
        counts << QString::number(r.kvGroups);
    return pass(QObject::tr("%1 variants trained in %2 s: %3 heads sharing %4 key/value heads.")
                    .arg(rows->size())
                    .arg(tradeoffs(c)->sweep()->results().wallSeconds, 0, 'f', 0)
                    .arg(rows->front().heads)
                    .arg(counts.join(QStringLiteral(", "))));
}

// "1/8": what share of the cache the fewer key/value heads keep.
QString share(std::int64_t fewer, std::int64_t more)
{
    const std::int64_t g = std::gcd(fewer, more);
    return QStringLiteral("%1/%2").arg(fewer / g).arg(more / g);
}

CheckResult tableRead(const LessonContext& c)
{
    QString why;
    const auto rows = kvRows(*c.session, &why);
    if (!rows)
        return fail(why);
    const SweepRow &most = rows->front(), &fewest = rows->back();
    const double lost = most.accuracy.mean - fewest.accuracy.mean;
    return pass(QObject::tr("With %1, %2 bytes of KV cache per token, accuracy %3; with %4, %5 bytes, %6: %7 %8 "
                            "for %9 of the cache.")
                    .arg(kvHeads(most.kvGroups))
                    .arg(most.kvBytesPerToken)
                    .arg(most.accuracy.mean, 0, 'f', 2)
                    .arg(kvHeads(fewest.kvGroups))
                    .arg(fewest.kvBytesPerToken)
                    .arg(fewest.accuracy.mean, 0, 'f', 2)
                    .arg(std::abs(lost), 0, 'f', 2)
                    .arg(lost >= 0 ? QObject::tr("less") : QObject::tr("more"))
                    .arg(share(fewest.kvGroups, most.kvGroups)));
}

int publishedIndex()
{
    const auto& configs = published_configs();
    for (std::size_t i = 0; i < configs.size(); ++i)
        if (configs[i].name == kPublished)
            return static_cast<int>(i);
    return -1;
}

void showMemory(const LessonContext& c)
{
    if (const auto tab = viewNamed(QStringLiteral("kvheads")))
        c.session->view()->setTab(*tab);
    KvHeadsState* kv = c.session->feature<KvHeadsState>();
    kv->setDtype(KvDtype::BF16);
    kv->setConfigIndex(publishedIndex()); // the context becomes the model's own
}

// How many bytes one token adds to the published model's cache with its own key/value heads: the table's bold row.
std::optional<poll::Question> memoryQuestion(const LessonContext& c)
{
    const KvHeadsState* kv = c.session->feature<KvHeadsState>();
    const KvMemory& m = kv->memory();
    const auto own = std::find_if(m.rows.begin(), m.rows.end(), [](const KvHeadsRow& r) { return r.is_config; });
    if (kv->configIndex() < 0 || own == m.rows.end())
        return std::nullopt;
    const AttentionShape& s = m.shape;
    const std::string dtype = dtype_name(m.dtype);
    const std::string bytes = std::to_string(dtype_bytes(m.dtype));
    return poll::number_question(
        "lesson:kv-memory",
        "How many bytes does one token add to " + s.name + "'s KV cache, with its " + std::to_string(own->kv_heads) +
            " key/value heads of head_dim " + std::to_string(s.head_dim) + " in each of its " +
            std::to_string(s.layers) + " layers, in " + dtype + "?",
        own->bytes_per_token,
        "layers × 2 (K and V) × kv_heads × head_dim × " + bytes + " bytes = " + std::to_string(s.layers) + " × 2 × " +
            std::to_string(own->kv_heads) + " × " + std::to_string(s.head_dim) + " × " + bytes + " = " +
            std::to_string(own->bytes_per_token));
}

CheckResult memoryRead(const LessonContext& c)
{
    const auto tab = viewNamed(QStringLiteral("kvheads"));
    const KvHeadsState* kv = c.session->feature<KvHeadsState>();
    if (!tab || c.session->view()->tab() != *tab || kv->configIndex() < 0)
        return fail(QObject::tr("Open the ⑦ Key/value heads tab and pick a published model in its Model box."));
    const KvMemory& m = kv->memory();
    if (m.rows.empty())
        return fail(m.error.isEmpty() ? QObject::tr("That model has nothing to count.") : m.error);
    const KvHeadsRow& most = m.rows.front();
    const KvHeadsRow& fewest = m.rows.back();
    const auto own = std::find_if(m.rows.begin(), m.rows.end(), [](const KvHeadsRow& r) { return r.is_config; });
    if (own == m.rows.end())
        return fail(QObject::tr("The table has no row for the model's own key/value heads."));
    return pass(QObject::tr("%1 at %2 tokens in %3: its %4 keep %5 a sequence; %6 would keep %7, %8 %9.")
                    .arg(QString::fromStdString(m.shape.name))
                    .arg(m.context)
                    .arg(QString::fromStdString(dtype_name(m.dtype)))
                    .arg(kvHeads(own->kv_heads), kvBytesText(static_cast<double>(own->bytes)))
                    .arg(kvHeads(most.kv_heads), kvBytesText(static_cast<double>(most.bytes)))
                    .arg(kvHeads(fewest.kv_heads), kvBytesText(static_cast<double>(fewest.bytes))));
}

void studyFewest(const LessonContext& c)
{
    TradeoffsState* t = tradeoffs(c);
    SweepJob* job = t->sweep();
    QString why;
    if (!job->busy() && kvRows(*c.session, &why)) {
        const int run = fewestKvRun(job->results());
        if (run >= 0 && t->studySweepRun(run).isEmpty())
            return;
    }
    showTrained(c); // nothing to study yet: trained first, then studied
    trainUnlessTrained(c);
    if (job->busy())
        QObject::connect(
            job, &SweepJob::finished, t,
            [t] {
                const int run = fewestKvRun(t->sweep()->results());
                if (run >= 0)
                    t->studySweepRun(run);
            },
            Qt::SingleShotConnection);
}

CheckResult studied(const LessonContext& c)
{
    const Session& s = *c.session;
    const auto m = s.trace()->modelJob()->model();
    if (!s.trace()->usesOpenedModel() || !m || m->reader != TextReader::Letters)
        return fail(QObject::tr("Pick the variant with the fewest key/value heads under the table and press Study "
                                "This Model."));
    const GptConfig& g = m->model->settings;
    if (g.kv_groups() == g.n_heads)
        return fail(QObject::tr("%1 gives every query head its own keys and values; study a variant with fewer "
                                "key/value heads.")
                        .arg(QString::fromStdString(m->model->name)));
    return pass(QObject::tr("%1 is the model under study: %2 layers of %3 query heads sharing %4.")
                    .arg(QString::fromStdString(m->model->name))
                    .arg(g.n_layers)
                    .arg(g.n_heads)
                    .arg(kvHeads(g.kv_groups())));
}

} // namespace

SweepSettings kvHeadsLessonSweep()
{
    if (lessonSweepOverride())
        return *lessonSweepOverride();
    SweepSettings s = sweepDefaults("induction"); // emb 32, 2 layers, context 32, vocabulary 16, batch 64
    s.heads = {8};
    s.kvGroups = {8, 4, 2, 1};
    s.seeds = 2;
    s.steps = 1500;
    return s;
}

void setKvHeadsLessonSweep(std::optional<SweepSettings> settings)
{
    lessonSweepOverride() = std::move(settings);
}

std::vector<LessonActions> kvHeadsActions()
{
    return {
        {QStringLiteral("train-kv"),
         [](const LessonContext& c) {
             showTrained(c);
             if (!tradeoffs(c)->sweep()->busy())
                 tradeoffs(c)->sweep()->start(kvHeadsLessonSweep());
         },
         trained,
         {widgetTarget("sweep-kv-groups"), widgetTarget("sweep-train"), widgetTarget("sweep-curves")}},
        {QStringLiteral("read-kv-table"),
         [](const LessonContext& c) {
             showTrained(c);
             trainUnlessTrained(c);
         },
         tableRead,
         {widgetTarget("sweep-table"), widgetTarget("sweep-reading")},
         trainUnlessTrained,
         {},
         [](const LessonContext& c) -> std::optional<poll::Question> {
             QString why;
             const auto rows = kvRows(*c.session, &why);
             return rows ? bestVariantQuestion("lesson:read-kv-table", *rows, true) : std::nullopt;
         }},
        {QStringLiteral("kv-memory"),
         showMemory,
         memoryRead,
         {widgetTarget("kv-memory-table")},
         {},
         {},
         memoryQuestion},
        {QStringLiteral("study-shared"), studyFewest, studied, {widgetTarget("sweep-study")}, trainUnlessTrained},
    };
}

} // namespace attnlab::ui
