// "Load your own": what a weights file says about its module, read from names and shapes
// alone. Each row writes a file with the core's own safetensors writer, inspects it, and either
// compares the one-line description or the one-sentence refusal; every file the inspection accepts
// must then load with the config it inferred, so inspecting and loading never disagree.
#include "tensor/error.h"
#include "io/weights_inspect.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

namespace {

using Names = std::vector<std::pair<std::string, Shape>>;

Names torch_mha(bool bias, Shape key = {4, 3})
{
    Names n{{"W_query.weight", {4, 3}}, {"W_key.weight", key}, {"W_value.weight", {4, 3}}};
    if (bias)
        n.insert(n.end(), {{"W_query.bias", {4}}, {"W_key.bias", {4}}, {"W_value.bias", {4}}, {"mask", {6, 6}}});
    n.insert(n.end(), {{"out_proj.weight", {4, 4}}, {"out_proj.bias", {4}}});
    return n;
}

Names gpt2(const std::string& prefix, std::vector<int> layers, std::int64_t d = 8)
{
    Names n;
    for (int l : layers) {
        const std::string at = prefix + "h." + std::to_string(l) + ".attn.";
        n.insert(n.end(), {{at + "c_attn.weight", {d, 3 * d}},
                           {at + "c_attn.bias", {3 * d}},
                           {at + "c_proj.weight", {d, d}},
                           {at + "c_proj.bias", {d}}});
    }
    return n;
}

} // namespace

Q_DECLARE_METATYPE(Names)

class TestWeightsInspect : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void infersTheModuleOrSaysWhyNot_data()
    {
        QTest::addColumn<Names>("names");
        QTest::addColumn<QString>("described"); // empty: refused
        QTest::addColumn<QString>("refusal");   // a part of the sentence
        Names gpt2_three = gpt2("", {0, 1, 2});
        gpt2_three.push_back({"h.0.attn.bias", {1, 1, 16, 16}}); // GPT-2's causal-mask buffer
        Names prefixed = gpt2("transformer.", {0});
        prefixed.push_back({"transformer.wpe.weight", {32, 8}});
        Names bad_layer = gpt2("", {0, 1});
        bad_layer[4].second = {8, 30};
        Names partial_bias = torch_mha(false);
        partial_bias.push_back({"W_key.bias", {4}});
        Names bad_out = torch_mha(false);
        bad_out[3].second = {4, 5};
        const Names wrapper{{"heads.0.W_query.weight", {2, 3}}, {"heads.0.W_key.weight", {2, 3}},
                            {"heads.0.W_value.weight", {2, 3}}, {"heads.1.W_query.weight", {2, 3}},
                            {"heads.1.W_key.weight", {2, 3}},   {"heads.1.W_value.weight", {2, 3}}};

        QTest::newRow("torch MHA, no bias")
            << torch_mha(false) << "torch, MultiHeadAttention, d_in=3, d_out=4, qkv_bias=False"
            << "";
        QTest::newRow("torch MHA, bias and mask")
            << torch_mha(true) << "torch, MultiHeadAttention, d_in=3, d_out=4, qkv_bias=True, context_length=6"
            << "";
        QTest::newRow("gpt2-hf, 3 layers")
            << gpt2_three
            << "gpt2-hf, MultiHeadAttention, d_in=8, d_out=8, qkv_bias=True, layers 0-2, context_length=16"
            << "";
        QTest::newRow("gpt2-hf, transformer.-prefixed")
            << prefixed << "gpt2-hf, MultiHeadAttention, d_in=8, d_out=8, qkv_bias=True, layer 0, context_length=32"
            << "";
        QTest::newRow("gpt2-hf, layers with a gap")
            << gpt2("", {1, 3}) << "gpt2-hf, MultiHeadAttention, d_in=8, d_out=8, qkv_bias=True, layers 1, 3"
            << "";
        QTest::newRow("causal or v2") << Names{{"W_query.weight", {2, 3}},
                                               {"W_key.weight", {2, 3}},
                                               {"W_value.weight", {2, 3}},
                                               {"x", {2, 6, 3}}}
                                      << "torch, CausalAttention or SelfAttention_v2, d_in=3, d_out=2, qkv_bias=False"
                                      << "";
        QTest::newRow("SelfAttention_v1") << Names{{"W_query", {3, 2}}, {"W_key", {3, 2}}, {"W_value", {3, 2}}}
                                          << "torch, SelfAttention_v1, d_in=3, d_out=2"
                                          << "";
        QTest::newRow("wrapper") << wrapper
                                 << "torch, MultiHeadAttentionWrapper, d_in=3, d_out=2, qkv_bias=False, num_heads=2"
                                 << "";
        QTest::newRow("unknown names") << Names{{"encoder.weight", {4, 4}}, {"decoder.bias", {4}}} << ""
                                       << "holds encoder.weight, decoder.bias, which fits no layout";
        QTest::newRow("inconsistent shapes")
            << torch_mha(false, {4, 5}) << ""
            << "holds W_key.weight with shape (4, 5), but W_query.weight (4, 3) says d_out=4, d_in=3, so it must "
               "be (4, 3).";
        QTest::newRow("missing projection") << Names{{"W_query.weight", {4, 3}}, {"W_value.weight", {4, 3}}} << ""
                                            << "lacks W_key.weight, which must be there with shape (4, 3)";
        QTest::newRow("one bias only") << partial_bias << ""
                                       << "has W_key.bias while W_query has none";
        QTest::newRow("out_proj the wrong size") << bad_out << ""
                                                 << "out_proj.weight with shape (4, 5)";
        QTest::newRow("gpt2 layers disagree") << bad_layer << ""
                                              << "h.1.attn.c_attn.weight with shape (8, 30)";
        QTest::newRow("gpt2 not fused in three") << Names{{"h.0.attn.c_attn.weight", {8, 25}}} << ""
                                                 << "one (d_in, 3*d_out) matrix";
        QTest::newRow("wrapper with a gap") << Names{wrapper.begin() + 3, wrapper.end()} << ""
                                            << "has no heads.0 but has heads.1";
        QTest::newRow("empty file") << Names{} << ""
                                    << "holds no weight tensors, which fits no layout";
        QTest::newRow("only an input") << Names{{"x", {1, 6, 3}}} << ""
                                       << "holds no weight tensors";
    }

    void infersTheModuleOrSaysWhyNot()
    {
        QFETCH(Names, names);
        QFETCH(QString, described);
        QFETCH(QString, refusal);
        const std::string path = dir_.filePath("weights.safetensors").toStdString();
        std::vector<std::pair<std::string, Tensor>> tensors;
        for (const auto& [name, shape] : names)
            tensors.emplace_back(name, Tensor::zeros(shape));
        write_safetensors(path, tensors, {});
        const SafetensorsFile file = read_safetensors(path);
        try {
            const WeightsInfo info = inspect_weights(file);
            QVERIFY2(refusal.isEmpty(), "accepted a file it should refuse");
            QCOMPARE(QString::fromStdString(describe_weights(info)), described);
            Config config;
            config.kind = info.kinds.front();
            config.d_in = info.d_in;
            config.d_out = info.d_out;
            config.qkv_bias = info.qkv_bias;
            config.num_heads = info.num_heads > 0 ? info.num_heads : suggested_num_heads(info.d_out, 0);
            const int layer = info.layers.empty() ? 0 : info.layers.back();
            QCOMPARE(state_dict_from_file(file, config, info.layout, layer).size(), parameter_specs(config).size());
        } catch (const Error& e) {
            const QString sentence = QString::fromStdString(e.what());
            QVERIFY2(!refusal.isEmpty(), qPrintable(sentence));
            QVERIFY2(sentence.contains(refusal), qPrintable(sentence));
            QVERIFY2(sentence.startsWith("'" + QString::fromStdString(path) + "'"), qPrintable(sentence));
            QVERIFY(sentence.endsWith('.') && !sentence.contains('\n'));
        }
    }

    void suggestsAHeadCountThatDividesDOut_data()
    {
        QTest::addColumn<qint64>("d_out");
        QTest::addColumn<qint64>("current");
        QTest::addColumn<qint64>("suggested");
        QTest::newRow("current divides") << qint64(768) << qint64(8) << qint64(8);
        QTest::newRow("GPT-2 small") << qint64(768) << qint64(5) << qint64(12);
        QTest::newRow("head_dim 64, GPT-2 medium") << qint64(1024) << qint64(0) << qint64(16);
        QTest::newRow("narrow: one head") << qint64(48) << qint64(5) << qint64(1);
        QTest::newRow("the book's d_out=2") << qint64(2) << qint64(2) << qint64(2);
    }

    void suggestsAHeadCountThatDividesDOut()
    {
        QFETCH(qint64, d_out);
        QFETCH(qint64, current);
        QFETCH(qint64, suggested);
        QCOMPARE(suggested_num_heads(d_out, current), suggested);
    }

    void theGoldenGpt2FileIsRecognised()
    {
        const WeightsInfo info = inspect_weights(read_safetensors(ATTNLAB_GOLDEN_DIR "/gpt2_layout_tiny.safetensors"));
        QCOMPARE(QString::fromStdString(describe_weights(info)),
                 QStringLiteral("gpt2-hf, MultiHeadAttention, d_in=16, d_out=16, qkv_bias=True, layer 0"));
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestWeightsInspect)
#include "test_weights_inspect.moc"
