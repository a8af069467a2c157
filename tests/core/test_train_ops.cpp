// The trainer's pieces against PyTorch (tests/reference/make_train_cases.py): normal_ bit for bit in both
// builds, every operation's output and autograd gradients, AdamW's steps, and the whole GPTModel's initial
// weights (exactly), loss and every parameter's gradient at several shapes, one of them with dropout.
#include "io/safetensors.h"
#include "train/adamw.h"
#include "train/gpt_net.h"
#include "train/lanes_order.h"
#include "train/tasks.h"
#include "train/torch_normal.h"
#include "train/train_attention.h"
#include "train/train_ops.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <stdexcept>

using namespace attnlab;
using namespace attnlab::train;

namespace {

std::string data_path(const std::string& name)
{
    return ATTNLAB_TEST_DATA_DIR "/train/" + name + ".safetensors";
}

std::vector<float> values(const SafetensorsFile& f, const std::string& name)
{
    const Tensor* t = f.find(name);
    if (!t)
        qFatal("fixture has no tensor %s", name.c_str());
    return t->to_vector();
}

std::vector<std::int64_t> integers(const SafetensorsFile& f, const std::string& name)
{
    std::vector<std::int64_t> out;
    for (float v : values(f, name))
        out.push_back(static_cast<std::int64_t>(v));
    return out;
}

// Largest difference relative to the reference's largest magnitude (1e-4 of it, or 1e-6 absolute).
void expect_close(const std::vector<float>& got, const std::vector<float>& want, const std::string& what,
                  double rel = 1e-4)
{
    QCOMPARE(got.size(), want.size());
    double scale = 0.0, worst = 0.0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        scale = std::max(scale, std::fabs(static_cast<double>(want[i])));
        worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - want[i]));
    }
    if (worst > rel * scale + 1e-6)
        QFAIL(qPrintable(QString::fromStdString(what) + ": max |diff| " + QString::number(worst) + " against scale " +
                         QString::number(scale)));
}

void add_file_rows(const char* prefix)
{
    QTest::addColumn<QString>("file");
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(ATTNLAB_TEST_DATA_DIR "/train")) {
        const std::string stem = e.path().stem().string();
        if (stem.rfind(prefix, 0) == 0)
            names.push_back(stem);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& n : names)
        QTest::newRow(n.c_str()) << QString::fromStdString(n);
}

} // namespace

class TestTrainOps : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void normal_matches_pytorch_data();
    void normal_matches_pytorch();
    void op_matches_autograd_data() { add_file_rows("op_"); }
    void op_matches_autograd();
    void adamw_matches_torch();
    void model_matches_autograd_data() { add_file_rows("model_"); }
    void model_matches_autograd();
    void scored_rows_match_all_rows_data();
    void scored_rows_match_all_rows();
    void lanes_order_matches_definition_data();
    void lanes_order_matches_definition();
    void last_block_tail_matches_a_forward_data();
    void last_block_tail_matches_a_forward();
};

void TestTrainOps::normal_matches_pytorch_data()
{
    QTest::addColumn<QString>("name");
    const SafetensorsFile f = read_safetensors(data_path("normal"));
    for (const auto& [name, t] : f.tensors)
        QTest::newRow(name.c_str()) << QString::fromStdString(name);
}

void TestTrainOps::normal_matches_pytorch()
{
    QFETCH(QString, name);
    const std::string key = name.toStdString();
    const SafetensorsFile f = read_safetensors(data_path("normal"));
    const std::vector<float> want = values(f, key);
    const std::size_t n = want.size() / 2;
    const auto seed = std::stoull(key.substr(key.find("seed") + 4));
    TorchGenerator gen(seed, key.rfind("fused", 0) == 0 ? UniformRounding::Fused : UniformRounding::Separate);
    NormalCache cache;
    std::vector<float> got(2 * n);
    normal_(got.data(), n, 0.0, 1.0, gen, cache); // two tensors in a row, as the fixture drew them
    normal_(got.data() + n, n, 0.0, 1.0, gen, cache);
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::bit_cast<std::uint32_t>(got[i]) != std::bit_cast<std::uint32_t>(want[i]))
            QFAIL(qPrintable(
                QString("element %1: %2, PyTorch %3").arg(i).arg(got[i], 0, 'g', 9).arg(want[i], 0, 'g', 9)));
}

void TestTrainOps::op_matches_autograd()
{
    QFETCH(QString, file);
    const std::string name = file.toStdString().substr(3);
    const SafetensorsFile f = read_safetensors(data_path(file.toStdString()));
    const auto shape = [&](const std::string& t) { return f.find(t)->shape(); };
    if (name == "cross-entropy") {
        const std::vector<float> logits = values(f, "in.logits");
        const std::vector<std::int64_t> targets = integers(f, "in.targets");
        std::vector<float> grad(logits.size());
        const LossStats s =
            cross_entropy(logits.data(), targets.data(), targets.size(), logits.size() / targets.size(), grad.data());
        expect_close({static_cast<float>(s.loss)}, values(f, "y"), "loss", 1e-6);
        expect_close(grad, values(f, "grad.logits"), "dlogits");
        return;
    }
    const std::vector<float> dy = values(f, "dy");
    std::vector<float> y(dy.size());
    if (name.rfind("linear", 0) == 0) {
        const std::vector<float> x = values(f, "in.x"), w = values(f, "in.w");
        const bool bias = f.find("in.b") != nullptr;
        const std::vector<float> b = bias ? values(f, "in.b") : std::vector<float>{};
        const std::size_t n = shape("in.x")[0], in = shape("in.x")[1], out = shape("in.w")[0];
        linear_forward(x.data(), n, in, w.data(), bias ? b.data() : nullptr, out, y.data());
        std::vector<float> dx(x.size()), dw(w.size()), db(out);
        linear_backward(x.data(), n, in, w.data(), out, dy.data(), dx.data(), dw.data(), bias ? db.data() : nullptr);
        expect_close(y, values(f, "y"), "y");
        expect_close(dx, values(f, "grad.x"), "dx");
        expect_close(dw, values(f, "grad.w"), "dw");
        if (bias)
            expect_close(db, values(f, "grad.b"), "db");
    } else if (name == "layer-norm") {
        const std::vector<float> x = values(f, "in.x"), scale = values(f, "in.scale"), shift = values(f, "in.shift");
        const std::size_t n = shape("in.x")[0], d = shape("in.x")[1];
        std::vector<float> xhat(x.size()), rstd(n), dx(x.size()), dscale(d), dshift(d);
        layer_norm_forward(x.data(), n, d, scale.data(), shift.data(), y.data(), xhat.data(), rstd.data());
        layer_norm_backward(dy.data(), xhat.data(), rstd.data(), scale.data(), n, d, dx.data(), dscale.data(),
                            dshift.data());
        expect_close(y, values(f, "y"), "y");
        expect_close(dx, values(f, "grad.x"), "dx");
        expect_close(dscale, values(f, "grad.scale"), "dscale");
        expect_close(dshift, values(f, "grad.shift"), "dshift");
    } else if (name == "gelu") {
        const std::vector<float> x = values(f, "in.x");
        std::vector<float> dx(x.size()), t(x.size());
        gelu_forward(x.data(), x.size(), y.data(), t.data());
        gelu_backward(x.data(), t.data(), dy.data(), x.size(), dx.data());
        expect_close(y, values(f, "y"), "y");
        expect_close(dx, values(f, "grad.x"), "dx");
    } else if (name.rfind("attention", 0) == 0) {
        const std::vector<float> q = values(f, "in.q"), k = values(f, "in.k"), v = values(f, "in.v");
        const Shape s = shape("in.q");
        const std::size_t heads = std::stoul(name.substr(name.find("-h") + 2));
        const std::size_t d = static_cast<std::size_t>(s[2]);
        const AttentionDims dims{static_cast<std::size_t>(s[0]), static_cast<std::size_t>(s[1]), heads, d / heads};
        std::vector<float> w(dims.batch * heads * dims.tokens * dims.tokens), wt(attention_t_floats(dims)),
            dq(q.size()), dk(q.size()), dv(q.size());
        attention_forward(dims, q.data(), k.data(), v.data(), w.data(), wt.data(), nullptr, y.data());
        attention_backward(dims, q.data(), k.data(), v.data(), wt.data(), nullptr, dy.data(), dq.data(), dk.data(),
                           dv.data());
        expect_close(y, values(f, "y"), "context");
        // the weights a training step leaves in weights_t are the ones the forward wrote, 0 above the diagonal
        std::vector<float> later(w.size(), -1.0f);
        attention_weights_from_t(dims, wt.data(), later.data());
        QCOMPARE(later, w);
        for (std::size_t bh = 0; bh < dims.batch * heads; ++bh)
            for (std::size_t i = 0; i < dims.tokens; ++i)
                for (std::size_t j = i + 1; j < dims.tokens; ++j)
                    QCOMPARE(w[(bh * dims.tokens + i) * dims.tokens + j], 0.0f);
        // and they are PyTorch's: weights @ values gives its context (the fixture has no weights of its own)
        const std::size_t T = dims.tokens, hd = dims.head_dim;
        std::vector<float> merged(y.size(), 0.0f);
        for (std::size_t b = 0; b < dims.batch; ++b)
            for (std::size_t h = 0; h < heads; ++h)
                for (std::size_t i = 0; i < T; ++i)
                    for (std::size_t j = 0; j < T; ++j)
                        for (std::size_t c = 0; c < hd; ++c)
                            merged[(b * T + i) * d + h * hd + c] +=
                                w[((b * heads + h) * T + i) * T + j] * v[(b * T + j) * d + h * hd + c];
        expect_close(merged, values(f, "y"), "weights @ values");
        expect_close(dq, values(f, "grad.q"), "dq");
        expect_close(dk, values(f, "grad.k"), "dk");
        expect_close(dv, values(f, "grad.v"), "dv");
    } else {
        QFAIL(qPrintable("no check for " + file));
    }
}

void TestTrainOps::adamw_matches_torch()
{
    const SafetensorsFile f = read_safetensors(data_path("adamw"));
    std::vector<float> p = values(f, "start");
    const std::vector<float> grads = values(f, "grads"), after = values(f, "after");
    const std::size_t n = p.size();
    AdamW opt(n, {0.01, 0.9, 0.999, 1e-8, 0.1});
    for (std::size_t s = 0; s < 5; ++s) {
        opt.step(p, std::vector<float>(grads.begin() + s * n, grads.begin() + (s + 1) * n));
        expect_close(p, std::vector<float>(after.begin() + s * n, after.begin() + (s + 1) * n),
                     "step " + std::to_string(s + 1), 1e-6);
    }
}

void TestTrainOps::model_matches_autograd()
{
    QFETCH(QString, file);
    const SafetensorsFile f = read_safetensors(data_path(file.toStdString()));
    const auto meta = [&](const char* k) { return std::stoll(f.meta(k)); };
    GptConfig shape;
    shape.vocab_size = meta("vocab_size");
    shape.context_length = meta("context_length");
    shape.emb_dim = meta("emb_dim");
    shape.n_layers = meta("n_layers");
    shape.n_heads = meta("n_heads");
    shape.qkv_bias = f.meta("qkv_bias") == "true";
    shape.drop_rate = std::stod(f.meta("drop_rate"));
    if (!f.meta("n_kv_groups").empty()) // GroupedQueryAttention: each key/value head's gradient summed over its group
        shape.n_kv_groups = meta("n_kv_groups");
    const GptLayout layout = gpt_layout(shape);
    TorchGenerator gen(static_cast<std::uint64_t>(meta("seed")));
    const std::vector<float> params = init_gpt_params(layout, gen);
    QCOMPARE(layout.entries.size() * 2 + 3, f.tensors.size());
    for (const ParamEntry& e : layout.entries) {
        const std::vector<float> want = values(f, "init." + e.name);
        QCOMPARE(want.size(), e.size);
        for (std::size_t i = 0; i < e.size; ++i)
            if (std::bit_cast<std::uint32_t>(params[e.offset + i]) != std::bit_cast<std::uint32_t>(want[i]))
                QFAIL(qPrintable(QString::fromStdString("init." + e.name + " differs at ") + QString::number(i)));
    }
    const std::vector<std::int64_t> ids = integers(f, "ids"), targets = integers(f, "targets");
    GptNet net(layout);
    const std::size_t batch = meta("batch"), tokens = meta("tokens");
    const LossStats s =
        net.forward(params, ids.data(), targets.data(), batch, tokens, shape.drop_rate > 0 ? &gen : nullptr);
    expect_close({static_cast<float>(s.loss)}, values(f, "loss"), "loss", 1e-5);
    std::vector<float> grads;
    net.backward(params, grads);
    for (const ParamEntry& e : layout.entries)
        expect_close(std::vector<float>(grads.begin() + e.offset, grads.begin() + e.offset + e.size),
                     values(f, "grad." + e.name), "grad." + e.name);
}

void TestTrainOps::scored_rows_match_all_rows_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<bool>("qkv_bias");
    QTest::addColumn<double>("drop_rate");
    QTest::addColumn<bool>("empty_rows"); // some sequences with no scored position at all
    QTest::addColumn<int>("heads");       // 8: the heads-as-lanes attention with AVX2
    QTest::newRow("induction") << "induction" << false << 0.0 << false << 4;
    QTest::newRow("induction-bias-dropout") << "induction" << true << 0.1 << false << 4;
    QTest::newRow("previous-token-dropout") << "previous-token" << false << 0.1 << false << 4;
    QTest::newRow("induction-unscored-sequences") << "induction" << false << 0.0 << true << 4;
    QTest::newRow("induction-unscored-sequences-bias-dropout") << "induction" << true << 0.1 << true << 4;
    QTest::newRow("nothing-scored-bias") << "previous-token" << true << 0.0 << true << 4;
    QTest::newRow("induction-h8") << "induction" << false << 0.0 << false << 8;
    QTest::newRow("induction-unscored-sequences-dropout-h8") << "induction" << false << 0.1 << true << 8;
    QTest::newRow("induction-bias-dropout-h16") << "induction" << true << 0.1 << false << 16;
    QTest::newRow("induction-h1") << "induction" << false << 0.0 << false << 1;
}

// Rows::scored runs the last block's per-position part on the scored rows only, and Rows::live also drops
// every sequence's positions after its last scored one; the loss, the accuracy and every gradient must be
// the full path's, the dropout masks drawn as GPTModel draws them, and the generator left where it is.
void TestTrainOps::scored_rows_match_all_rows()
{
    QFETCH(QString, task);
    QFETCH(bool, qkv_bias);
    QFETCH(double, drop_rate);
    QFETCH(bool, empty_rows);
    QFETCH(int, heads);
    GptConfig shape;
    shape.n_heads = heads;
    shape.qkv_bias = qkv_bias;
    shape.drop_rate = drop_rate;
    const GptLayout layout = gpt_layout(shape);
    TorchGenerator init(3);
    const std::vector<float> params = init_gpt_params(layout, init);
    Task t(task.toStdString(), shape.vocab_size, shape.context_length, 5);
    Batch b = t.next_batch(8);
    if (empty_rows) // sequences 1, 4 and 6 scored nowhere; with previous-token's row 0, every one of them
        for (std::size_t seq = 0; seq < b.batch; ++seq)
            if (seq % 3 == 1 || task == "previous-token")
                std::fill_n(b.targets.begin() + seq * b.tokens, b.tokens, kIgnoreIndex);
    if (task == "previous-token" && empty_rows)
        QCOMPARE(std::count(b.targets.begin(), b.targets.end(), kIgnoreIndex), std::ptrdiff_t(b.targets.size()));
    else
        QVERIFY(std::count(b.targets.begin(), b.targets.end(), kIgnoreIndex) > 0);
    if (task == "induction") // the live cut has positions to drop: some sequence's last one is not scored
        QVERIFY(std::count(b.targets.begin() + b.tokens - 1, b.targets.end(), kIgnoreIndex) > 0);
    constexpr int kModes = 3;
    const Rows modes[kModes] = {Rows::all, Rows::scored, Rows::live};
    std::vector<float> grads[kModes];
    LossStats stats[kModes];
    std::vector<float> weights[2];
    for (int i = 0; i < kModes; ++i) {
        GptNet net(layout);
        TorchGenerator dropout(11);
        stats[i] = net.forward(params, b.ids.data(), b.targets.data(), b.batch, b.tokens,
                               drop_rate > 0 ? &dropout : nullptr, modes[i]);
        net.backward(params, grads[i]);
        if (modes[i] == Rows::live)
            QVERIFY_THROWS_EXCEPTION(std::logic_error, net.attention_weights(0));
        else
            weights[i] = net.attention_weights(layout.blocks.size() - 1);
        // the next draw shows both paths advanced the generator alike
        if (drop_rate > 0)
            grads[i].push_back(static_cast<float>(dropout.random64() % 1000));
    }
    expect_close(weights[1], weights[0], "last block's attention weights", 1e-6);
    for (int i = 1; i < kModes; ++i) {
        const std::string mode = i == 1 ? "scored " : "live ";
        QCOMPARE(stats[i].scored, stats[0].scored);
        QCOMPARE(stats[i].correct, stats[0].correct);
        QVERIFY(std::fabs(stats[i].loss - stats[0].loss) <= 1e-6 * std::max(1.0, std::fabs(stats[0].loss)));
        for (const ParamEntry& e : layout.entries)
            expect_close(std::vector<float>(grads[i].begin() + e.offset, grads[i].begin() + e.offset + e.size),
                         std::vector<float>(grads[0].begin() + e.offset, grads[0].begin() + e.offset + e.size),
                         mode + "grad." + e.name, 1e-5);
        QCOMPARE(grads[i].size(), grads[0].size());
        QCOMPARE(grads[i].back(), grads[0].back());
    }
}

void TestTrainOps::lanes_order_matches_definition_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("head_dim");
    QTest::addColumn<bool>("half"); // vectors of half the machine's width (8 heads with AVX-512)
    for (int heads : {8, 16, 32})
        for (int hd : {1, 2, 3, 4, 8})
            for (bool half : {false, true}) {
                const std::size_t width = half ? simd::lanes_of<simd::HalfVec> : simd::kLanes;
                if (heads % width == 0)
                    QTest::newRow(
                        ("h" + std::to_string(heads) + "-hd" + std::to_string(hd) + (half ? "-half" : "")).c_str())
                        << heads << hd << half;
            }
}

// to_lanes takes column h * head_dim + d of each row to column d * heads + h, by shuffles at head_dim 2, 4 and
// 8, and from_lanes undoes it, leaving the rest of each strided row as it was.
void TestTrainOps::lanes_order_matches_definition()
{
    QFETCH(int, heads);
    QFETCH(int, head_dim);
    QFETCH(bool, half);
    const std::size_t H = static_cast<std::size_t>(heads), hd = static_cast<std::size_t>(head_dim), D = H * hd;
    const std::size_t rows = 5, stride = 3 * D + 1;
    std::vector<float> src(rows * stride), lanes(rows * D), back(rows * stride, -1.0f);
    for (std::size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<float>(i);
    if (half)
        to_lanes<simd::HalfVec>(src.data(), stride, rows, H, hd, lanes.data());
    else
        to_lanes<simd::Vec>(src.data(), stride, rows, H, hd, lanes.data());
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t h = 0; h < H; ++h)
            for (std::size_t d = 0; d < hd; ++d)
                QCOMPARE(lanes[i * D + d * H + h], src[i * stride + h * hd + d]);
    if (half)
        from_lanes<simd::HalfVec>(lanes.data(), rows, H, hd, back.data(), stride);
    else
        from_lanes<simd::Vec>(lanes.data(), rows, H, hd, back.data(), stride);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t c = 0; c < stride; ++c)
            QCOMPARE(back[i * stride + c], c < D ? src[i * stride + c] : -1.0f);
}

void TestTrainOps::last_block_tail_matches_a_forward_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("qkv_bias");
    QTest::addColumn<int>("rows"); // Rows: all, scored, live
    QTest::newRow("2-layers-h4-live") << 2 << 4 << false << int(Rows::live);
    QTest::newRow("2-layers-h16-live") << 2 << 16 << false << int(Rows::live);
    QTest::newRow("2-layers-h8-bias-scored") << 2 << 8 << true << int(Rows::scored);
    QTest::newRow("1-layer-h2-all") << 1 << 2 << false << int(Rows::all);
    QTest::newRow("3-layers-h32-live") << 3 << 32 << false << int(Rows::live);
}

// forward_last_block_tail re-runs the last block from out_proj on: with params changed there (a head's
// columns of out_proj zeroed, the feed-forward and out_head scaled) it gives a new forward's loss and
// accuracy to the bit; after a forward with dropout it refuses.
void TestTrainOps::last_block_tail_matches_a_forward()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(bool, qkv_bias);
    QFETCH(int, rows);
    GptConfig shape;
    shape.n_layers = layers;
    shape.n_heads = heads;
    shape.qkv_bias = qkv_bias;
    const GptLayout layout = gpt_layout(shape);
    TorchGenerator init(4);
    const std::vector<float> params = init_gpt_params(layout, init);
    Task t("induction", shape.vocab_size, shape.context_length, 6);
    const Batch b = t.next_batch(9);
    std::vector<float> changed = params;
    const BlockParams& last = layout.blocks.back();
    const std::size_t d = static_cast<std::size_t>(shape.emb_dim), hd = static_cast<std::size_t>(shape.head_dim());
    for (std::size_t r = 0; r < d; ++r) // the last head's inputs to out_proj
        std::fill_n(changed.begin() + static_cast<std::ptrdiff_t>(last.wo + r * d + (heads - 1) * hd), hd, 0.0f);
    for (std::size_t i = 0; i < 4 * d * d; ++i)
        changed[last.ff1_w + i] *= 1.5f;
    for (std::size_t i = 0; i < d * static_cast<std::size_t>(shape.vocab_size); ++i)
        changed[layout.out_head + i] *= 0.75f;
    GptNet net(layout), fresh(layout);
    const Rows mode = static_cast<Rows>(rows);
    const LossStats before = net.forward(params, b.ids.data(), b.targets.data(), b.batch, b.tokens, nullptr, mode);
    const LossStats tail = net.forward_last_block_tail(changed);
    const LossStats whole = fresh.forward(changed, b.ids.data(), b.targets.data(), b.batch, b.tokens, nullptr, mode);
    QCOMPARE(tail.loss, whole.loss);
    QCOMPARE(tail.correct, whole.correct);
    QCOMPARE(tail.scored, whole.scored);
    QVERIFY(tail.loss != before.loss);
    QCOMPARE(net.forward_last_block_tail(params).loss, before.loss);

    GptConfig dropped = shape;
    dropped.drop_rate = 0.1;
    GptNet with_dropout(gpt_layout(dropped));
    TorchGenerator gen(1);
    with_dropout.forward(params, b.ids.data(), b.targets.data(), b.batch, b.tokens, &gen, mode);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, with_dropout.forward_last_block_tail(params));
    GptNet unused(layout);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, unused.forward_last_block_tail(params));
}

QTEST_GUILESS_MAIN(TestTrainOps)
#include "test_train_ops.moc"
