// Lesson 9, "Why several heads, and why not too many?": Show me starts the lesson's sweep on the Session's
// job (QSignalSpy on started), and each check reads what a sweep reached: the table's best, fewest and most
// heads, the best variant's previous-token and induction heads, and the model under study once studied.
#include "model/model_job.h"
#include "common/session_parts.h"
#include "features/tradeoffs/sweep_heads_table.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_panel.h"
#include "shell/lessons.h"

#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// Quick to train, with two layers so that the heads report has a layer 0 and a layer 1.
SweepSettings tinySweep()
{
    SweepSettings s = sweepDefaults("induction");
    s.emb = 8;
    s.heads = {1, 2, 8};
    s.seeds = 1;
    s.steps = 30;
    s.batch = 8;
    return s;
}

CheckResult checkStep(const Lesson& lesson, int step, Session& s)
{
    return lesson.steps[static_cast<std::size_t>(step)].check(LessonContext{&s, nullptr});
}

} // namespace

class TestUiLessonSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void show_me_starts_the_lessons_sweep();
    void checks_read_the_sweep();
};

void TestUiLessonSweep::show_me_starts_the_lessons_sweep()
{
    const Lesson* lesson = findLesson(QStringLiteral("several-heads"));
    QVERIFY(lesson);
    QCOMPARE(lesson->steps.size(), std::size_t{4});
    Session s;
    QSignalSpy started(s.feature<TradeoffsState>()->sweep(), &SweepJob::started);
    lesson->steps[0].showMe(LessonContext{&s, nullptr});
    QCOMPARE(started.count(), 1);
    QCOMPARE(s.view()->tab(), ViewMode::Tradeoffs);
    QCOMPARE(s.view()->tradeoffsSection(), TradeoffsSection::Trained);
    const SweepSettings& asked = s.feature<TradeoffsState>()->sweep()->results().settings;
    QCOMPARE(asked.heads, (std::vector<std::int64_t>{1, 2, 4, 32}));
    QCOMPARE(asked.task, std::string("induction"));
    const CheckResult running = checkStep(*lesson, 0, s);
    QVERIFY(!running.passed);
    QVERIFY2(running.message.startsWith(QStringLiteral("Still training")), qPrintable(running.message));
    lesson->steps[0].showMe(LessonContext{&s, nullptr}); // a second press while it trains starts nothing
    QCOMPARE(started.count(), 1);
    s.feature<TradeoffsState>()->sweep()->cancel();
}

void TestUiLessonSweep::checks_read_the_sweep()
{
    const Lesson* lesson = findLesson(QStringLiteral("several-heads"));
    QVERIFY(lesson);
    Session s;
    for (int step = 0; step < 4; ++step)
        QVERIFY(!checkStep(*lesson, step, s).passed); // nothing trained yet
    QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
    QVERIFY(s.feature<TradeoffsState>()->sweep()->start(tinySweep()));
    QVERIFY(finished.wait(60000));
    const CheckResult trained = checkStep(*lesson, 0, s);
    QVERIFY2(trained.passed && trained.message.startsWith(QStringLiteral("3 head counts")),
             qPrintable(trained.message));
    // The table's numbers, as the sweep's rows give them.
    const std::vector<SweepRow> rows = sweepTable(s.feature<TradeoffsState>()->sweep()->results());
    const CheckResult table = checkStep(*lesson, 1, s);
    QVERIFY(table.passed);
    QVERIFY2(table.message.contains(QStringLiteral("1 head reached %1").arg(rows.front().accuracy.mean, 0, 'f', 2)),
             qPrintable(table.message));
    QVERIFY2(table.message.contains(QStringLiteral("8 heads, head_dim 1")), qPrintable(table.message));
    const CheckResult roles = checkStep(*lesson, 2, s);
    QVERIFY2(roles.passed && roles.message.contains(QStringLiteral("layer 0 head")) &&
                 roles.message.contains(QStringLiteral("layer 1 head")),
             qPrintable(roles.message));
    // Step 3's Show me puts the variant its check speaks of under "Heads of": the best one, not the first.
    SweepPanel panel(s.feature<TradeoffsState>());
    const int best = [&] {
        const SweepResults& r = s.feature<TradeoffsState>()->sweep()->results();
        int b = 0;
        for (int i = 0; i < static_cast<int>(r.runs.size()); ++i)
            if (r.runs[std::size_t(i)].evals.back().accuracy > r.runs[std::size_t(b)].evals.back().accuracy)
                b = i;
        return b;
    }();
    panel.headsTable()->variant()->setCurrentIndex(best == 0 ? 1 : 0); // the student looked at another
    QVERIFY(panel.headsTable()->shownRun() != best);
    lesson->steps[2].showMe(LessonContext{&s, nullptr});
    QCOMPARE(panel.headsTable()->shownRun(), best);
    QVERIFY2(roles.message.startsWith(
                 QStringLiteral("With %1 head")
                     .arg(s.feature<TradeoffsState>()->sweep()->results().runs[std::size_t(best)].heads)),
             qPrintable(roles.message));
    // Show me studies the best variant: the model under study reads letters.
    QVERIFY(!checkStep(*lesson, 3, s).passed);
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    lesson->steps[3].showMe(LessonContext{&s, nullptr});
    QVERIFY(opened.wait(30000));
    const CheckResult studied = checkStep(*lesson, 3, s);
    QVERIFY2(studied.passed && studied.message.contains(QStringLiteral("reading letters")),
             qPrintable(studied.message));
}

QTEST_MAIN(TestUiLessonSweep)
#include "test_ui_lesson_sweep.moc"
