// The associative-recall task (core/train/recall_task.h): every sequence is context / 4 pairs with different keys
// from the vocabulary's first half and values from its second, then each pair's key once as a query followed by
// its value; only the queries are scored, each with the value its key was paired with. Checked on the held-out set
// and on training batches, with the refusals of shapes the task cannot pose.
#include "common/errors.h"
#include "train/sweep_spec.h"
#include "train/tasks.h"

#include <QtTest>

#include <map>
#include <set>

using namespace attnlab::train;

class TestTrainRecall : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sequences_are_pairs_then_queries_data();
    void sequences_are_pairs_then_queries();
    void defaults_and_refusals();
};

void TestTrainRecall::sequences_are_pairs_then_queries_data()
{
    QTest::addColumn<int>("vocab");
    QTest::addColumn<int>("context");
    QTest::newRow("defaults") << 32 << 32;
    QTest::newRow("context-not-a-multiple-of-4") << 20 << 34;
    QTest::newRow("keys-just-enough") << 8 << 16;
}

void TestTrainRecall::sequences_are_pairs_then_queries()
{
    QFETCH(int, vocab);
    QFETCH(int, context);
    Task task("associative-recall", vocab, context, 3);
    const std::int64_t keys = vocab / 2, pairs = context / 4;
    for (const Batch& b : {task.held_out(), task.next_batch(16)}) {
        QCOMPARE(b.tokens, static_cast<std::size_t>(context));
        for (std::size_t s = 0; s < b.batch; ++s) {
            const std::int64_t* ids = b.ids.data() + s * b.tokens;
            const std::int64_t* targets = b.targets.data() + s * b.tokens;
            std::map<std::int64_t, std::int64_t> value_of;
            for (std::int64_t p = 0; p < pairs; ++p) {
                QVERIFY(ids[2 * p] >= 0 && ids[2 * p] < keys);
                QVERIFY(ids[2 * p + 1] >= keys && ids[2 * p + 1] < vocab);
                QVERIFY2(value_of.emplace(ids[2 * p], ids[2 * p + 1]).second, "a key paired twice");
                QCOMPARE(targets[2 * p], std::int64_t{-100});
                QCOMPARE(targets[2 * p + 1], std::int64_t{-100});
            }
            std::set<std::int64_t> asked;
            for (std::int64_t q = 0; q < pairs; ++q) {
                const std::int64_t at = 2 * pairs + 2 * q, key = ids[at];
                QVERIFY(value_of.count(key) == 1);
                asked.insert(key);
                QCOMPARE(targets[at], value_of[key]);          // scored: the paired value
                QCOMPARE(ids[at + 1], value_of[key]);          // and then shown
                QCOMPARE(targets[at + 1], std::int64_t{-100}); // the answer itself is not scored
            }
            QCOMPARE(asked.size(), static_cast<std::size_t>(pairs)); // every pair asked once
            for (std::int64_t t = 4 * pairs; t < context; ++t)
                QCOMPARE(targets[t], std::int64_t{-100});
        }
    }
    // The held-out set does not depend on the training seed.
    QVERIFY(Task("associative-recall", vocab, context, 9).held_out().ids == task.held_out().ids);
}

void TestTrainRecall::defaults_and_refusals()
{
    const TaskSettings d = task_defaults("associative-recall");
    QCOMPARE(d.vocab, 32);
    QCOMPARE(d.context, 32);
    QCOMPARE(sweep_defaults("associative-recall").vocab, 32);
    QVERIFY(testing::error_of([] { check_task("associative-recall", 31, 32); }).contains("even"));
    QCOMPARE(testing::error_of([] { check_task("associative-recall", 8, 32); }),
             QStringLiteral("--context 32 asks for 8 pairs with different keys, but --vocab 8 has only 4 keys; give a "
                            "--vocab of at least 16."));
    QVERIFY(testing::error_of([] { check_task("associative-recall", 32, 3); }).contains("4 to 4096"));
}

QTEST_GUILESS_MAIN(TestTrainRecall)
#include "test_train_recall.moc"
