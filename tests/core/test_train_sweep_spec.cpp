// One sweep request expanded into runs (core/train/sweep_spec.h), as both the CLI's `train` and the window's
// sweep train them: each task's defaults, num_heads outer and seeds inner with repeats kept, every divisor of
// emb when no heads are given, the evaluation interval, and the refusals in the order they are made.
#include "common/errors.h"
#include "train/sweep_spec.h"

#include <QtTest>

using namespace attnlab::train;

namespace {

// "4/0 4/1 1/0": each run's num_heads and seed, in the expansion's order.
QString runs_text(const std::vector<RunSettings>& runs)
{
    QStringList items;
    for (const RunSettings& r : runs)
        items << QStringLiteral("%1/%2").arg(r.shape.n_heads).arg(r.seed);
    return items.join(QLatin1Char(' '));
}

std::vector<std::int64_t> head_counts(const QString& text) // "4,1" -> {4, 1}; "" -> {}
{
    std::vector<std::int64_t> heads;
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        heads.push_back(item.toLongLong());
    return heads;
}

} // namespace

class TestTrainSweepSpec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void task_defaults_data();
    void task_defaults();
    void heads_by_seeds_data();
    void heads_by_seeds();
    void eval_every_data();
    void eval_every();
    void refusals_data();
    void refusals();
};

void TestTrainSweepSpec::task_defaults_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<int>("vocab");
    QTest::addColumn<int>("context");
    QTest::addColumn<int>("emb");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("batch");
    QTest::addColumn<double>("lr");
    QTest::addColumn<double>("weight_decay");
    QTest::addColumn<double>("drop_rate");
    QTest::addColumn<int>("eval_every");
    QTest::addColumn<QString>("runs"); // every divisor of emb, seed 0
    const QString divisors32 = QStringLiteral("1/0 2/0 4/0 8/0 16/0 32/0");
    QTest::newRow("previous-token") << "previous-token" << 16 << 32 << 32 << 500 << 64 << 3e-3 << 0.01 << 0.0 << 25
                                    << divisors32;
    QTest::newRow("induction") << "induction" << 16 << 32 << 32 << 2000 << 64 << 3e-3 << 0.01 << 0.0 << 100
                               << divisors32;
    QTest::newRow("the-verdict") << "the-verdict" << 1132 << 64 << 128 << 250 << 16 << 1e-3 << 0.1 << 0.1 << 12
                                 << "1/0 2/0 4/0 8/0 16/0 32/0 64/0 128/0";
}

void TestTrainSweepSpec::task_defaults()
{
    QFETCH(QString, task);
    QFETCH(int, vocab);
    QFETCH(int, context);
    QFETCH(int, emb);
    QFETCH(int, steps);
    QFETCH(int, batch);
    QFETCH(double, lr);
    QFETCH(double, weight_decay);
    QFETCH(double, drop_rate);
    QFETCH(int, eval_every);
    QFETCH(QString, runs);
    const SweepSpec spec = sweep_defaults(task.toStdString());
    QCOMPARE(spec.seeds, std::int64_t{1});
    QVERIFY(spec.heads.empty());
    const std::vector<RunSettings> expanded = spec.expand();
    QCOMPARE(runs_text(expanded), runs);
    for (const RunSettings& r : expanded) {
        QCOMPARE(QString::fromStdString(r.task), task);
        QCOMPARE(r.shape.vocab_size, std::int64_t{vocab});
        QCOMPARE(r.shape.context_length, std::int64_t{context});
        QCOMPARE(r.shape.emb_dim, std::int64_t{emb});
        QCOMPARE(r.shape.n_layers, std::int64_t{2});
        QCOMPARE(r.shape.drop_rate, drop_rate);
        QCOMPARE(r.steps, std::int64_t{steps});
        QCOMPARE(r.batch, std::int64_t{batch});
        QCOMPARE(r.optimizer.lr, lr);
        QCOMPARE(r.optimizer.weight_decay, weight_decay);
        QCOMPARE(r.optimizer.beta1, 0.9); // AdamW's own, not the sweep's
        QCOMPARE(r.eval_every, std::int64_t{eval_every});
        QVERIFY(!r.record_batches);
    }
}

void TestTrainSweepSpec::heads_by_seeds_data()
{
    QTest::addColumn<int>("emb");
    QTest::addColumn<QString>("heads");
    QTest::addColumn<int>("seeds");
    QTest::addColumn<int>("first_seed");
    QTest::addColumn<QString>("runs");
    QTest::newRow("heads-outer-seeds-inner") << 8 << "4,1,2" << 2 << 0 << "4/0 4/1 1/0 1/1 2/0 2/1";
    QTest::newRow("one-seed-of-choice") << 8 << "1,8" << 1 << 5 << "1/5 8/5";
    QTest::newRow("seeds-from-3") << 8 << "2" << 3 << 3 << "2/3 2/4 2/5";
    QTest::newRow("every-divisor-of-12") << 12 << "" << 2 << 0 << "1/0 1/1 2/0 2/1 3/0 3/1 4/0 4/1 6/0 6/1 12/0 12/1";
    QTest::newRow("every-divisor-of-1") << 1 << "" << 1 << 0 << "1/0";
}

void TestTrainSweepSpec::heads_by_seeds()
{
    QFETCH(int, emb);
    QFETCH(QString, heads);
    QFETCH(int, seeds);
    QFETCH(int, first_seed);
    QFETCH(QString, runs);
    SweepSpec spec = sweep_defaults("induction");
    spec.emb = emb;
    spec.layers = 1;
    spec.context = 12;
    spec.heads = head_counts(heads);
    spec.seeds = seeds;
    spec.first_seed = static_cast<std::uint64_t>(first_seed);
    spec.steps = 30;
    spec.batch = 4;
    spec.lr = 0.01;
    spec.weight_decay = 0.0;
    spec.record_batches = true;
    const std::vector<RunSettings> expanded = spec.expand();
    QCOMPARE(runs_text(expanded), runs);
    QCOMPARE(expanded.size(), spec.head_list().size() * spec.seed_list().size());
    for (const RunSettings& r : expanded) { // everything but num_heads and seed is the request's, for every run
        QCOMPARE(r.task, std::string("induction"));
        QCOMPARE(r.shape.vocab_size, std::int64_t{16});
        QCOMPARE(r.shape.context_length, std::int64_t{12});
        QCOMPARE(r.shape.emb_dim, std::int64_t{emb});
        QCOMPARE(r.shape.n_layers, std::int64_t{1});
        QCOMPARE(r.steps, std::int64_t{30});
        QCOMPARE(r.batch, std::int64_t{4});
        QCOMPARE(r.optimizer.lr, 0.01);
        QCOMPARE(r.optimizer.weight_decay, 0.0);
        QCOMPARE(r.eval_every, std::int64_t{1});
        QVERIFY(r.record_batches);
    }
}

void TestTrainSweepSpec::eval_every_data()
{
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("eval_every"); // steps / 20, from 1 to 100
    QTest::newRow("1") << 1 << 1;
    QTest::newRow("39") << 39 << 1;
    QTest::newRow("40") << 40 << 2;
    QTest::newRow("250") << 250 << 12;
    QTest::newRow("1999") << 1999 << 99;
    QTest::newRow("2000") << 2000 << 100;
    QTest::newRow("100000") << 100000 << 100;
}

void TestTrainSweepSpec::eval_every()
{
    QFETCH(int, steps);
    QFETCH(int, eval_every);
    SweepSpec spec = sweep_defaults("previous-token");
    spec.heads = {2, 4};
    spec.seeds = 2;
    spec.steps = steps;
    QCOMPARE(spec.eval_every(), std::int64_t{eval_every});
    for (const RunSettings& r : spec.expand()) {
        QCOMPARE(r.steps, std::int64_t{steps});
        QCOMPARE(r.eval_every, std::int64_t{eval_every});
    }
}

void TestTrainSweepSpec::refusals_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<int>("emb");
    QTest::addColumn<QString>("heads");
    QTest::addColumn<int>("seeds");
    QTest::addColumn<int>("steps");
    QTest::addColumn<QString>("sentence"); // the start of the refusal
    QTest::newRow("unknown-task") << "copy" << 32 << "" << 1 << 100 << "--task 'copy' is not a task";
    QTest::newRow("task-before-seeds") << "copy" << 32 << "" << 0 << 100 << "--task 'copy' is not a task";
    QTest::newRow("no-seeds") << "induction" << 32 << "" << 0 << 100 << "seeds is 0; a sweep needs at least 1 seed.";
    QTest::newRow("seeds-below-0") << "induction" << 32 << "2" << -2 << 100 << "seeds is -2;";
    QTest::newRow("seeds-before-shape") << "induction" << 0 << "" << 0 << 100 << "seeds is 0;";
    QTest::newRow("emb-without-divisors") << "induction" << 0 << "" << 1 << 100 << "emb_dim is 0;";
    QTest::newRow("heads-not-dividing") << "induction" << 32 << "2,3" << 1 << 100
                                        << "emb_dim (d_out) 32 is not divisible by num_heads 3";
    QTest::newRow("heads-repeated") << "induction" << 32 << "4,2,4" << 2 << 100
                                    << "num_heads 4 is listed twice; the same seeds would train the same runs again";
    QTest::newRow("no-steps") << "induction" << 32 << "2" << 1 << 0 << "--steps is 0;";
}

void TestTrainSweepSpec::refusals()
{
    QFETCH(QString, task);
    QFETCH(int, emb);
    QFETCH(QString, heads);
    QFETCH(int, seeds);
    QFETCH(int, steps);
    QFETCH(QString, sentence);
    SweepSpec spec;
    spec.task = task.toStdString();
    spec.emb = emb;
    spec.heads = head_counts(heads);
    spec.seeds = seeds;
    spec.steps = steps;
    const QString error = testing::error_of([&] { spec.expand(); });
    QVERIFY2(error.startsWith(sentence), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestTrainSweepSpec)
#include "test_train_sweep_spec.moc"
