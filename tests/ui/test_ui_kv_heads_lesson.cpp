// Lesson 10 ("How many key/value heads?"): every step's Show me makes its own check pass, in order and entered
// directly (as --guide kv-heads --guide-step N does: a step that needs the sweep trains it, and the check waits for
// it); the checks' sentences are the sweep's, core's KV cache counts' and the opened model's numbers, never the
// lesson's. The steps train a tiny sweep in place of the lesson's minute-long one (kvHeadsLessonSweep), which is
// checked to be the one measured for it.
#include "common/session_fixtures.h"
#include "designs/published_configs.h"
#include "features/kvheads/kv_memory.h"
#include "features/kvheads/kvheads_lessons.h"
#include "features/kvheads/kvheads_state.h"
#include "features/registry.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "forward/stage_names.h"
#include "model/model_job.h"
#include "shell/lessons.h"

#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const Lesson& lesson()
{
    return *findLesson(QStringLiteral("kv-heads"));
}

// 8 heads of width 2 sharing 8, 4, 2 and 1 key/value heads, two seeds of 20 steps: seconds, not a minute.
SweepSettings tinySweep()
{
    SweepSettings s = sweepDefaults("induction");
    s.emb = 16;
    s.heads = {8};
    s.kvGroups = {8, 4, 2, 1};
    s.seeds = 2;
    s.steps = 20;
    s.batch = 8;
    return s;
}

// Show me, then what the window does before --guide-step checks: a Show me that trains is waited for, then
// everything asked for.
CheckResult showThenCheck(Session& s, const LessonStep& step)
{
    step.showMe({&s, nullptr});
    if (s.feature<TradeoffsState>()->sweep()->busy())
        s.feature<TradeoffsState>()->waitForSweep();
    if (!testing::waitUntilSettled(s, 120000))
        return {false, QStringLiteral("never settled")};
    QTest::qWait(0);
    return step.check({&s, nullptr});
}

int stepIndex(const char* id)
{
    const auto& steps = lesson().steps;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].id == QLatin1String(id))
            return static_cast<int>(i);
    return -1;
}

} // namespace

class TestUiKvHeadsLesson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(findLesson(QStringLiteral("kv-heads")));
        QCOMPARE(lesson().steps.size(), std::size_t{4});
        QCOMPARE(lessonIds().last(), QStringLiteral("kv-heads"));
    }
    void init() { setKvHeadsLessonSweep(tinySweep()); }
    void cleanup() { setKvHeadsLessonSweep(std::nullopt); }

    // What Show me trains without the test's stand-in: the sweep docs/training.md measured for the lesson.
    void theLessonsSweepIsTheMeasuredOne()
    {
        setKvHeadsLessonSweep(std::nullopt);
        const SweepSettings s = kvHeadsLessonSweep();
        QCOMPARE(s.task, std::string("induction"));
        QCOMPARE(s.emb, std::int64_t{32});
        QCOMPARE(s.layers, std::int64_t{2});
        QCOMPARE(s.heads, (std::vector<std::int64_t>{8}));
        QCOMPARE(s.kvGroups, (std::vector<std::int64_t>{8, 4, 2, 1}));
        QCOMPARE(s.seeds, 2);
        QCOMPARE(s.steps, std::int64_t{1500});
        Session session;
        QSignalSpy started(session.feature<TradeoffsState>()->sweep(), &SweepJob::started);
        lesson().steps[0].showMe({&session, nullptr});
        QCOMPARE(started.count(), 1);
        QVERIFY(session.feature<TradeoffsState>()->sweep()->results().settings == s);
        const CheckResult running = lesson().steps[0].check({&session, nullptr});
        QVERIFY(!running.passed);
        QVERIFY2(running.message.startsWith(QStringLiteral("Still training")), qPrintable(running.message));
        lesson().steps[0].showMe({&session, nullptr}); // a second press while it trains starts nothing
        QCOMPARE(started.count(), 1);
        session.feature<TradeoffsState>()->sweep()->cancel();
    }

    void steps_in_order()
    {
        Session s;
        for (const LessonStep& step : lesson().steps)
            QVERIFY2(!step.check({&s, nullptr}).passed, qPrintable(step.id)); // nothing done yet
        for (const LessonStep& step : lesson().steps) {
            const CheckResult r = showThenCheck(s, step);
            QVERIFY2(r.passed, qPrintable(step.title + ": " + r.message));
        }
    }

    void step_entered_directly_data()
    {
        QTest::addColumn<int>("step");
        for (std::size_t i = 0; i < lesson().steps.size(); ++i)
            QTest::newRow(qPrintable(lesson().steps[i].id)) << static_cast<int>(i);
    }

    void step_entered_directly()
    {
        QFETCH(int, step);
        Session s;
        const LessonStep& st = lesson().steps[static_cast<std::size_t>(step)];
        const CheckResult r = showThenCheck(s, st);
        QVERIFY2(r.passed, qPrintable(st.title + ": " + r.message));
    }

    // The table's step says the most and the fewest key/value heads' accuracy and bytes, as the sweep's rows have them.
    void theTableIsReadFromTheSweep()
    {
        Session s;
        const CheckResult r = showThenCheck(s, lesson().steps[static_cast<std::size_t>(stepIndex("read-kv-table"))]);
        QVERIFY2(r.passed, qPrintable(r.message));
        const std::vector<SweepRow> rows = sweepTable(s.feature<TradeoffsState>()->sweep()->results());
        QCOMPARE(rows.size(), std::size_t{4});
        QCOMPARE(rows.front().kvGroups, std::int64_t{8});
        QCOMPARE(rows.back().kvGroups, std::int64_t{1});
        const QString said =
            QStringLiteral(
                "With 8 key/value heads, %1 bytes of KV cache per token, accuracy %2; with 1 key/value head, "
                "%3 bytes, %4:")
                .arg(rows.front().kvBytesPerToken)
                .arg(rows.front().accuracy.mean, 0, 'f', 2)
                .arg(rows.back().kvBytesPerToken)
                .arg(rows.back().accuracy.mean, 0, 'f', 2);
        QVERIFY2(r.message.startsWith(said), qPrintable(r.message + " / " + said));
        QVERIFY2(r.message.endsWith(QStringLiteral("for 1/8 of the cache.")), qPrintable(r.message));
        // 2 (K and V) x 2 layers x 8 key/value heads x head_dim 2 x 4 bytes, and an eighth of it
        QCOMPARE(rows.front().kvBytesPerToken, std::int64_t{256});
        QCOMPARE(rows.back().kvBytesPerToken, std::int64_t{32});
    }

    // The memory step counts Llama 3 8B in tab ⑦, and its check names core's numbers.
    void theCacheIsCountedForAPublishedModel()
    {
        Session s;
        const CheckResult r = showThenCheck(s, lesson().steps[static_cast<std::size_t>(stepIndex("kv-memory"))]);
        QVERIFY2(r.passed, qPrintable(r.message));
        QCOMPARE(s.view()->tab(), *viewNamed(QStringLiteral("kvheads")));
        const KvMemory& m = s.feature<KvHeadsState>()->memory();
        QCOMPARE(m.shape.name, std::string("llama-3-8b"));
        QCOMPARE(m.context, find_published_config("llama-3-8b")->context_length);
        QCOMPARE(m.dtype, KvDtype::BF16);
        std::int64_t own = 0;
        for (const KvHeadsRow& row : m.rows)
            own = row.is_config ? row.bytes : own;
        // 8,192 tokens x 32 layers x 2 x 8 key/value heads x 128 x 2 bytes
        QCOMPARE(own, std::int64_t{8192} * 32 * 2 * 8 * 128 * 2);
        QVERIFY2(r.message.contains(
                     QStringLiteral("its 8 key/value heads keep %1").arg(kvBytesText(static_cast<double>(own)))),
                 qPrintable(r.message));
        QVERIFY2(r.message.contains(kvBytesText(static_cast<double>(m.rows.front().bytes))), qPrintable(r.message));
        QVERIFY2(r.message.contains(
                     QStringLiteral("1 key/value head %1").arg(kvBytesText(static_cast<double>(m.rows.back().bytes)))),
                 qPrintable(r.message));
    }

    // The last step studies the multi-query variant: one key/value head, its keys repeated to the 8 query heads.
    void theSharedModelIsStudied()
    {
        Session s;
        const CheckResult r = showThenCheck(s, lesson().steps[static_cast<std::size_t>(stepIndex("study-shared"))]);
        QVERIFY2(r.passed, qPrintable(r.message));
        const auto m = s.trace()->modelJob()->model();
        QVERIFY(m);
        QCOMPARE(m->model->settings.kv_groups(), std::int64_t{1});
        QCOMPARE(m->model->name, std::string("induction-h8-kv1-seed0"));
        QVERIFY2(r.message.startsWith(QStringLiteral("induction-h8-kv1-seed0 is the model under study: 2 layers of 8 "
                                                     "query heads sharing 1 key/value head")),
                 qPrintable(r.message));
        QTRY_VERIFY_WITH_TIMEOUT(s.trace()->trace() && s.trace()->usesOpenedModel() && !s.computing(), 30000);
        QVERIFY(s.trace()->trace()->find(stage::keys_repeated));
        QCOMPARE(s.trace()->trace()->find(stage::keys_repeated)->tensor.shape()[1], std::int64_t{8});
    }
};

QTEST_MAIN(TestUiKvHeadsLesson)
#include "test_ui_kv_heads_lesson.moc"
