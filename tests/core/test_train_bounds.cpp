// A sweep's work bounded before it runs (core/train/train_time.h, train_memory.h): the time estimate counts each
// phase from a calibration as its header says, the refusals name the setting that costs (--steps for training,
// --layers for the head reports, the runs, --dump-run's steps), the memory's parts add up to what the runs hold,
// and a need beyond the machine never advises a larger budget. The CLI's tests run the real thing.
#include "tensor/error.h"
#include "train/gpt_params.h"
#include "train/tasks.h"
#include "train/train_memory.h"
#include "train/train_time.h"

#include <QtTest>

#include <string>

using namespace attnlab;
using namespace attnlab::train;

namespace {

RunSettings run_of(std::int64_t heads, std::int64_t layers, std::int64_t steps)
{
    RunSettings r;
    r.shape.n_heads = heads;
    r.shape.n_layers = layers;
    r.steps = steps;
    r.eval_every = 5;
    return r; // emb 32, context 32, batch 64: a held-out chunk of 64 sequences
}

QString refusal(const std::function<void()>& check)
{
    try {
        check();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestTrainBounds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // 100 steps at 1 ms, 20 held-out passes of 8 chunks at 10 ms; a report of 2 + heads x (layers + 1) / 2 passes.
    void time_counts_each_phase()
    {
        const Calibration c{0.001, 0.01, 512};
        const std::vector<RunSettings> runs{run_of(4, 2, 100), run_of(2, 2, 100)};
        const double pass = 8 * 0.01, training = 100 * 0.001 + 20 * pass;
        const SweepTime one = estimate_sweep_time(runs, 1, c);
        QVERIFY(std::fabs(one.training - 2 * training) < 1e-9);
        QVERIFY(std::fabs(one.reports - pass * ((2 + 4 * 1.5) + (2 + 2 * 1.5))) < 1e-9);
        const SweepTime two = estimate_sweep_time(runs, 2, c);
        QVERIFY(std::fabs(two.training - training) < 1e-9);
        QVERIFY(std::fabs(two.reports - pass * (2 + 4 * 1.5)) < 1e-9); // the longer report alone
        // Twice the layers, every head ablated: each pass costs about twice, and the report has about twice the
        // passes.
        const double at32 = estimate_sweep_time({run_of(1, 32, 1)}, 1, c, Ablation::All).reports;
        const double at64 = estimate_sweep_time({run_of(1, 64, 1)}, 1, c, Ablation::All).reports;
        QVERIFY(std::fabs(at64 / at32 - (2 + 65 / 2.0) / (2 + 33 / 2.0)) < 1e-9);
        // By default one step's training does not pay for that (head_report.h): the measures' two passes alone.
        QCOMPARE(estimate_sweep_time({run_of(1, 32, 1)}, 1, c).reports, 2 * pass);
        QCOMPARE(estimate_sweep_time({run_of(1, 64, 1)}, 1, c).reports, 2 * pass);
    }

    void refusals_name_the_setting_data()
    {
        QTest::addColumn<double>("training");
        QTest::addColumn<double>("reports");
        QTest::addColumn<QString>("says");
        QTest::newRow("training-long") << 5000.0 << 10.0 << "give fewer --steps (about 7185 would fit)";
        QTest::newRow("reports-long") << 10.0 << 5000.0 << "give fewer --layers than 2 or fewer heads";
        QTest::newRow("within-the-hour") << 1800.0 << 1800.0 << "";
    }
    void refusals_name_the_setting()
    {
        QFETCH(double, training);
        QFETCH(double, reports);
        QFETCH(QString, says);
        SweepTime t;
        t.runs = 3;
        t.training = training;
        t.reports = reports;
        const QString said = refusal([&] { check_sweep_time(t, run_of(4, 2, 10000)); });
        QVERIFY2(says.isEmpty() ? said.isEmpty() : said.contains(says) && said.contains("more than the 1 h"),
                 qPrintable(said));
    }

    void run_count_bounded()
    {
        QVERIFY(refusal([] { check_run_count(kMaxRuns); }).isEmpty());
        QVERIFY(refusal([] { check_run_count(kMaxRuns + 1); }).contains("1001 runs"));
    }

    void durations_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("ms") << 0.0016 << "1.6 ms";
        QTest::newRow("s") << 45.2 << "45 s";
        QTest::newRow("min-s") << 200.0 << "3 min 20 s";
        QTest::newRow("min") << 180.0 << "3 min";
        QTest::newRow("h") << 3600.0 << "1 h";
        QTest::newRow("h-min") << 7500.0 << "2 h 5 min";
    }
    void durations()
    {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(duration_text(seconds)), text);
    }

    // Every run keeps two copies of its weights; the runs training at once add gradients and two moments.
    void memory_parts_add_up()
    {
        const std::vector<RunSettings> runs{run_of(4, 2, 100), run_of(2, 2, 100), run_of(1, 2, 100)};
        const std::uint64_t params = 4 * gpt_layout(runs[0].shape).total;
        const SweepMemory m = sweep_memory(runs, 2, 1000);
        QCOMPARE(m.at_once, std::size_t{2});
        QCOMPARE(m.kept, 3 * (2 * params + 800 + 4096));
        QCOMPARE(m.optimizer, 2 * 3 * params);
        QVERIFY(m.activations >= 2 * static_cast<std::uint64_t>(activation_bytes(runs[0])));
        QCOMPARE(m.recorded, std::uint64_t{0});
        QCOMPARE(m.total(), 1000 + m.kept + m.optimizer + m.activations);
    }

    void memory_refusals_data()
    {
        QTest::addColumn<bool>("record");
        QTest::addColumn<qulonglong>("budget");
        QTest::addColumn<qulonglong>("machine");
        QTest::addColumn<QString>("says");
        QTest::addColumn<QString>("never");
        QTest::newRow("budget") << false << qulonglong(1 << 20) << qulonglong(1ull << 40)
                                << "memory budget (--max-memory), so nothing was trained; most of it is the activations"
                                << "this machine";
        QTest::newRow("machine") << false << qulonglong(1ull << 40) << qulonglong(1 << 20)
                                 << "of memory this machine has, so nothing was trained; most of it is the activations"
                                 << "--max-memory";
        QTest::newRow("recorded") << true << qulonglong(1 << 20) << qulonglong(1ull << 40)
                                  << "most of it is the recorded batches: give fewer --steps"
                                  << "this machine";
        QTest::newRow("fits") << false << qulonglong(1ull << 40) << qulonglong(1ull << 40) << ""
                              << "";
    }
    void memory_refusals()
    {
        QFETCH(bool, record);
        QFETCH(qulonglong, budget);
        QFETCH(qulonglong, machine);
        QFETCH(QString, says);
        QFETCH(QString, never);
        RunSettings r = run_of(4, 2, 100000);
        r.record_batches = record;
        const SweepMemory m = sweep_memory({r}, 2, 0);
        const QString said = refusal([&] { check_sweep_memory(m, r, budget, machine); });
        if (says.isEmpty())
            QVERIFY2(said.isEmpty(), qPrintable(said));
        else
            QVERIFY2(said.contains(says) && !said.contains(never) && said.count('\n') == 0, qPrintable(said));
    }

    // A context of 0 for the-verdict (a session file can hold one; the CLI's range stops it first) is too short,
    // not "longer than the-verdict's held-out part allows" as it was called.
    void verdict_context_0_called_too_short()
    {
        const QString said = refusal([] { check_task("the-verdict", 1132, 0); });
        QVERIFY2(said.contains("--context 0 is too short for the-verdict, which needs 1 to ") &&
                     !said.contains("longer"),
                 qPrintable(said));
    }

    // A run dump holds its batches until the file is written: at most 1 GiB of them (32768 steps of 64 x 32).
    void run_dump_bounded()
    {
        RunSettings r = run_of(4, 2, 32768);
        r.record_batches = true;
        QCOMPARE(recorded_bytes(r), kMaxRecordedBytes);
        QVERIFY(refusal([&] { check_recorded_bytes(r); }).isEmpty());
        r.steps = 32769;
        QVERIFY(refusal([&] { check_recorded_bytes(r); }).contains("give at most --steps 32768"));
        r.record_batches = false;
        QCOMPARE(recorded_bytes(r), std::uint64_t{0});
    }
};

QTEST_GUILESS_MAIN(TestTrainBounds)
#include "test_train_bounds.moc"
