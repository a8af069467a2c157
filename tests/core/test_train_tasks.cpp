// The trainer's tasks and runs: each task's rules (what is copied, what is scored and what it predicts),
// the held-out set shared by every seed, letters for synthetic tokens, refusals; a run that is cancelled
// keeps what it reached; a sweep on several threads gives exactly what the runs give one by one.
#include "tensor/error.h"
#include "text/tokenizer.h"
#include "train/sweep.h"
#include "train/tasks.h"

#include <QtTest>

#include <cmath>

#include <set>

using namespace attnlab;
using namespace attnlab::train;

class TestTrainTasks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void induction_rules_data();
    void induction_rules();
    void previous_token_rules();
    void verdict_split();
    void seeds_and_held_out();
    void token_names();
    void refusals_data();
    void refusals();
    void cancel_keeps_what_was_reached();
    void diverged_run_stops();
    void sweep_equals_runs_one_by_one();
    void sweep_starts_the_longest_runs_first();
};

void TestTrainTasks::induction_rules_data()
{
    QTest::addColumn<int>("context");
    QTest::newRow("T9") << 9;
    QTest::newRow("T32") << 32;
    QTest::newRow("T50") << 50;
}

void TestTrainTasks::induction_rules()
{
    QFETCH(int, context);
    const std::int64_t T = context;
    Task task("induction", 16, T, 3);
    std::set<std::int64_t> lengths, starts;
    const Batch b = task.next_batch(2000);
    for (std::size_t s = 0; s < b.batch; ++s) {
        const std::int64_t* x = b.ids.data() + s * T;
        const std::int64_t* y = b.targets.data() + s * T;
        std::vector<std::int64_t> scored;
        for (std::int64_t t = 0; t < T; ++t) {
            QVERIFY(x[t] >= 0 && x[t] < 16);
            if (y[t] != -100)
                scored.push_back(t);
        }
        QVERIFY(!scored.empty());
        const std::int64_t s1 = scored.front(), length = static_cast<std::int64_t>(scored.size()) + 1;
        QCOMPARE(scored.back(), s1 + length - 2); // s1 ... s1 + L - 2, nothing else
        QVERIFY(length >= 3 && length <= T / 3);
        QVERIFY(s1 + length <= T);
        for (std::int64_t t : scored)
            QCOMPARE(y[t], x[t + 1]);
        bool copied = false; // an earlier segment x[s0 .. s0 + L) equal to the copy
        for (std::int64_t s0 = 0; s0 + length <= s1 && !copied; ++s0)
            copied = std::equal(x + s0, x + s0 + length, x + s1);
        QVERIFY(copied);
        lengths.insert(length);
        starts.insert(s1);
    }
    QCOMPARE(static_cast<std::int64_t>(lengths.size()), T / 3 - 2);   // every length in [3, T/3] occurs
    QVERIFY(*starts.begin() >= 3 && *starts.rbegin() <= T - 3);       // a copy needs its source before it
    QVERIFY(static_cast<std::int64_t>(starts.size()) >= (T - 6) / 2); // spread over the placements
}

void TestTrainTasks::previous_token_rules()
{
    Task task("previous-token", 5, 10, 0);
    const Batch b = task.next_batch(50);
    for (std::size_t s = 0; s < b.batch; ++s) {
        QCOMPARE(b.targets[s * 10], std::int64_t{-100});
        for (std::size_t t = 1; t < 10; ++t)
            QCOMPARE(b.targets[s * 10 + t], b.ids[s * 10 + t - 1]);
    }
}

void TestTrainTasks::verdict_split()
{
    const std::vector<std::int64_t> ids = verdict_tokenizer().encode(verdict_story());
    const std::size_t split = static_cast<std::size_t>(0.9 * static_cast<double>(ids.size()));
    Task task("the-verdict", 1132, 64, 0);
    const Batch& held = task.held_out();
    QCOMPARE(held.batch, (ids.size() - split - 1) / 64); // non-overlapping windows of the last 10%
    for (std::size_t w = 0; w < held.batch; ++w)
        for (std::size_t t = 0; t < 64; ++t) {
            QCOMPARE(held.ids[w * 64 + t], ids[split + w * 64 + t]);
            QCOMPARE(held.targets[w * 64 + t], ids[split + w * 64 + t + 1]);
        }
    const Batch train = task.next_batch(200); // windows of the first 90% only, targets shifted by one
    for (std::size_t w = 0; w < train.batch; ++w) {
        const auto* x = train.ids.data() + w * 64;
        bool found = false;
        for (std::size_t s = 0; s + 64 < split && !found; ++s)
            found = std::equal(x, x + 64, ids.begin() + s) && train.targets[w * 64] == ids[s + 1];
        QVERIFY(found);
    }
}

void TestTrainTasks::seeds_and_held_out()
{
    Task a("induction", 16, 32, 1), b("induction", 16, 32, 1), c("induction", 16, 32, 2);
    QCOMPARE(a.next_batch(8).ids, b.next_batch(8).ids);
    QVERIFY(a.next_batch(8).ids != c.next_batch(8).ids);
    QCOMPARE(a.held_out().ids, c.held_out().ids);
    QCOMPARE(a.held_out().targets, c.held_out().targets);
}

void TestTrainTasks::token_names()
{
    Task task("induction", 30, 32, 0);
    QCOMPARE(task.token_name(0), std::string("A"));
    QCOMPARE(task.token_name(25), std::string("Z"));
    QCOMPARE(task.token_name(26), std::string("A1"));
    Task verdict("the-verdict", 1132, 16, 0);
    QCOMPARE(verdict.token_name(0), verdict_tokenizer().token(0));
}

void TestTrainTasks::refusals_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<int>("vocab");
    QTest::addColumn<int>("context");
    QTest::newRow("unknown") << "copy" << 16 << 32;
    QTest::newRow("induction-vocab-1") << "induction" << 1 << 32;
    QTest::newRow("induction-context-8") << "induction" << 16 << 8;
    QTest::newRow("previous-context-1") << "previous-token" << 16 << 1;
    QTest::newRow("verdict-vocab") << "the-verdict" << 16 << 32;
    QTest::newRow("verdict-context") << "the-verdict" << 1132 << 469;
}

void TestTrainTasks::refusals()
{
    QFETCH(QString, task);
    QFETCH(int, vocab);
    QFETCH(int, context);
    QVERIFY_THROWS_EXCEPTION(Error, check_task(task.toStdString(), vocab, context));
}

namespace {

// An induction run small enough for a test: emb 8, 2 heads, context 12, batch 4.
RunSettings tiny_run(std::int64_t steps)
{
    RunSettings s;
    s.shape.emb_dim = 8;
    s.shape.n_heads = 2;
    s.shape.context_length = 12;
    s.batch = 4;
    s.steps = steps;
    return s;
}

} // namespace

void TestTrainTasks::cancel_keeps_what_was_reached()
{
    RunSettings s = tiny_run(1000);
    std::atomic<bool> cancel{false};
    RunHooks hooks;
    hooks.cancel = &cancel;
    hooks.on_step = [&](const StepReport& r) {
        if (r.step == 3)
            cancel = true;
    };
    const RunResult r = train_run(s, hooks);
    QVERIFY(r.cancelled);
    QCOMPARE(r.train_loss.size(), std::size_t{3});
    QCOMPARE(r.final_eval().step, std::int64_t{3});
}

// A learning rate of 1e30 overflows the weights at once: the run stops at that step, keeps only finite numbers, says
// where it stopped and what was before, and advises the default rate.
void TestTrainTasks::diverged_run_stops()
{
    RunSettings s = tiny_run(50);
    s.eval_every = 10;
    s.optimizer.lr = 1e30;
    const RunResult r = train_run(s);
    QVERIFY(r.diverged());
    QVERIFY(r.diverged_at >= 1 && r.diverged_at <= 11);
    QVERIFY(r.train_loss.size() <= static_cast<std::size_t>(r.diverged_at));
    for (const double loss : r.train_loss)
        QVERIFY(std::isfinite(loss));
    for (const EvalPoint& e : r.evals)
        QVERIFY(std::isfinite(e.loss) && std::isfinite(e.accuracy));
    QVERIFY(std::isfinite(r.loss_before));
    const std::string text = divergence_text(r);
    QVERIFY2(text.find("diverged at step " + std::to_string(r.diverged_at) + " (loss was ") == 0, text.c_str());
    QVERIFY2(text.find("try a learning rate of 0.003 or lower") != std::string::npos, text.c_str());
    QCOMPARE(advised_lr(1e-2), 1e-3);
    QCOMPARE(advised_lr(1e30), 3e-3);
    // The same settings at a sane rate do not diverge.
    s.optimizer.lr = 3e-3;
    QVERIFY(!train_run(s).diverged());
}

namespace {

// Tiny induction runs (emb 8, one layer, context 12, batch 4), each head count with seeds 0 and 1.
std::vector<RunSettings> tiny_runs(std::initializer_list<int> head_counts, std::int64_t steps, std::int64_t eval_every)
{
    std::vector<RunSettings> runs;
    for (int heads : head_counts)
        for (std::uint64_t seed : {0u, 1u}) {
            RunSettings s;
            s.shape.emb_dim = 8;
            s.shape.n_layers = 1;
            s.shape.n_heads = heads;
            s.shape.context_length = 12;
            s.batch = 4;
            s.steps = steps;
            s.eval_every = eval_every;
            s.seed = seed;
            runs.push_back(s);
        }
    return runs;
}

} // namespace

void TestTrainTasks::sweep_equals_runs_one_by_one()
{
    std::vector<RunSettings> runs = tiny_runs({1, 2, 4}, 15, 5);
    const std::vector<RunResult> together = run_sweep(runs, 2);
    QCOMPARE(together.size(), runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult alone = train_run(runs[i]);
        QCOMPARE(together[i].params, alone.params);
        QCOMPARE(together[i].train_loss, alone.train_loss);
        QCOMPARE(together[i].evals.size(), std::size_t{3});
    }
    RunSettings bad = runs[0];
    bad.shape.n_heads = 3;
    runs.push_back(bad);
    QVERIFY_THROWS_EXCEPTION(Error, run_sweep(runs, 2)); // refused before any run trains
}

// On one thread the runs go one after another, so the order their steps are reported in is the order they
// were handed out: the most heads first (their steps cost the most), seeds in their given order.
void TestTrainTasks::sweep_starts_the_longest_runs_first()
{
    const std::vector<RunSettings> runs = tiny_runs({1, 8, 2}, 2, 2);
    std::vector<std::size_t> started;
    SweepHooks hooks;
    hooks.on_step = [&](std::size_t run, const StepReport&) {
        if (started.empty() || started.back() != run)
            started.push_back(run);
    };
    const std::vector<RunResult> results = run_sweep(runs, 1, hooks);
    QCOMPARE(results.size(), runs.size());
    QCOMPARE(started, (std::vector<std::size_t>{2, 3, 4, 5, 0, 1}));
}

QTEST_GUILESS_MAIN(TestTrainTasks)
#include "test_train_tasks.moc"
