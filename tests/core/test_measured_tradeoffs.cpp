// Measured trade-offs: the trained variants' losses come from their files' metadata (and match the
// models README), and the engine times every valid num_heads, skipping what would not fit.
#include "designs/measured_tradeoffs.h"
#include "gpt/gpt_model.h"

#include <QtTest>

using namespace attnlab;

class TestMeasuredTradeoffs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void losses_come_from_metadata_data();
    void losses_come_from_metadata();
    void times_every_divisor();
    void skips_over_budget();
};

void TestMeasuredTradeoffs::losses_come_from_metadata_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<double>("val_mean");
    QTest::newRow("h1") << 1 << 5.177;
    QTest::newRow("h2") << 2 << 5.178;
    QTest::newRow("h4") << 4 << 5.184;
    QTest::newRow("h8") << 8 << 5.182;
}

void TestMeasuredTradeoffs::losses_come_from_metadata()
{
    QFETCH(int, heads);
    QFETCH(double, val_mean);
    const TrainedLoss t =
        trained_loss(load_gpt_model(ATTNLAB_MODELS_DIR "/verdict-gpt-h" + std::to_string(heads) + ".safetensors"));
    QCOMPARE(t.num_heads, heads);
    QVERIFY(std::abs(t.val_mean - val_mean) < 5e-4);
    QVERIFY(t.val_std > 0 && t.val_std < 0.1);
    QVERIFY(t.how.find("seeds 0,1,2") != std::string::npos);
}

void TestMeasuredTradeoffs::times_every_divisor()
{
    TimingQuery q;
    q.d_in = q.d_out = 12;
    q.num_tokens = 8;
    q.repeats = 3;
    const auto timings = time_head_counts(q);
    QCOMPARE(timings.size(), std::size_t{6}); // 1, 2, 3, 4, 6, 12
    for (const auto& t : timings) {
        QVERIFY(!t.skipped);
        QVERIFY(t.median_ms > 0 && t.min_ms <= t.median_ms && t.median_ms <= t.max_ms);
        QCOMPARE(t.head_dim * t.num_heads, 12);
        QVERIFY(t.how.find("median of 3") != std::string::npos);
    }
}

void TestMeasuredTradeoffs::skips_over_budget()
{
    TimingQuery q;
    q.d_in = q.d_out = 16;
    q.num_tokens = 512;
    q.repeats = 1;
    q.memory_budget = 8 << 20; // 16 heads x 512 x 512 scores do not fit in 8 MiB
    const auto timings = time_head_counts(q);
    QVERIFY(!timings.front().skipped);
    QVERIFY(timings.back().skipped);
    QVERIFY(timings.back().how.find("not run") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestMeasuredTradeoffs)
#include "test_measured_tradeoffs.moc"
