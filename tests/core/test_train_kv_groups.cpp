// Grouped keys and values in the trainer (num_kv_groups below num_heads, as GroupedQueryAttention): a sweep over
// key/value group counts and its refusals; a grouped GPT computing what the book's GPT computes with every shared
// key/value head's rows repeated, its gradient the sum of theirs over the group; and a grouped model saved, read
// back, run through gpt_forward and the KV cache with the trainer's own numbers.
#include "common/errors.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_model.h"
#include "gpt/kv_cache.h"
#include "train/gpt_net.h"
#include "train/run_files.h"
#include "train/sweep_spec.h"
#include "train/train_run.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::train;

namespace {

// The largest |a - b| over two equally long buffers.
float max_diff(const float* a, const float* b, std::size_t n)
{
    float worst = 0.0f;
    for (std::size_t i = 0; i < n; ++i)
        worst = std::max(worst, std::abs(a[i] - b[i]));
    return worst;
}

// A tiny batch of ids with about two thirds of the positions scored.
void tiny_batch(std::size_t batch, std::size_t tokens, std::int64_t vocab, std::vector<std::int64_t>& ids,
                std::vector<std::int64_t>& targets)
{
    for (std::size_t i = 0; i < batch * tokens; ++i) {
        ids.push_back(static_cast<std::int64_t>((i * 7 + 3) % static_cast<std::size_t>(vocab)));
        targets.push_back(i % 3 == 1 ? kIgnoreIndex : static_cast<std::int64_t>((i * 5 + 1) % vocab));
    }
}

} // namespace

class TestTrainKvGroups : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sweep_runs_every_group_count();
    void sweep_refuses_groups_that_do_not_divide();
    void grouped_equals_repeated_heads_data();
    void grouped_equals_repeated_heads();
    void saved_model_reads_back_grouped();
};

void TestTrainKvGroups::sweep_runs_every_group_count()
{
    SweepSpec spec;
    spec.heads = {8};
    spec.kv_groups = {8, 2, 1};
    spec.seeds = 2;
    spec.steps = 10;
    QStringList got;
    for (const RunSettings& r : spec.expand())
        got << QStringLiteral("%1/%2/%3").arg(r.shape.n_heads).arg(r.shape.kv_groups()).arg(r.seed);
    QCOMPARE(got.join(' '), QStringLiteral("8/8/0 8/8/1 8/2/0 8/2/1 8/1/0 8/1/1"));
    QVERIFY(!spec.expand().front().shape.grouped()); // as many groups as heads: the book's MultiHeadAttention
}

void TestTrainKvGroups::sweep_refuses_groups_that_do_not_divide()
{
    SweepSpec spec;
    spec.heads = {4, 8};
    spec.kv_groups = {2, 8};
    QCOMPARE(testing::error_of([&] { spec.expand(); }),
             QStringLiteral("num_kv_groups 8 does not divide num_heads 4; the key/value group counts that divide every "
                            "head count are 1, 2, 4."));
    spec.kv_groups = {2, 2};
    QVERIFY(testing::error_of([&] { spec.expand(); }).startsWith("num_kv_groups 2 is listed twice"));
}

void TestTrainKvGroups::grouped_equals_repeated_heads_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("groups");
    QTest::addColumn<bool>("bias");
    QTest::newRow("4-in-2") << 4 << 2 << false;
    QTest::newRow("4-in-1-bias") << 4 << 1 << true;
    QTest::newRow("8-in-2-lanes") << 8 << 2 << false;
}

// The same network written two ways: grouped, and as the book's GPT whose W_key and W_value repeat each shared
// head's rows for every query head of its group. Same loss and logits; each shared row's gradient the sum of its
// copies'.
void TestTrainKvGroups::grouped_equals_repeated_heads()
{
    QFETCH(int, heads);
    QFETCH(int, groups);
    QFETCH(bool, bias);
    GptConfig g;
    g.vocab_size = 11;
    g.context_length = 9;
    g.emb_dim = 16;
    g.n_layers = 2;
    g.n_heads = heads;
    g.n_kv_groups = groups;
    g.qkv_bias = bias;
    GptConfig m = g;
    m.n_kv_groups = 0;
    const GptLayout lg = gpt_layout(g), lm = gpt_layout(m);
    TorchGenerator gen(5);
    const std::vector<float> pg = init_gpt_params(lg, gen);
    std::vector<float> pm(lm.total);
    const std::size_t hd = static_cast<std::size_t>(g.head_dim()), group = static_cast<std::size_t>(heads / groups);
    const std::size_t d = static_cast<std::size_t>(g.emb_dim);
    // the book's row r of W_key (its head r / hd) is the grouped model's row of head (r / hd) / group
    const auto source_row = [&](std::size_t r) { return (r / hd / group) * hd + r % hd; };
    for (const ParamEntry& e : lm.entries) {
        const ParamEntry* from = lg.find(e.name);
        const bool shared = e.name.find("W_key") != std::string::npos || e.name.find("W_value") != std::string::npos;
        const std::size_t width = e.shape.size() == 2 ? d : 1;
        for (std::size_t i = 0; i < e.size; ++i)
            pm[e.offset + i] = pg[from->offset + (shared ? source_row(i / width) * width + i % width : i)];
    }
    std::vector<std::int64_t> ids, targets;
    tiny_batch(3, 9, g.vocab_size, ids, targets);
    GptNet ng(lg), nm(lm);
    const LossStats sg = ng.forward(pg, ids.data(), targets.data(), 3, 9, nullptr);
    const LossStats sm = nm.forward(pm, ids.data(), targets.data(), 3, 9, nullptr);
    QVERIFY(std::abs(sg.loss - sm.loss) < 1e-6);
    QVERIFY(max_diff(ng.logits().data(), nm.logits().data(), ng.logit_rows() * 11) < 1e-5f);
    std::vector<float> gg, gm;
    ng.backward(pg, gg);
    nm.backward(pm, gm);
    for (const ParamEntry& e : lg.entries) {
        const ParamEntry* to = lm.find(e.name);
        std::vector<float> want(e.size, 0.0f);
        const bool shared = e.name.find("W_key") != std::string::npos || e.name.find("W_value") != std::string::npos;
        const std::size_t width = e.shape.size() == 2 ? d : 1;
        if (shared)
            for (std::size_t i = 0; i < to->size; ++i)
                want[source_row(i / width) * width + i % width] += gm[to->offset + i];
        else
            want.assign(gm.begin() + static_cast<std::ptrdiff_t>(to->offset),
                        gm.begin() + static_cast<std::ptrdiff_t>(to->offset + to->size));
        QVERIFY2(max_diff(gg.data() + e.offset, want.data(), e.size) < 1e-5f, e.name.c_str());
    }
}

void TestTrainKvGroups::saved_model_reads_back_grouped()
{
    RunSettings s;
    s.task = "induction";
    s.shape.n_heads = 4;
    s.shape.n_kv_groups = 2;
    s.steps = 3;
    s.batch = 4;
    s.eval_every = 3;
    const RunResult run = train_run(s);
    QTemporaryDir dir;
    const std::string path = dir.filePath("grouped.safetensors").toStdString();
    save_trained_model(path, run, {});
    const GptModel model = load_gpt_model(path);
    QCOMPARE(model.settings.kv_groups(), 2);
    QCOMPARE(model.meta("n_kv_groups"), std::string("2"));
    QCOMPARE(model.weights.at("trf_blocks.0.att.W_key.weight").shape(), (Shape{16, 32}));
    const Config c = gpt_attention_config(model);
    QCOMPARE(c.kind, ModuleKind::GroupedQueryAttention);
    QCOMPARE(c.num_kv_groups, 2);
    // The inference forward (the engine's GroupedQueryAttention) gives the trainer's logits.
    const std::vector<std::int64_t> ids = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
    GptForwardOptions all;
    all.all_logits = true;
    const GptForward f = gpt_forward(model, kBookLayerNormEps, ids, all);
    GptNet net(gpt_layout(model.settings));
    const std::vector<std::int64_t> targets(ids.size(), 0);
    net.forward(run.params, ids.data(), targets.data(), 1, ids.size(), nullptr);
    QVERIFY(max_diff(f.logits.data(), net.logits().data(), ids.size() * 16) < 1e-4f);
    // The KV cache holds 2 key/value heads a layer, and its last logits are the forward's.
    KvGenerator gen(model, kBookLayerNormEps, 16);
    const std::vector<float> last = gen.prefill(ids);
    QVERIFY(max_diff(last.data(), net.logits().data() + (ids.size() - 1) * 16, 16) < 1e-4f);
    QCOMPARE(kv_cache_bytes(model.settings, 1), std::uint64_t{2 * 2 * 16 * 4});
}

QTEST_GUILESS_MAIN(TestTrainKvGroups)
#include "test_train_kv_groups.moc"
