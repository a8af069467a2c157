// The Trade-offs tab's measured half: the trained variants' losses and heads side by side, and the
// forward time per num_heads measured on this machine, each saying how it was obtained.
#include "common/session_fixtures.h"
#include "common/session_parts.h"
#include "features/tradeoffs/timings_job.h"
#include "features/tradeoffs/timing_panel.h"
#include "features/tradeoffs/trained_variants_panel.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiMeasured : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trained_variants_side_by_side();
    void times_every_head_count();
};

void TestUiMeasured::trained_variants_side_by_side()
{
    Session s;
    TrainedVariantsPanel panel(s.feature<TradeoffsState>());
    QCOMPARE(panel.heatmapCount(), 0); // four GPT forwards: computed when the panel is seen, not before
    panel.show();
    QCOMPARE(panel.heatmapCount(), 1 + 2 + 4 + 8);
    const QString table = panel.lossTable()->text();
    QVERIFY2(table.contains("5.216") && table.contains("5.184 ± 0.034"), qPrintable(table)); // h4, from metadata
    QVERIFY(table.contains("5.177 ± 0.026"));                                                // h1
    s.trace()->useTrainedModel(4, 0);
    s.trace()->setInputText("Jack Gisburn");
    QCOMPARE(panel.heatmapCount(), 15);
}

void TestUiMeasured::times_every_head_count()
{
    Session s;
    Config c;
    c.d_in = c.d_out = 12;
    c.num_heads = 3;
    c.context_length = 16;
    s.document()->setConfig(c);
    s.document()->setInputShape(1, 8);
    TimingPanel panel(s.feature<TradeoffsState>());
    QSignalSpy spy(s.feature<TradeoffsState>()->timings(), &TimingsJob::finished);
    panel.findChild<QPushButton*>("measure-times")->click(); // the job is the Session's: the panel only asks
    QVERIFY(s.feature<TradeoffsState>()->timings()->busy());
    QVERIFY(spy.wait(20000));
    QCOMPARE(s.feature<TradeoffsState>()->timings()->timings().size(), std::size_t{6});
    QVERIFY(s.feature<TradeoffsState>()->timings()->error().isEmpty());
    QCOMPARE(s.feature<TradeoffsState>()->timings()->total(), std::size_t{6}); // 1, 2, 3, 4, 6, 12 heads
    QCOMPARE(s.feature<TradeoffsState>()->timings()->done(), std::size_t{5});  // said before the last one started

    // Cancelled (Esc): what was measured before stays, with the settings it is of. GPT-2 small's width at
    // 512 tokens takes seconds to time, so the cancel arrives while it runs.
    c.d_in = c.d_out = 768;
    c.num_heads = 12;
    c.context_length = 512;
    s.document()->setConfig(c);
    s.document()->setInputShape(1, 512);
    s.feature<TradeoffsState>()->measureTimings();
    QCOMPARE(s.feature<TradeoffsState>()->timings()->query()->num_tokens, 512);
    s.cancel();
    QVERIFY(spy.wait(20000));
    QVERIFY(!s.feature<TradeoffsState>()->timings()->busy());
    QCOMPARE(s.feature<TradeoffsState>()->timings()->query()->num_tokens, 8);
    QCOMPARE(s.feature<TradeoffsState>()->timings()->timings().size(), std::size_t{6});
    const QString text = panel.findChild<QLabel*>("measured-times")->text();
    QVERIFY2(text.contains("median of 5 timed runs") && text.contains("this machine"), qPrintable(text));
}

QTEST_MAIN(TestUiMeasured)
#include "test_ui_measured.moc"
