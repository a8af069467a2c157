// When a finished run's head report zeroes each head in turn (core/train/head_report.h): the rule at and around
// its bounds, the policies, and a report left unablated: the same shares and roles as the ablated one, the intact
// numbers evaluate()'s, every ablated number 0 and the sentence saying why; the time estimate counts only the
// passes the report will make.
#include "train/gpt_net.h"
#include "train/head_report.h"
#include "train/train_time.h"

#include <QtTest>

using namespace attnlab::train;

namespace {
RunSettings deep(std::int64_t layers, std::int64_t heads, std::int64_t steps, std::int64_t batch)
{
    RunSettings s;
    s.task = "previous-token";
    s.shape.emb_dim = 8;
    s.shape.context_length = 8;
    s.shape.n_layers = layers;
    s.shape.n_heads = heads;
    s.steps = steps;
    s.batch = batch;
    return s;
}
} // namespace

class TestHeadAblation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rule_data();
    void rule();
    void left_out_report_keeps_the_rest();
    void estimate_counts_what_runs();
};

void TestHeadAblation::rule_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("policy");   // Ablation
    QTest::addColumn<QString>("says"); // empty: ablated
    // 512 held-out sequences; the floor is 16 passes, training 3 x steps x batch / 512.
    QTest::newRow("2-layers-4-heads-brief") << 2 << 4 << 20 << 4 << int(Ablation::Auto) << QString();
    QTest::newRow("31-layers-1-head-at-the-floor") << 31 << 1 << 1 << 4 << int(Ablation::Auto) << QString();
    QTest::newRow("32-layers-1-head-brief") << 32 << 1 << 1 << 64 << int(Ablation::Auto) << "about 17 passes";
    QTest::newRow("64-layers-1-head-brief") << 64 << 1 << 1 << 64 << int(Ablation::Auto) << "about 33 passes";
    // 78 passes of ablation, 3 x 2000 x 64 / 512 = 750 of training.
    QTest::newRow("12-layers-12-heads-trained") << 12 << 12 << 2000 << 64 << int(Ablation::Auto) << QString();
    // 78 against 3 x 200 x 64 / 512 = 75.
    QTest::newRow("12-layers-12-heads-just-short") << 12 << 12 << 200 << 64 << int(Ablation::Auto) << "(about 75)";
    QTest::newRow("64-layers-all") << 64 << 1 << 1 << 64 << int(Ablation::All) << QString();
    QTest::newRow("2-layers-none") << 2 << 4 << 20 << 4 << int(Ablation::None) << "as asked";
}

void TestHeadAblation::rule()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(int, steps);
    QFETCH(int, batch);
    QFETCH(int, policy);
    QFETCH(QString, says);
    const std::string why = ablation_skipped(deep(layers, heads, steps, batch), 512, static_cast<Ablation>(policy));
    if (says.isEmpty())
        QVERIFY2(why.empty(), why.c_str());
    else
        QVERIFY2(QString::fromStdString(why).contains(says), why.c_str());
}

void TestHeadAblation::left_out_report_keeps_the_rest()
{
    RunSettings s = deep(34, 1, 1, 4);
    s.seed = 5;
    const RunResult run = train_run(s);
    const HeadReport left = head_report(run), all = head_report(run, 1, Ablation::All);
    QVERIFY(!left.ablated);
    QVERIFY(QString::fromStdString(left.skipped).contains("zeroing each of the 34 heads"));
    QVERIFY(all.ablated);
    QVERIFY(all.skipped.empty());
    QCOMPARE(left.heads.size(), std::size_t{34});
    QCOMPARE(left.heads.size(), all.heads.size());
    const Task task(s.task, s.shape.vocab_size, s.shape.context_length, s.seed);
    GptNet net(gpt_layout(s.shape));
    const EvalPoint intact = evaluate(net, run.params, task.held_out(), eval_chunk(s));
    QCOMPARE(left.intact.loss, intact.loss);
    QCOMPARE(left.intact.accuracy, intact.accuracy);
    QCOMPARE(all.intact.loss, intact.loss);
    int differs = 0;
    for (std::size_t i = 0; i < left.heads.size(); ++i) {
        QCOMPARE(left.heads[i].shares.previous, all.heads[i].shares.previous);
        QCOMPARE(left.heads[i].shares.entropy, all.heads[i].shares.entropy);
        QCOMPARE(left.heads[i].role, all.heads[i].role);
        QCOMPARE(left.heads[i].ablated.loss, 0.0);
        QCOMPARE(left.heads[i].ablated.accuracy, 0.0);
        differs += all.heads[i].ablated.loss != all.intact.loss;
    }
    QVERIFY(differs > 0);
}

void TestHeadAblation::estimate_counts_what_runs()
{
    Calibration c;
    c.step_seconds = 0.01;
    c.chunk_seconds = 0.1;
    c.held_sequences = 512;
    const std::vector<RunSettings> runs{deep(64, 1, 1, 64)}; // eval_chunk 64: 8 chunks a pass, 0.8 s
    const SweepTime left = estimate_sweep_time(runs, 1, c), all = estimate_sweep_time(runs, 1, c, Ablation::All);
    QCOMPARE(left.reports, 2 * 0.8);                 // the measures and the intact numbers
    QCOMPARE(all.reports, 0.8 * (1.0 + 1.0 + 32.5)); // and 64 x 65 / 2 blocks, 32.5 passes
}

QTEST_GUILESS_MAIN(TestHeadAblation)
#include "test_head_ablation.moc"
