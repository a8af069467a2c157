// Weights that hold NaN or infinity are refused by every reader of weights -- a GPT-2 checkpoint, a model trained
// here, a --weights file -- with one sentence naming the tensor, how many of its values, and how many other tensors
// have some, and exit 1: never a run that prints p=nan as if it were a result. A recording is not a weights file and
// is not checked (its masked scores are -inf by design).
#include "common/cli_runner.h"
#include "io/safetensors.h"

#include <QtTest>

#include <cmath>
#include <limits>

using attnlab::Tensor;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// A GPT-2 checkpoint of one layer at n_embd 8 over GPT-2's vocabulary, every weight 0.01.
std::vector<std::pair<std::string, Tensor>> tinyGpt2()
{
    const std::int64_t d = 8;
    const auto filled = [](attnlab::Shape shape) {
        Tensor t = Tensor::zeros(shape);
        for (std::int64_t i = 0; i < t.numel(); ++i)
            t.data()[i] = 0.01f;
        return t;
    };
    std::vector<std::pair<std::string, Tensor>> t = {{"wte.weight", filled({50257, d})},
                                                     {"wpe.weight", filled({16, d})}};
    for (const char* name :
         {"ln_1.weight", "ln_1.bias", "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", "mlp.c_proj.bias"})
        t.emplace_back(std::string("h.0.") + name, filled({d}));
    t.emplace_back("h.0.attn.c_attn.weight", filled({d, 3 * d}));
    t.emplace_back("h.0.attn.c_attn.bias", filled({3 * d}));
    t.emplace_back("h.0.attn.c_proj.weight", filled({d, d}));
    t.emplace_back("h.0.mlp.c_fc.weight", filled({d, 4 * d}));
    t.emplace_back("h.0.mlp.c_fc.bias", filled({4 * d}));
    t.emplace_back("h.0.mlp.c_proj.weight", filled({4 * d, d}));
    t.emplace_back("ln_f.weight", filled({d}));
    t.emplace_back("ln_f.bias", filled({d}));
    return t;
}

Tensor& named(std::vector<std::pair<std::string, Tensor>>& tensors, const std::string& name)
{
    for (auto& [n, t] : tensors)
        if (n == name)
            return t;
    throw std::runtime_error("no tensor " + name);
}

void writeGpt2(const QString& folder, const std::vector<std::pair<std::string, Tensor>>& tensors)
{
    attnlab::write_safetensors(folder.toStdString() + "/model.safetensors", tensors, {});
    QFile config(folder + "/config.json");
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write("{\"n_head\": 2}");
}

} // namespace

class TestCliNonFinite : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gpt2CheckpointRefused();
    void trainedModelRefused();
    void weightsFileRefused();
};

void TestCliNonFinite::gpt2CheckpointRefused()
{
    QTemporaryDir dir;
    auto tensors = tinyGpt2();
    writeGpt2(dir.path(), tensors);
    const Result good = cli({"run", "--model", dir.path(), "--ids", "1,2", "--top"});
    QVERIFY2(good.code == 0 && !good.out.contains("nan"), qPrintable(good.out + good.err)); // the file itself reads

    Tensor& c_attn = named(tensors, "h.0.attn.c_attn.weight");
    for (std::int64_t i = 0; i < c_attn.numel(); ++i)
        c_attn.data()[i] = kNaN;
    named(tensors, "ln_f.bias").data()[3] = -kInf;
    writeGpt2(dir.path(), tensors);
    for (const QStringList& args : {QStringList{"run", "--model", dir.path(), "--ids", "1,2", "--top"},
                                    QStringList{"run", "--model", dir.path(), "--text", "Hello", "--top"}}) {
        const Result r = cli(args);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("holds values that are not finite numbers: h.0.attn.c_attn.weight has 192 NaN of 192 "
                                "values (and 1 more tensor has some), so it was not opened"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.out.isEmpty());
    }
}

void TestCliNonFinite::trainedModelRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("model.safetensors");
    QCOMPARE(cli({"train", "--task", "induction", "--emb", "8", "--layers", "1", "--context", "12", "--batch", "4",
                  "--steps", "5", "--heads", "2", "--save", path})
                 .code,
             0);
    attnlab::SafetensorsFile saved = attnlab::read_safetensors(path.toStdString());
    QVERIFY(cli({"run", "--model", path, "--dump", dir.filePath("ok.safetensors")}).code == 0);
    named(saved.tensors, "trf_blocks.0.att.W_key.weight").data()[5] = kInf;
    attnlab::write_safetensors(path.toStdString(), saved.tensors, saved.metadata);
    const QString dump = dir.filePath("never.safetensors");
    const Result r = cli({"run", "--model", path, "--dump", dump});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("model.safetensors holds values that are not finite numbers: "
                            "trf_blocks.0.att.W_key.weight has 1 infinite of 64 values, so it was not opened"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(dump));
}

void TestCliNonFinite::weightsFileRefused()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("weights.safetensors");
    Tensor q = Tensor::zeros({2, 3}), k = Tensor::zeros({2, 3}), v = Tensor::zeros({2, 3}), o = Tensor::zeros({2, 2}),
           ob = Tensor::zeros({2});
    q.data()[0] = kNaN;
    q.data()[1] = kInf;
    attnlab::write_safetensors(path.toStdString(),
                               {{"W_query.weight", q},
                                {"W_key.weight", k},
                                {"W_value.weight", v},
                                {"out_proj.weight", o},
                                {"out_proj.bias", ob}},
                               {});
    const QString dump = dir.filePath("never.safetensors");
    const Result r = cli({"run", "--call", "MultiHeadAttention(3, 2, 6, 0.0, 2)", "--weights", path, "--dump", dump});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("holds values that are not finite numbers: W_query.weight has 1 NaN and 1 infinite of 6 "
                            "values, so it was not opened"),
             qPrintable(r.err));
    QVERIFY(!QFile::exists(dump));
}

QTEST_GUILESS_MAIN(TestCliNonFinite)
#include "test_cli_nonfinite.moc"
