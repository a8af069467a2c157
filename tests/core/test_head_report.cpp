// The head report (core/train/head_report.h): each measure's definition on hand-made attention matrices, the
// role rule at and around its thresholds, and whole reports against PyTorch (tests/reference/
// make_head_report_cases.py): the measures, the intact model and every head's ablation, to 1e-5.
#include "io/safetensors.h"
#include "tensor/error.h"
#include "train/gpt_net.h"
#include "train/head_report.h"

#include <QtTest>

#include <cmath>
#include <filesystem>

using namespace attnlab;
using namespace attnlab::train;

namespace {

constexpr double kTolerance = 1e-5;

std::vector<std::int64_t> letters(const QString& text) // "ABCA" -> 0 1 2 0
{
    std::vector<std::int64_t> ids;
    for (QChar c : text)
        ids.push_back(c.unicode() - 'A');
    return ids;
}

// "1 | 0.5 0.5 | ..." -> tokens x tokens, row-major, 0 above the diagonal.
std::vector<float> causal(const QString& rows, std::size_t tokens)
{
    std::vector<float> w(tokens * tokens, 0.0f);
    const QStringList split = rows.split('|');
    for (qsizetype t = 0; t < split.size(); ++t) {
        const QStringList row = split[t].split(' ', Qt::SkipEmptyParts);
        for (qsizetype s = 0; s < row.size(); ++s)
            w[static_cast<std::size_t>(t) * tokens + static_cast<std::size_t>(s)] = row[s].toFloat();
    }
    return w;
}

std::vector<float> values(const SafetensorsFile& f, const std::string& name)
{
    const Tensor* t = f.find(name);
    if (!t)
        qFatal("fixture has no tensor %s", name.c_str());
    return t->to_vector();
}

void expect_near(double got, double want, const std::string& what)
{
    if (!(std::fabs(got - want) <= kTolerance))
        QFAIL(qPrintable(QString::fromStdString(what) + ": " + QString::number(got, 'g', 9) + ", PyTorch " +
                         QString::number(want, 'g', 9)));
}

} // namespace

class TestHeadReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shares_data();
    void shares();
    void shares_refuse_a_wrong_size();
    void role_data();
    void role();
    void matches_pytorch_data();
    void matches_pytorch();
    void reports_of_runs_skip_the_cancelled();
    void a_kept_net_evaluates_as_a_new_one();
    void ablations_equal_evaluations_of_ablated_models();
    void ablations_at_depth_equal_evaluations_data();
    void ablations_at_depth_equal_evaluations();
};

void TestHeadReport::shares_data()
{
    QTest::addColumn<QString>("ids");
    QTest::addColumn<QString>("weights"); // row t holds the weights of query t on keys 0 .. t, rows split by |
    QTest::addColumn<double>("previous");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("self");
    QTest::addColumn<double>("entropy");
    QTest::addColumn<double>("induction");
    QTest::addColumn<int>("inductionPositions");
    QTest::addColumn<QString>("role");
    const double third = 1.0 / 3.0, u = (1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 3;
    // t = 1 has only tokens 0 and 1, so a head on t-1 there is also on token 0.
    QTest::newRow("pure previous-token") << "ABCD"
                                         << "1 | 1 0 | 0 1 0 | 0 0 1 0" << 1.0 << third << 0.0 << 0.0 << 0.0 << 0
                                         << "previous-token";
    QTest::newRow("pure self") << "ABCD"
                               << "1 | 0 1 | 0 0 1 | 0 0 0 1" << 0.0 << 0.0 << 1.0 << 0.0 << 0.0 << 0 << "self";
    QTest::newRow("pure first-token") << "ABCD"
                                      << "1 | 1 0 | 1 0 0 | 1 0 0 0" << third << 1.0 << 0.0 << 0.0 << 0.0 << 0
                                      << "first-token";
    QTest::newRow("uniform causal") << "ABCD"
                                    << "1 | 0.5 0.5 | 0.3333333 0.3333333 0.3333333 | 0.25 0.25 0.25 0.25" << u << u
                                    << u << (std::log(2.0) + std::log(3.0) + std::log(4.0)) / 3 << 0.0 << 0 << "none";
    // ABCABC: queries 3, 4, 5 repeat tokens 0, 1, 2 and look at 1, 2, 3, the tokens after them.
    QTest::newRow("pure induction on a repeat")
        << "ABCABC"
        << "1 | 0 1 | 0 0 1 | 0 1 0 0 | 0 0 1 0 0 | 0 0 0 1 0 0" << 0.0 << 0.0 << 0.4 << 0.0 << 1.0 << 3 << "induction";
    // ABCA: only query 3 has an earlier occurrence (token 0), half its attention after it, half on itself.
    QTest::newRow("half on the token after the copy")
        << "ABCA"
        << "1 | 0 1 | 0 0 1 | 0 0.5 0 0.5" << 0.0 << 0.0 << 2.5 / 3 << std::log(2.0) / 3 << 0.5 << 1 << "induction";
    // ABAB: query 3 (B) has its earlier occurrence at 1, so token 2 is both t-1 and the token after the copy;
    // query 2 (A) matches token 1, which is t-1 too: the rule names the previous-token role first.
    QTest::newRow("previous and induction overlap")
        << "ABAB"
        << "1 | 1 0 | 0 1 0 | 0 0 1 0" << 1.0 << third << 0.0 << 0.0 << 1.0 << 2 << "previous-token";
    QTest::newRow("one token measures nothing") << "A"
                                                << "1" << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 0 << "none";
}

void TestHeadReport::shares()
{
    QFETCH(QString, ids);
    QFETCH(QString, weights);
    QFETCH(double, previous);
    QFETCH(double, first);
    QFETCH(double, self);
    QFETCH(double, entropy);
    QFETCH(double, induction);
    QFETCH(int, inductionPositions);
    QFETCH(QString, role);
    const std::size_t tokens = static_cast<std::size_t>(ids.size());
    const std::vector<HeadShares> got = head_shares(causal(weights, tokens), letters(ids), 1, 1, tokens);
    QCOMPARE(got.size(), std::size_t{1});
    const HeadShares& s = got.front();
    QCOMPARE(s.positions, tokens - 1);
    const double eps = 1e-6; // the weights are floats
    QVERIFY2(std::fabs(s.previous - previous) < eps, qPrintable(QString::number(s.previous)));
    QVERIFY2(std::fabs(s.first - first) < eps, qPrintable(QString::number(s.first)));
    QVERIFY2(std::fabs(s.self - self) < eps, qPrintable(QString::number(s.self)));
    QVERIFY2(std::fabs(s.entropy - entropy) < eps, qPrintable(QString::number(s.entropy)));
    QVERIFY2(std::fabs(s.induction - induction) < eps, qPrintable(QString::number(s.induction)));
    QCOMPARE(s.induction_positions, static_cast<std::size_t>(inductionPositions));
    QCOMPARE(QString(role_name(head_role(s))), role);
}

void TestHeadReport::shares_refuse_a_wrong_size()
{
    QVERIFY_THROWS_EXCEPTION(Error, head_shares(std::vector<float>(15, 0.25f), letters("ABCD"), 1, 1, 4));
    QVERIFY_THROWS_EXCEPTION(Error, head_shares(std::vector<float>(16, 0.25f), letters("ABC"), 1, 1, 4));
}

void TestHeadReport::role_data()
{
    QTest::addColumn<double>("previous");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("self");
    QTest::addColumn<double>("induction");
    QTest::addColumn<int>("inductionPositions");
    QTest::addColumn<QString>("role");
    QTest::newRow("previous at the threshold") << 0.5 << 0.1 << 0.1 << 0.1 << 10 << "previous-token";
    QTest::newRow("previous just below") << 0.499 << 0.1 << 0.1 << 0.1 << 10 << "none";
    QTest::newRow("previous named before induction") << 0.6 << 0.0 << 0.0 << 0.9 << 10 << "previous-token";
    QTest::newRow("induction at the threshold") << 0.2 << 0.0 << 0.0 << 0.5 << 10 << "induction";
    QTest::newRow("induction without a position") << 0.2 << 0.0 << 0.0 << 0.9 << 0 << "none";
    QTest::newRow("induction named before first") << 0.0 << 0.6 << 0.0 << 0.7 << 3 << "induction";
    QTest::newRow("first-token") << 0.1 << 0.7 << 0.1 << 0.2 << 3 << "first-token";
    QTest::newRow("self") << 0.1 << 0.1 << 0.8 << 0.0 << 3 << "self";
    QTest::newRow("spread out") << 0.3 << 0.3 << 0.3 << 0.3 << 3 << "none";
}

void TestHeadReport::role()
{
    QFETCH(double, previous);
    QFETCH(double, first);
    QFETCH(double, self);
    QFETCH(double, induction);
    QFETCH(int, inductionPositions);
    QFETCH(QString, role);
    HeadShares s;
    s.previous = previous;
    s.first = first;
    s.self = self;
    s.induction = induction;
    s.positions = 30;
    s.induction_positions = static_cast<std::size_t>(inductionPositions);
    QCOMPARE(QString(role_name(head_role(s))), role);
    QVERIFY(QString(kHeadRoleRule).contains(role_name(head_role(s))));
}

void TestHeadReport::matches_pytorch_data()
{
    QTest::addColumn<QString>("file");
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(ATTNLAB_TEST_DATA_DIR "/heads"))
        names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    for (const std::string& n : names)
        QTest::newRow(n.c_str()) << QString::fromStdString(n);
    QVERIFY(names.size() >= 3);
}

void TestHeadReport::matches_pytorch()
{
    QFETCH(QString, file);
    const SafetensorsFile f = read_safetensors(ATTNLAB_TEST_DATA_DIR "/heads/" + file.toStdString() + ".safetensors");
    const auto meta = [&](const char* k) { return std::stoll(f.meta(k)); };
    GptConfig shape;
    shape.vocab_size = meta("vocab_size");
    shape.context_length = meta("context_length");
    shape.emb_dim = meta("emb_dim");
    shape.n_layers = meta("n_layers");
    shape.n_heads = meta("n_heads");
    shape.qkv_bias = f.meta("qkv_bias") == "true";
    const GptLayout layout = gpt_layout(shape);
    std::vector<float> params(layout.total);
    for (const ParamEntry& e : layout.entries) {
        const std::vector<float> v = values(f, "param." + e.name);
        QCOMPARE(v.size(), e.size);
        std::copy(v.begin(), v.end(), params.begin() + static_cast<std::ptrdiff_t>(e.offset));
    }
    Batch held;
    held.batch = static_cast<std::size_t>(f.find("ids")->size(0));
    held.tokens = static_cast<std::size_t>(f.find("ids")->size(1));
    for (float v : values(f, "ids"))
        held.ids.push_back(static_cast<std::int64_t>(v));
    for (float v : values(f, "targets"))
        held.targets.push_back(static_cast<std::int64_t>(v));

    const HeadReport r = head_report(layout, params, held);
    expect_near(r.intact.loss, values(f, "loss")[0], "intact loss");
    expect_near(r.intact.accuracy, values(f, "accuracy")[0], "intact accuracy");
    QCOMPARE(r.heads.size(), static_cast<std::size_t>(shape.n_layers * shape.n_heads));
    const auto want = [&](const char* name) { return values(f, name); };
    const std::vector<float> previous = want("previous"), first = want("first"), self = want("self"),
                             entropy = want("entropy"), induction = want("induction"),
                             positions = want("induction_positions"), loss = want("ablated_loss"),
                             accuracy = want("ablated_accuracy");
    bool some_head_matters = false;
    for (std::size_t i = 0; i < r.heads.size(); ++i) {
        const HeadStats& h = r.heads[i];
        QCOMPARE(static_cast<std::size_t>(h.layer * shape.n_heads + h.head), i);
        const std::string at = "layer " + std::to_string(h.layer) + " head " + std::to_string(h.head) + " ";
        expect_near(h.shares.previous, previous[i], at + "previous");
        expect_near(h.shares.first, first[i], at + "first");
        expect_near(h.shares.self, self[i], at + "self");
        expect_near(h.shares.entropy, entropy[i], at + "entropy");
        expect_near(h.shares.induction, induction[i], at + "induction");
        QCOMPARE(static_cast<float>(h.shares.induction_positions), positions[i]);
        QCOMPARE(h.shares.positions, held.batch * (held.tokens - 1));
        expect_near(h.ablated.loss, loss[i], at + "ablated loss");
        expect_near(h.ablated.accuracy, accuracy[i], at + "ablated accuracy");
        QCOMPARE(h.role, head_role(h.shares));
        some_head_matters = some_head_matters || std::fabs(h.ablated.loss - r.intact.loss) > 1e-3;
    }
    QVERIFY2(some_head_matters, "the fixture's ablations should change the loss");
}

// Several runs' reports in parallel are each run's own report; a cancelled run's weights are no model.
void TestHeadReport::reports_of_runs_skip_the_cancelled()
{
    RunSettings settings;
    settings.task = "induction";
    settings.shape.emb_dim = 8;
    settings.shape.n_heads = 2; // two layers of two heads
    settings.steps = 3;
    settings.batch = 4;
    std::vector<RunResult> runs;
    for (std::uint64_t seed : {0u, 1u, 2u}) {
        settings.seed = seed;
        runs.push_back(train_run(settings));
    }
    runs[1].cancelled = true;
    const std::vector<HeadReport> reports = head_reports(runs, 2);
    QCOMPARE(reports.size(), runs.size());
    QVERIFY(reports[1].heads.empty());
    for (std::size_t i : {std::size_t{0}, std::size_t{2}}) {
        const HeadReport alone = head_report(runs[i]);
        QCOMPARE(reports[i].heads.size(), std::size_t{4});
        // Equal up to the order of float sums: OpenBLAS splits a product by the threads it may use, and a
        // worker of head_reports may use fewer than the main thread.
        QVERIFY(std::fabs(reports[i].intact.loss - alone.intact.loss) <= 1e-6 * std::fabs(alone.intact.loss));
        for (std::size_t h = 0; h < alone.heads.size(); ++h) {
            QVERIFY(std::fabs(reports[i].heads[h].shares.previous - alone.heads[h].shares.previous) <= 1e-6);
            QCOMPARE(reports[i].heads[h].ablated.accuracy, alone.heads[h].ablated.accuracy);
        }
    }
}

// head_report evaluates every ablation through one net: what a net kept from an earlier forward (another
// model's weights, a Rows::scored forward whose attention weights were asked for) must not reach a later
// evaluation, which equals a new net's to the bit.
void TestHeadReport::a_kept_net_evaluates_as_a_new_one()
{
    RunSettings settings;
    settings.task = "induction";
    settings.shape.emb_dim = 32;
    settings.shape.n_heads = 16; // the heads as the vector lanes where the machine has 8 or 16
    settings.steps = 2;
    settings.batch = 4;
    const RunResult trained = train_run(settings);
    const GptLayout layout = gpt_layout(settings.shape);
    const Task task(settings.task, settings.shape.vocab_size, settings.shape.context_length, 0);
    const Batch& held = task.held_out();
    GptNet kept(layout);
    for (const std::vector<float>* params : {&trained.init_params, &trained.params, &trained.init_params}) {
        kept.forward(trained.params, held.ids.data(), held.targets.data(), 3, held.tokens, nullptr, Rows::scored);
        QVERIFY(!kept.attention_weights(1).empty());
        const EvalPoint reused = evaluate(kept, *params, held), fresh = evaluate(layout, *params, held);
        QCOMPARE(reused.loss, fresh.loss);
        QCOMPARE(reused.accuracy, fresh.accuracy);
    }
    QVERIFY(evaluate(layout, trained.init_params, held).loss != evaluate(layout, trained.params, held).loss);
}

// The intact numbers, and every head's "with this head zeroed" numbers, are those of evaluate() on the model,
// and on the model with that head's columns of out_proj zeroed, to the bit: the last block's come from
// forward_last_block_tail, the others from whole forwards.
void TestHeadReport::ablations_equal_evaluations_of_ablated_models()
{
    RunSettings settings;
    settings.task = "induction";
    settings.shape.n_heads = 4;
    settings.steps = 30;
    settings.batch = 8;
    const RunResult trained = train_run(settings);
    const GptLayout layout = gpt_layout(settings.shape);
    const Task task(settings.task, settings.shape.vocab_size, settings.shape.context_length, 0);
    const HeadReport report = head_report(layout, trained.params, task);
    QCOMPARE(report.heads.size(), std::size_t(8));
    const EvalPoint intact = evaluate(layout, trained.params, task); // the intact numbers come from the same pass
    QCOMPARE(report.intact.loss, intact.loss);
    QCOMPARE(report.intact.accuracy, intact.accuracy);
    const std::size_t d = 32, hd = 8;
    bool any_differs = false;
    for (const HeadStats& s : report.heads) {
        std::vector<float> ablated = trained.params;
        float* wo = ablated.data() + layout.blocks[static_cast<std::size_t>(s.layer)].wo;
        for (std::size_t r = 0; r < d; ++r)
            std::fill_n(wo + r * d + static_cast<std::size_t>(s.head) * hd, hd, 0.0f);
        const EvalPoint want = evaluate(layout, ablated, task);
        QCOMPARE(s.ablated.loss, want.loss);
        QCOMPARE(s.ablated.accuracy, want.accuracy);
        any_differs = any_differs || s.ablated.loss != report.intact.loss;
    }
    QVERIFY(any_differs);
}

// Every block's ablations run from that block on, the blocks before it reused from the chunk's intact forward
// (forward_from_block, the layers from the last to the first): each head's numbers are still evaluate()'s of the
// model with that head zeroed, whole forward by whole forward, to the bit, at depth, with biases, grouped keys and
// values, dropout in the shape (off in eval mode) and a chunk smaller than the held-out set's.
void TestHeadReport::ablations_at_depth_equal_evaluations_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvGroups");
    QTest::addColumn<bool>("qkvBias");
    QTest::addColumn<double>("dropRate");
    QTest::addColumn<int>("chunk");
    QTest::newRow("5-layers-1-head") << 5 << 1 << 0 << false << 0.0 << 64;
    QTest::newRow("4-layers-2-heads-bias") << 4 << 2 << 0 << true << 0.0 << 64;
    QTest::newRow("3-layers-4-heads-2-groups") << 3 << 4 << 2 << false << 0.0 << 64;
    QTest::newRow("3-layers-2-heads-dropout-chunk-7") << 3 << 2 << 0 << false << 0.1 << 7;
}

void TestHeadReport::ablations_at_depth_equal_evaluations()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(int, kvGroups);
    QFETCH(bool, qkvBias);
    QFETCH(double, dropRate);
    QFETCH(int, chunk);
    RunSettings settings;
    settings.task = "induction";
    settings.shape.emb_dim = 16;
    settings.shape.n_layers = layers;
    settings.shape.n_heads = heads;
    settings.shape.n_kv_groups = kvGroups;
    settings.shape.qkv_bias = qkvBias;
    settings.shape.drop_rate = dropRate;
    settings.steps = 20;
    settings.batch = 8;
    const RunResult trained = train_run(settings);
    const GptLayout layout = gpt_layout(settings.shape);
    const Task task(settings.task, settings.shape.vocab_size, settings.shape.context_length, 0);
    const Batch& held = task.held_out();
    const HeadReport report = head_report(layout, trained.params, held, static_cast<std::size_t>(chunk));
    // Its chunks shared by three threads, each with its own net: the same numbers to the bit.
    const HeadReport shared = head_report(layout, trained.params, held, static_cast<std::size_t>(chunk), 3);
    QCOMPARE(shared.heads.size(), report.heads.size());
    QCOMPARE(shared.intact.loss, report.intact.loss);
    for (std::size_t i = 0; i < report.heads.size(); ++i) {
        QCOMPARE(shared.heads[i].ablated.loss, report.heads[i].ablated.loss);
        QCOMPARE(shared.heads[i].ablated.accuracy, report.heads[i].ablated.accuracy);
    }
    QCOMPARE(report.heads.size(), static_cast<std::size_t>(layers * heads));
    GptNet net(layout);
    const EvalPoint intact = evaluate(net, trained.params, held, static_cast<std::size_t>(chunk));
    QCOMPARE(report.intact.loss, intact.loss);
    QCOMPARE(report.intact.accuracy, intact.accuracy);
    const std::size_t d = 16, hd = d / static_cast<std::size_t>(heads);
    int differs = 0;
    for (const HeadStats& s : report.heads) {
        std::vector<float> ablated = trained.params;
        float* wo = ablated.data() + layout.blocks[static_cast<std::size_t>(s.layer)].wo;
        for (std::size_t r = 0; r < d; ++r)
            std::fill_n(wo + r * d + static_cast<std::size_t>(s.head) * hd, hd, 0.0f);
        GptNet fresh(layout);
        const EvalPoint want = evaluate(fresh, ablated, held, static_cast<std::size_t>(chunk));
        QCOMPARE(s.ablated.loss, want.loss);
        QCOMPARE(s.ablated.accuracy, want.accuracy);
        differs += s.ablated.loss != report.intact.loss;
    }
    QVERIFY2(differs > layers * heads / 2, "most ablations should change the loss");
}

QTEST_GUILESS_MAIN(TestHeadReport)
#include "test_head_report.moc"
