// The Session's one "everything is computed" signal: settled() comes once a burst of edits has been
// computed -- the trace, the side computation the shown tab needs, the timings asked for -- and never
// while one is still running; whenSettled() runs a callback once then; --screenshot and --save-session of
// every tab wait on it, so the saved state is the computed one.
#include "common/gui_runner.h"
#include "common/session_fixtures.h"
#include "features/designs/equivalence_job.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "features/tradeoffs/timings_job.h"
#include "features/registry.h"

#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiSettled : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aBurstOfEditsSettlesOnceWithItsTraceIn()
    {
        Session s;
        QSignalSpy settled(&s, &Session::settled);
        s.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        s.document()->setInputShape(1, 64);
        s.document()->setInputShape(1, 128); // overtakes the pass of 64 tokens
        QVERIFY(s.computing());
        QVERIFY(settled.wait(30000));
        QCOMPARE(settled.count(), 1);
        QVERIFY(!s.computing());
        QVERIFY(s.trace()->trace());
        QCOMPARE(s.trace()->trace()->stages.front().tensor.size(1), 128); // the newest settings, not the overtaken ones
        QTest::qWait(50);
        QCOMPARE(settled.count(), 1); // nothing more to compute: no second signal
    }

    void theDesignsTabSettlesWithItsEquivalenceIn()
    {
        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        QVERIFY(testing::waitUntilSettled(s));
        QVERIFY(!s.feature<DesignsState>()->equivalence()->result()); // hidden tab: nothing computed for it
        s.view()->setTab(ViewMode::Designs);
        QVERIFY(s.computing());
        QVERIFY(testing::waitUntilSettled(s));
        QVERIFY2(s.feature<DesignsState>()->equivalence()->result(),
                 qPrintable(s.feature<DesignsState>()->equivalence()->error()));
        QVERIFY(s.feature<DesignsState>()->equivalence()->result()->equivalent());
        QVERIFY(!s.feature<DesignsState>()->equivalencePending());
    }

    void timingsAskedForAreWaitedFor()
    {
        Session s;
        Config c;
        c.d_in = c.d_out = 8;
        c.num_heads = 2;
        c.context_length = 8;
        s.document()->setConfig(c);
        s.document()->setInputShape(1, 4);
        QVERIFY(testing::waitUntilSettled(s));
        s.feature<TradeoffsState>()->measureTimings();
        QVERIFY(s.computing());
        QVERIFY(testing::waitUntilSettled(s));
        QVERIFY(!s.feature<TradeoffsState>()->timings()->busy());
        QCOMPARE(s.feature<TradeoffsState>()->timings()->timings().size(), std::size_t{4}); // 1, 2, 4, 8 heads
    }

    void whenSettledRunsOnceAndLater()
    {
        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("book")));
        QVERIFY(testing::waitUntilSettled(s));
        int calls = 0;
        s.whenSettled(&s, [&calls] { ++calls; });
        QCOMPARE(calls, 0); // queued: the caller finishes what it is doing first
        QTRY_COMPARE(calls, 1);
        s.document()->setInputShape(2, 6); // a later settle does not call it again
        QVERIFY(testing::waitUntilSettled(s));
        QCOMPARE(calls, 1);
    }

    // Every tab, through the real program: the picture is written and the state saved beside it is the
    // computed one (the trace's head, not the one the command line asked for before clamping).
    void everyTabsScreenshotWaitsForItsComputation_data()
    {
        QTest::addColumn<QString>("view");
        for (const FeatureInfo& page : featureRegistry())
            QTest::newRow(page.id) << QString::fromLatin1(page.id);
    }
    void everyTabsScreenshotWaitsForItsComputation()
    {
        QFETCH(QString, view);
        QTemporaryDir dir;
        const QString png = dir.filePath("shot.png"), saved = dir.filePath("saved.attnlab.json");
        const auto run = testing::runGui(
            {"--preset", "book", "--view", view, "--screenshot", png, "--save-session", saved}, dir.path());
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QImage picture(png);
        QVERIFY(!picture.isNull());
        QVERIFY(picture.width() > 400 && picture.height() > 300);
        QString error;
        const auto state = loadSessionFile(saved, sessionFeatures(), &error);
        QVERIFY2(state, qPrintable(error));
        QCOMPARE(sessionFeatures().tabs.value(static_cast<int>(state->view.tab)), view);
        QVERIFY(!state->view.stage.isEmpty()); // saved once the trace was in
    }
};

QTEST_MAIN(TestUiSettled)
#include "test_ui_settled.moc"
