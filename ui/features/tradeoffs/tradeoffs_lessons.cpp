// The guided lesson "Why several heads, and why not too many?": it trains the book's GPT in the app on
// the induction task for four head counts (the Session's SweepJob), then reads what the runs reached.
// Every number a check says comes from the sweep's results and core's head report, never from the lesson.
#include "features/tradeoffs/tradeoffs_lessons.h"

#include "model/model_job.h"
#include "features/session.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_question.h"
#include "shell/lessons_detail.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/trace_state.h"
#include "model/view_model.h"

namespace attnlab::ui {

namespace {

std::optional<SweepSettings>& lessonSweepOverride()
{
    static std::optional<SweepSettings> settings;
    return settings;
}

void showTrained(const LessonContext& c)
{
    c.session->view()->setTab(ViewMode::Tradeoffs);
    c.session->view()->setTradeoffsSection(TradeoffsSection::Trained);
}

// The rows of a finished sweep with at least two head counts, or a sentence saying what is missing.
std::optional<std::vector<SweepRow>> finishedRows(const Session& s, QString* why)
{
    const SweepJob* job = s.feature<TradeoffsState>()->sweep();
    if (job->busy()) {
        *why = QObject::tr("Still training: %1 of %2 steps.").arg(job->stepsDone()).arg(job->stepsTotal());
        return std::nullopt;
    }
    const std::vector<SweepRow> rows = sweepTable(job->results());
    if (rows.size() < 2) {
        *why = QObject::tr("Train at least two head counts first (Show me trains 1, 2, 4 and 32).");
        return std::nullopt;
    }
    return rows;
}

// Trains the lesson's sweep unless one is trained or on its way: what step 1 leaves for a later step entered directly.
void trainUnlessTrained(const LessonContext& c)
{
    QString why;
    SweepJob* job = c.session->feature<TradeoffsState>()->sweep();
    showTrained(c); // where its progress shows
    if (!job->busy() && !finishedRows(*c.session, &why))
        job->start(severalHeadsLessonSweep());
}

// The finished run with the highest final held-out accuracy, -1 when none.
int bestRun(const SweepResults& r)
{
    int best = -1;
    for (int i = 0; i < static_cast<int>(r.runs.size()); ++i) {
        const SweepRun& run = r.runs[static_cast<std::size_t>(i)];
        if (run.finished && !run.evals.empty() &&
            (best < 0 || run.evals.back().accuracy > r.runs[static_cast<std::size_t>(best)].evals.back().accuracy))
            best = i;
    }
    return best;
}

QString heads(std::int64_t n)
{
    return n == 1 ? QObject::tr("1 head") : QObject::tr("%1 heads").arg(n);
}

// Studies the best variant; entered before anything is trained, trains first and studies it once trained.
void studyBest(const LessonContext& c)
{
    TradeoffsState* t = c.session->feature<TradeoffsState>();
    trainUnlessTrained(c);
    if (t->sweep()->busy()) {
        QObject::connect(
            t->sweep(), &SweepJob::finished, t,
            [t] {
                const int best = bestRun(t->sweep()->results());
                if (best >= 0)
                    t->studySweepRun(best);
            },
            Qt::SingleShotConnection);
        return;
    }
    const int best = bestRun(t->sweep()->results());
    if (best >= 0 && t->studySweepRun(best).isEmpty())
        return;
    showTrained(c); // nothing to study: the check says what to do
}

} // namespace

// Small enough to finish well within a minute on two cores, large enough for the curve to bend (1, 2, 4, 32 heads
// reached 0.70, 0.88, 0.86 and 0.24 held-out accuracy here).
SweepSettings severalHeadsLessonSweep()
{
    if (lessonSweepOverride())
        return *lessonSweepOverride();
    SweepSettings s = sweepDefaults("induction");
    s.heads = {1, 2, 4, 32};
    s.seeds = 1;
    s.steps = 1000;
    return s;
}

void setSeveralHeadsLessonSweep(std::optional<SweepSettings> settings)
{
    lessonSweepOverride() = std::move(settings);
}

std::vector<LessonActions> severalHeadsActions()
{
    return {
        {QStringLiteral("train-four"),
         [](const LessonContext& c) {
             showTrained(c);
             if (!c.session->feature<TradeoffsState>()->sweep()->busy())
                 c.session->feature<TradeoffsState>()->sweep()->start(severalHeadsLessonSweep());
         },
         [](const LessonContext& c) {
             QString why;
             const auto rows = finishedRows(*c.session, &why);
             if (!rows)
                 return fail(why);
             return pass(QObject::tr("%1 head counts trained in %2 s.")
                             .arg(rows->size())
                             .arg(c.session->feature<TradeoffsState>()->sweep()->results().wallSeconds, 0, 'f', 0));
         },
         {widgetTarget("sweep-train"), widgetTarget("sweep-curves")}},
        {QStringLiteral("read-table"),
         trainUnlessTrained,
         [](const LessonContext& c) {
             QString why;
             const auto rows = finishedRows(*c.session, &why);
             if (!rows)
                 return fail(why);
             const SweepRow* best = &rows->front();
             for (const SweepRow& r : *rows)
                 best = r.accuracy.mean > best->accuracy.mean ? &r : best;
             const SweepRow& fewest = rows->front();
             const SweepRow& most = rows->back();
             return pass(QObject::tr("%1 did best (accuracy %2); %3 reached %4 and %5, head_dim %6, %7.")
                             .arg(heads(best->heads))
                             .arg(best->accuracy.mean, 0, 'f', 2)
                             .arg(heads(fewest.heads))
                             .arg(fewest.accuracy.mean, 0, 'f', 2)
                             .arg(heads(most.heads))
                             .arg(most.headDim)
                             .arg(most.accuracy.mean, 0, 'f', 2));
         },
         {widgetTarget("sweep-table"), widgetTarget("sweep-reading")},
         trainUnlessTrained,
         {},
         [](const LessonContext& c) -> std::optional<poll::Question> {
             QString why;
             const auto rows = finishedRows(*c.session, &why);
             return rows ? bestVariantQuestion("lesson:read-table", *rows, false) : std::nullopt;
         }},
        {QStringLiteral("each-head"),
         [](const LessonContext& c) { // the heads its check speaks of: the best variant's, once trained
             TradeoffsState* t = c.session->feature<TradeoffsState>();
             trainUnlessTrained(c);
             if (t->sweep()->busy())
                 QObject::connect(
                     t->sweep(), &SweepJob::finished, t, [t] { t->showHeadsOf(bestRun(t->sweep()->results())); },
                     Qt::SingleShotConnection);
             else
                 t->showHeadsOf(bestRun(t->sweep()->results()));
         },
         [](const LessonContext& c) {
             QString why;
             if (!finishedRows(*c.session, &why))
                 return fail(why);
             const SweepResults& r = c.session->feature<TradeoffsState>()->sweep()->results();
             const int best = bestRun(r);
             const SweepRun& run = r.runs[static_cast<std::size_t>(best)];
             const train::HeadStats *previous = nullptr, *induction = nullptr;
             for (const train::HeadStats& h : run.report) {
                 if (h.layer == 0 && (!previous || h.shares.previous > previous->shares.previous))
                     previous = &h;
                 if (h.layer == 1 && (!induction || h.shares.induction > induction->shares.induction))
                     induction = &h;
             }
             if (!previous || !induction)
                 return fail(QObject::tr("The best variant has no heads measured; train with two layers."));
             const QString shares = QObject::tr("With %1: layer 0 head %2 puts %3 on the previous letter; layer 1 "
                                                "head %4 has induction score %5.")
                                        .arg(heads(run.heads))
                                        .arg(previous->head)
                                        .arg(previous->shares.previous, 0, 'f', 2)
                                        .arg(induction->head)
                                        .arg(induction->shares.induction, 0, 'f', 2);
             if (!run.ablationSkipped.empty()) // no ablated numbers to quote (head_report.h's bound)
                 return pass(shares);
             return pass(
                 shares +
                 QObject::tr(" Zeroing the first leaves accuracy %1.").arg(previous->ablated.accuracy, 0, 'f', 2));
         },
         {widgetTarget("sweep-heads-variant"), widgetTarget("sweep-heads-table")},
         trainUnlessTrained},
        {QStringLiteral("every-tab"),
         studyBest,
         [](const LessonContext& c) {
             const Session& s = *c.session;
             const auto m = s.trace()->modelJob()->model();
             if (!s.trace()->usesOpenedModel() || !m || m->reader != TextReader::Letters)
                 return fail(QObject::tr("Press Study This Model under a trained variant's heads."));
             return pass(QObject::tr("%1 is the model under study: %2 layers × %3 heads, reading letters.")
                             .arg(QString::fromStdString(m->model->name))
                             .arg(m->model->settings.n_layers)
                             .arg(m->model->settings.n_heads));
         },
         {widgetTarget("sweep-study")},
         trainUnlessTrained},
    };
}

} // namespace attnlab::ui
