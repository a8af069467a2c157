// Parameter names, shapes and counts as PyTorch registers them; seeded initialisation; loading
// torch state_dicts and GPT-2 checkpoints from the golden files; the book's input.
#include "common/errors.h"
#include "tensor/error.h"
#include "tensor/torch_random.h"
#include "io/weights.h"

#include <QtTest>

#include <cmath>
#include <functional>

using namespace attnlab;
using testing::error_of;
Q_DECLARE_METATYPE(attnlab::Config)

namespace {

Config make(ModuleKind kind, std::int64_t d_in, std::int64_t d_out, std::int64_t heads = 1, bool bias = false,
            std::int64_t context = 6)
{
    Config c;
    c.kind = kind;
    c.d_in = d_in;
    c.d_out = d_out;
    c.context_length = context;
    c.num_heads = heads;
    c.qkv_bias = bias;
    return c;
}

SafetensorsFile golden(const char* name)
{
    return read_safetensors(std::string(ATTNLAB_GOLDEN_DIR "/") + name + ".safetensors");
}

QStringList names_of(const Config& config)
{
    QStringList names;
    for (const ParameterSpec& spec : parameter_specs(config))
        names << QString::fromStdString(spec.name);
    return names;
}

const auto MHA = ModuleKind::MultiHeadAttention;
const auto Wrapper = ModuleKind::MultiHeadAttentionWrapper;

} // namespace

class TestWeights : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parameter_count_data();
    void parameter_count();
    void registration_order_and_shapes();
    void specs_refuse_empty_shapes();
    void init_is_seeded_and_bounded();
    void torch_layout_from_golden_data();
    void torch_layout_from_golden();
    void gpt2_layout_splits_and_transposes();
    void gpt2_layout_accepts_transformer_prefix();
    void load_errors_name_the_problem_data();
    void load_errors_name_the_problem();
    void layout_names();
    void book_input_matches_golden();
    void random_input_shapes();
};

void TestWeights::parameter_count_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<qint64>("count");
    QTest::newRow("gpt2-small") << make(MHA, 768, 768, 12, false, 1024) << qint64(2'360'064);
    QTest::newRow("gpt2-small-bias") << make(MHA, 768, 768, 12, true, 1024) << qint64(2'360'064 + 3 * 768);
    QTest::newRow("wrapper-768") << make(Wrapper, 768, 768, 12, false, 1024) << qint64(21'233'664);
    QTest::newRow("wrapper-64") << make(Wrapper, 768, 64, 12, false, 1024) << qint64(1'769'472);
    QTest::newRow("book-toy") << make(MHA, 3, 2, 2) << qint64(3 * 6 + 4 + 2);
    QTest::newRow("rect-bias") << make(MHA, 10, 12, 3, true) << qint64(3 * (120 + 12) + 144 + 12);
    QTest::newRow("causal-odd-bias") << make(ModuleKind::CausalAttention, 7, 5, 1, true) << qint64(3 * (35 + 5));
    QTest::newRow("v2") << make(ModuleKind::SelfAttentionV2, 3, 2) << qint64(18);
    QTest::newRow("v1-ignores-bias") << make(ModuleKind::SelfAttentionV1, 3, 2, 1, true) << qint64(18);
    QTest::newRow("wrapper-odd-bias") << make(Wrapper, 5, 3, 3, true) << qint64(3 * 3 * (15 + 3));
}

void TestWeights::parameter_count()
{
    QFETCH(Config, config);
    QFETCH(qint64, count);
    QCOMPARE(qint64(attnlab::parameter_count(config)), count);
}

void TestWeights::registration_order_and_shapes()
{
    QCOMPARE(names_of(make(MHA, 4, 6, 2, true)),
             (QStringList{"W_query.weight", "W_query.bias", "W_key.weight", "W_key.bias", "W_value.weight",
                          "W_value.bias", "out_proj.weight", "out_proj.bias"}));
    QCOMPARE(names_of(make(Wrapper, 3, 2, 2)),
             (QStringList{"heads.0.W_query.weight", "heads.0.W_key.weight", "heads.0.W_value.weight",
                          "heads.1.W_query.weight", "heads.1.W_key.weight", "heads.1.W_value.weight"}));
    QCOMPARE(names_of(make(ModuleKind::CausalAttention, 3, 2)),
             (QStringList{"W_query.weight", "W_key.weight", "W_value.weight"}));

    const std::vector<ParameterSpec> mha = parameter_specs(make(MHA, 4, 6, 2, true));
    QCOMPARE(mha[0].shape, (Shape{6, 4}));
    QCOMPARE(mha[0].fan_in, 4);
    QCOMPARE(mha[1].shape, (Shape{6}));
    QCOMPARE(mha[1].fan_in, 4); // biases share nn.Linear's bound
    QCOMPARE(mha[6].shape, (Shape{6, 6}));
    QCOMPARE(mha[6].fan_in, 6);
    QCOMPARE(mha[0].axis_slots, (std::vector<std::string>{"d_out", "d_in"}));

    const std::vector<ParameterSpec> v1 = parameter_specs(make(ModuleKind::SelfAttentionV1, 3, 2));
    QCOMPARE(v1.size(), std::size_t(3));
    QCOMPARE(v1[1].name, std::string("W_key"));
    QCOMPARE(v1[1].shape, (Shape{3, 2})); // (d_in, d_out), used as x @ W
}

void TestWeights::specs_refuse_empty_shapes()
{
    QVERIFY(error_of([] { parameter_specs(make(MHA, 3, 0, 1)); }).contains("d_out=0"));
    QVERIFY(error_of([] { parameter_specs(make(Wrapper, 3, 2, 0)); }).contains("num_heads=0"));
}

void TestWeights::init_is_seeded_and_bounded()
{
    const Config config = make(MHA, 10, 12, 3, true);
    const StateDict a = init_weights(config, 42), b = init_weights(config, 42), c = init_weights(config, 43);
    QCOMPARE(int(a.size()), 8);
    QCOMPARE(a.at("W_key.weight").to_vector(), b.at("W_key.weight").to_vector());
    QVERIFY(a.at("W_key.weight").to_vector() != c.at("W_key.weight").to_vector());

    // torch.manual_seed(42), then creation order: W_query.weight takes the first draws, its bias the next.
    TorchGenerator gen(42);
    std::vector<float> first(10 * 12 + 12);
    kaiming_uniform_linear(first.data(), 120, 10, gen);
    linear_bias_uniform(first.data() + 120, 12, 10, gen);
    QCOMPARE(a.at("W_query.weight").to_vector(), std::vector<float>(first.begin(), first.begin() + 120));
    QCOMPARE(a.at("W_query.bias").to_vector(), std::vector<float>(first.begin() + 120, first.end()));

    for (const ParameterSpec& spec : parameter_specs(config)) {
        const Tensor& t = a.at(spec.name);
        QCOMPARE(t.shape(), spec.shape);
        const float limit = 1.0f / std::sqrt(float(spec.fan_in));
        float largest = 0.0f;
        for (float v : t.to_vector()) {
            QVERIFY2(v >= -limit && v < limit, spec.name.c_str());
            largest = std::max(largest, std::fabs(v));
        }
        QVERIFY2(largest > 0.5f * limit, spec.name.c_str()); // spread over the range, not squeezed near zero
    }
    for (const auto& [name, t] : init_weights(make(ModuleKind::SelfAttentionV1, 3, 2), 1))
        for (float v : t.to_vector())
            QVERIFY(v >= 0.0f && v < 1.0f);
}

void TestWeights::torch_layout_from_golden_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<Config>("config");
    QTest::newRow("book_toy") << "book_toy" << make(MHA, 3, 2, 2);
    QTest::newRow("bias_rect") << "bias_rect" << make(MHA, 10, 12, 3, true, 16);
    QTest::newRow("book_wrapper_d2") << "book_wrapper_d2" << make(Wrapper, 3, 2, 2);
    QTest::newRow("book_self_attention_v1") << "book_self_attention_v1" << make(ModuleKind::SelfAttentionV1, 3, 2);
    QTest::newRow("book_causal") << "book_causal" << make(ModuleKind::CausalAttention, 3, 2);
    QTest::newRow("f16_weights") << "f16_weights" << make(MHA, 6, 4, 2, false, 8);
}

void TestWeights::torch_layout_from_golden()
{
    QFETCH(QString, file);
    QFETCH(Config, config);
    const SafetensorsFile f = golden(qPrintable(file));
    const StateDict weights = state_dict_from_file(f, config, WeightLayout::Torch);
    QCOMPARE(int(weights.size()), int(parameter_specs(config).size()));
    for (const ParameterSpec& spec : parameter_specs(config)) {
        const Tensor& t = weights.at(spec.name);
        QVERIFY(t.is_contiguous());
        QVERIFY(!t.shares_storage_with(*f.find(spec.name)));
        QCOMPARE(t.to_vector(), f.find(spec.name)->to_vector());
    }
}

void TestWeights::gpt2_layout_splits_and_transposes()
{
    const SafetensorsFile f = golden("gpt2_layout_tiny");
    const StateDict w = state_dict_from_file(f, make(MHA, 16, 16, 4, true), WeightLayout::Gpt2Hf, 0);
    QCOMPARE(int(w.size()), 8);
    const Tensor& c_attn = *f.find("h.0.attn.c_attn.weight"); // (16, 48): q | k | v along the last axis
    const Tensor& c_bias = *f.find("h.0.attn.c_attn.bias");
    const char* parts[] = {"W_query", "W_key", "W_value"};
    for (std::int64_t p = 0; p < 3; ++p) {
        const Tensor& weight = w.at(std::string(parts[p]) + ".weight");
        QCOMPARE(weight.shape(), (Shape{16, 16}));
        QVERIFY(weight.is_contiguous());
        for (std::int64_t o = 0; o < 16; ++o) {
            QCOMPARE(w.at(std::string(parts[p]) + ".bias").at({o}), c_bias.at({p * 16 + o}));
            for (std::int64_t i = 0; i < 16; ++i)
                QCOMPARE(weight.at({o, i}), c_attn.at({i, p * 16 + o}));
        }
    }
    QCOMPARE(w.at("out_proj.weight").to_vector(), f.find("h.0.attn.c_proj.weight")->transpose(0, 1).to_vector());
    QVERIFY(w.at("out_proj.weight").is_contiguous());
    QCOMPARE(w.at("out_proj.bias").to_vector(), f.find("h.0.attn.c_proj.bias")->to_vector());
    QVERIFY(w.at("W_query.weight").at({0, 1}) != w.at("W_query.weight").at({1, 0})); // a transpose is visible
}

void TestWeights::gpt2_layout_accepts_transformer_prefix()
{
    const SafetensorsFile f = golden("gpt2_layout_tiny");
    std::vector<std::pair<std::string, Tensor>> renamed;
    for (const auto& [name, t] : f.tensors)
        if (name.starts_with("h."))
            renamed.emplace_back("transformer." + name.substr(0, 2) + "2" + name.substr(3), t);
    QTemporaryDir dir;
    const std::string path = dir.filePath("prefixed.safetensors").toStdString();
    write_safetensors(path, renamed, {});
    const SafetensorsFile g = read_safetensors(path);
    const Config config = make(MHA, 16, 16, 4, true);
    const StateDict direct = state_dict_from_file(f, config, WeightLayout::Gpt2Hf, 0);
    const StateDict prefixed = state_dict_from_file(g, config, WeightLayout::Gpt2Hf, 2);
    for (const auto& [name, t] : direct)
        QCOMPARE(prefixed.at(name).to_vector(), t.to_vector());
    const QString error = error_of([&] { state_dict_from_file(g, config, WeightLayout::Gpt2Hf, 0); });
    QVERIFY2(error.contains("has no layer 0; it holds layer 2"), qPrintable(error));
}

void TestWeights::load_errors_name_the_problem_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<Config>("config");
    QTest::addColumn<bool>("gpt2");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing-bias") << "book_toy" << make(MHA, 3, 2, 2, true) << false
                                  << "has no tensor 'W_query.bias', which MultiHeadAttention with qkv_bias=True needs; "
                                     "its parameter tensors are W_query.weight, W_key.weight";
    QTest::newRow("wrong-d_in") << "book_toy" << make(MHA, 4, 2, 2) << false
                                << "holds 'W_query.weight' with shape (2, 3), but the call needs (2, 4) from "
                                   "d_out=2, d_in=4";
    QTest::newRow("wrapper-file-for-mha")
        << "book_wrapper_d2" << make(MHA, 3, 2, 2) << false << "has no tensor 'W_query.weight'";
    QTest::newRow("unexpected-bias") << "bias_rect" << make(MHA, 10, 12, 3, false, 16) << false
                                     << "has W_query.bias but the call has qkv_bias=False";
    QTest::newRow("v1-wants-plain-names") << "book_toy" << make(ModuleKind::SelfAttentionV1, 3, 2) << false
                                          << "has no tensor 'W_query', which SelfAttention_v1 needs";
    QTest::newRow("torch-on-gpt2") << "gpt2_layout_tiny" << make(MHA, 16, 16, 4, true) << false
                                   << "load it with the gpt2-hf layout";
    QTest::newRow("gpt2-without-bias") << "gpt2_layout_tiny" << make(MHA, 16, 16, 4, false) << true
                                       << "so the call needs qkv_bias=True";
    QTest::newRow("gpt2-wrong-width") << "gpt2_layout_tiny" << make(MHA, 16, 8, 4, true) << true
                                      << "with shape (16, 48), but the call needs (16, 24) from d_in=16, 3*d_out=24";
    QTest::newRow("gpt2-on-wrapper") << "gpt2_layout_tiny" << make(Wrapper, 16, 16, 4, true) << true
                                     << "only MultiHeadAttention has";
    QTest::newRow("gpt2-on-state-dict") << "book_toy" << make(MHA, 3, 2, 2, true) << true
                                        << "has no GPT-2 attention tensors";
}

void TestWeights::load_errors_name_the_problem()
{
    QFETCH(QString, file);
    QFETCH(Config, config);
    QFETCH(bool, gpt2);
    QFETCH(QString, message);
    const SafetensorsFile f = golden(qPrintable(file));
    const QString error =
        error_of([&] { state_dict_from_file(f, config, gpt2 ? WeightLayout::Gpt2Hf : WeightLayout::Torch); });
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestWeights::layout_names()
{
    for (WeightLayout layout : {WeightLayout::Torch, WeightLayout::Gpt2Hf})
        QCOMPARE(layout_from_name(layout_name(layout)), layout);
    QCOMPARE(layout_name(WeightLayout::Gpt2Hf), std::string("gpt2-hf"));
    const QString error = error_of([] { layout_from_name("gpt2"); });
    QVERIFY2(error.contains("'gpt2'") && error.contains("'torch'") && error.contains("'gpt2-hf'"), qPrintable(error));
}

void TestWeights::book_input_matches_golden()
{
    const Tensor batched = book_input(make(MHA, 3, 2, 2), 2);
    QCOMPARE(batched.shape(), (Shape{2, 6, 3}));
    QCOMPARE(batched.to_vector(), golden("book_toy").find("x")->to_vector()); // exactly, not approximately
    const Tensor single = book_input(make(ModuleKind::SelfAttentionV1, 3, 2), 2);
    QCOMPARE(single.shape(), (Shape{6, 3}));
    QCOMPARE(single.to_vector(), golden("book_self_attention_v1").find("x")->to_vector());
    QCOMPARE(book_tokens(), (std::vector<std::string>{"Your", "journey", "starts", "with", "one", "step"}));
    QVERIFY(error_of([] { book_input(make(MHA, 4, 2, 2), 1); }).contains("needs d_in=3"));
}

void TestWeights::random_input_shapes()
{
    const Tensor x = random_input(make(MHA, 5, 4, 2), 2, 7, 9);
    QCOMPARE(x.shape(), (Shape{2, 7, 5}));
    QCOMPARE(x.to_vector(), random_input(make(MHA, 5, 4, 2), 2, 7, 9).to_vector());
    QVERIFY(x.to_vector() != random_input(make(MHA, 5, 4, 2), 2, 7, 10).to_vector());
    for (float v : x.to_vector())
        QVERIFY(v >= 0.0f && v < 1.0f);
    QCOMPARE(random_input(make(ModuleKind::SelfAttentionV2, 5, 4), 2, 7, 9).shape(), (Shape{7, 5}));
    QVERIFY(!error_of([] { random_input(make(MHA, 5, 4, 2), 0, 7, 9); }).isEmpty());
}

QTEST_GUILESS_MAIN(TestWeights)
#include "test_weights.moc"
