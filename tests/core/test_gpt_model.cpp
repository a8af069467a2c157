// The C++ GPT forward against PyTorch (tests/reference/make_gpt_reference.py): the 4-head model's
// layer input x, every attention stage of layers 0 and 1 (run by the engine), and the logits, to
// 1e-4; a layer's input is the whole forward's to the bit; the head measures against
// resources/training/head_measures.py; bad files refused.
#include "common/errors.h"
#include "common/golden_compare.h"
#include "forward/trace.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_input.h"
#include "gpt/gpt_model.h"
#include "gpt/gpt_text.h"
#include "gpt/head_measures.h"
#include "io/safetensors.h"
#include "text/gpt2_tokenizer_files.h"
#include "text/tokenizer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <functional>
#include <memory>

using namespace attnlab;

namespace {

const testing::Tolerance kTol{1e-4, 1e-4};

std::string model_path(const std::string& name)
{
    return ATTNLAB_MODELS_DIR "/" + name + ".safetensors";
}

std::vector<std::int64_t> ids_of(const SafetensorsFile& f)
{
    std::vector<std::int64_t> ids;
    for (float v : f.find("token_ids")->to_vector())
        ids.push_back(static_cast<std::int64_t>(v));
    return ids;
}

} // namespace

class TestGptModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void loads_every_variant();
    void matches_pytorch_data();
    void matches_pytorch();
    void logits_match_pytorch();
    void layer_input_is_the_whole_forward();
    void head_measures_match_python_data();
    void head_measures_match_python();
    void refuses_bad_input();
    void trained_calls_fit_their_weights_data();
    void trained_calls_fit_their_weights();
    void refuses_metadata_no_trainer_writes_data();
    void refuses_metadata_no_trainer_writes();
    void example_text_fits_the_context_data();
    void example_text_fits_the_context();
};

void TestGptModel::loads_every_variant()
{
    for (int heads : {1, 2, 4, 8}) {
        const GptModel m = load_gpt_model(model_path("verdict-gpt-h" + std::to_string(heads)));
        QCOMPARE(m.settings.n_heads, heads);
        QCOMPARE(m.settings.emb_dim, 128);
        QCOMPARE(m.settings.vocab_size, verdict_tokenizer().vocab_size());
        QVERIFY(m.meta_number("val_loss_mean") > 4.0);
        QCOMPARE(gpt_attention_config(m).head_dim(), 128 / heads);
    }
}

void TestGptModel::matches_pytorch_data()
{
    QTest::addColumn<int>("layer");
    QTest::newRow("h4-layer0") << 0;
    QTest::newRow("h4-layer1") << 1;
}

void TestGptModel::matches_pytorch()
{
    QFETCH(int, layer);
    const SafetensorsFile ref =
        read_safetensors(ATTNLAB_TEST_DATA_DIR "/gpt/verdict-h4-layer" + std::to_string(layer) + ".safetensors");
    const GptModel model = load_gpt_model(model_path("verdict-gpt-h4"));
    const std::vector<std::int64_t> ids = verdict_tokenizer().encode(ref.meta("text"));
    QCOMPARE(ids, ids_of(ref));
    const GptLayerInput in = gpt_layer_input(model, ids, layer);
    const std::string dx = testing::compare_tensors(in.x, *ref.find("x"), kTol);
    QVERIFY2(dx.empty(), ("x: " + dx).c_str());
    const Trace trace = trace_forward(in.config, in.weights, in.x);
    int compared = 0;
    for (const auto& [name, expected] : ref.tensors) {
        if (name.rfind("expected.", 0) != 0 || name == "expected.logits")
            continue;
        const Stage* s = trace.find(name.substr(9));
        QVERIFY2(s, name.c_str());
        const std::string diff = testing::compare_tensors(s->tensor, expected, kTol);
        QVERIFY2(diff.empty(), (name + ": " + diff).c_str());
        ++compared;
    }
    QCOMPARE(compared, 16); // every canonical stage of MultiHeadAttention after x
}

void TestGptModel::logits_match_pytorch()
{
    const SafetensorsFile ref = read_safetensors(ATTNLAB_TEST_DATA_DIR "/gpt/verdict-h4-layer0.safetensors");
    const Tensor logits =
        gpt_forward(load_gpt_model(model_path("verdict-gpt-h4")), kBookLayerNormEps, ids_of(ref), {.all_logits = true})
            .logits;
    const std::string diff = testing::compare_tensors(logits, *ref.find("expected.logits"), kTol);
    QVERIFY2(diff.empty(), diff.c_str());
}

// The Text input's x for a layer and the overview's run of the whole model are one forward: the same bits.
// On one token, where the attention's softmax is exactly 1: on longer texts the engine's softmax sums
// (attention_kernels.cpp) start their vector lanes at the first aligned element, so their last bit depends on
// where a buffer happens to sit, in one forward as in two.
void TestGptModel::layer_input_is_the_whole_forward()
{
    const GptModel model = load_gpt_model(model_path("verdict-gpt-h4"));
    for (std::int64_t id = 0; id < 8; ++id) {
        const GptForward whole = gpt_forward(model, kBookLayerNormEps, {id});
        QCOMPARE(static_cast<std::int64_t>(whole.layers.size()), model.settings.n_layers);
        for (int layer = 0; layer < model.settings.n_layers; ++layer) {
            const Tensor x = gpt_layer_input(model, {id}, layer).x;
            const Tensor& kept = whole.layers[static_cast<std::size_t>(layer)].x;
            QCOMPARE(x.shape(), kept.shape());
            QVERIFY2(std::memcmp(x.data(), kept.data(), static_cast<std::size_t>(x.numel()) * sizeof(float)) == 0,
                     qPrintable(QString("token %1, layer %2: x differs from the whole forward's").arg(id).arg(layer)));
        }
    }
    // A Verdict model's limit goes by the name its file gives it (a GPT-2 checkpoint's is n_positions).
    const QString e =
        testing::error_of([&] { gpt_forward(model, kBookLayerNormEps, std::vector<std::int64_t>(65, 3)); });
    QVERIFY2(e.contains("at most 64 (its context_length)"), qPrintable(e));
}

void TestGptModel::head_measures_match_python_data()
{
    QTest::addColumn<QString>("variant");
    for (const char* v : {"h1", "h2", "h4", "h8"})
        QTest::newRow(v) << QString(v);
}

void TestGptModel::head_measures_match_python()
{
    QFETCH(QString, variant);
    QFile file(ATTNLAB_TEST_DATA_DIR "/gpt/head_measures.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject ref = QJsonDocument::fromJson(file.readAll()).object();
    const GptModel model = load_gpt_model(model_path("verdict-gpt-" + variant.toStdString()));
    const std::vector<std::int64_t> ids = verdict_tokenizer().encode(ref["text"].toString().toStdString());
    std::vector<std::vector<HeadMeasures>> per_layer;
    for (int layer = 0; layer < model.settings.n_layers; ++layer) {
        const GptLayerInput in = gpt_layer_input(model, ids, layer);
        per_layer.push_back(head_measures(trace_forward(in.config, in.weights, in.x).find("attn_weights")->tensor));
    }
    const QJsonArray rows = ref["models"].toObject()[variant].toArray();
    QCOMPARE(rows.size(), model.settings.n_layers * model.settings.n_heads);
    for (const auto& v : rows) {
        const QJsonObject r = v.toObject();
        const HeadMeasures& m = per_layer.at(r["layer"].toInt()).at(r["head"].toInt());
        QVERIFY(std::abs(m.distance - r["distance"].toDouble()) < 1e-3);
        QVERIFY(std::abs(m.entropy - r["entropy"].toDouble()) < 1e-4);
        QVERIFY(std::abs(m.previous - r["previous"].toDouble()) < 1e-5);
        QVERIFY(std::abs(m.first - r["first"].toDouble()) < 1e-5);
    }
}

// The call a trained model's blocks are (gpt_attention_config) takes that model's weights, whatever it was trained
// with: the book's MultiHeadAttention, key/value groups, or a window alone (GroupedQueryAttention with a key/value
// head per query head, which was judged "no longer the trained model" when the fit looked at the groups alone).
void TestGptModel::trained_calls_fit_their_weights_data()
{
    QTest::addColumn<int>("groups");
    QTest::addColumn<int>("window");
    QTest::addColumn<bool>("grouped_query");
    QTest::newRow("book") << 0 << 0 << false;
    QTest::newRow("key/value groups") << 2 << 0 << true;
    QTest::newRow("window alone") << 0 << 5 << true;
    QTest::newRow("groups and window") << 1 << 3 << true;
}

void TestGptModel::trained_calls_fit_their_weights()
{
    QFETCH(int, groups);
    QFETCH(int, window);
    QFETCH(bool, grouped_query);
    GptConfig m;
    m.n_heads = 4;
    m.n_kv_groups = groups;
    m.window = window;
    const Config c = gpt_attention_config(m);
    QCOMPARE(c.kind == ModuleKind::GroupedQueryAttention, grouped_query);
    QCOMPARE(c.window_size.value_or(0), static_cast<std::int64_t>(window));
    QVERIFY(trained_weights_fit(c, m));
    Config other = c; // another head count no longer fits
    other.num_heads = 2;
    QVERIFY(!trained_weights_fit(other, m));
}

void TestGptModel::refuses_bad_input()
{
    const GptModel model = load_gpt_model(model_path("verdict-gpt-h2"));
    QVERIFY(testing::error_of([&] { gpt_layer_input(model, {1, 2}, 2); }).contains("layers 0 to 1"));
    QVERIFY(testing::error_of([&] { gpt_layer_input(model, {}, 0); }).contains("no tokens"));
    QVERIFY(
        testing::error_of([&] { gpt_layer_input(model, std::vector<std::int64_t>(65, 3), 0); }).contains("at most 64"));
    QVERIFY(testing::error_of([&] { gpt_layer_input(model, {5000}, 0); }).contains("outside"));
    // A safetensors file that is not a trained GPT (a golden attention file) says so in one sentence.
    const QString e = testing::error_of([] { load_gpt_model(ATTNLAB_GOLDEN_DIR "/book_toy.safetensors"); });
    QVERIFY2(e.contains("not a trained GPT file"), qPrintable(e));
    QVERIFY(!testing::error_of([] { load_gpt_model("/nonexistent/verdict.safetensors"); }).isEmpty());
    QCOMPARE(uniform_measures(1).distance, 0.0);
}

// A trained model's metadata is checked when it is opened, as the book's GPTModel file (load_gpt_model) and as a
// checkpoint (plan_gpt2_checkpoint, the window's way): a task, tokenizer, drop_rate or qkv_bias no trainer writes
// was taken on trust.
void TestGptModel::refuses_metadata_no_trainer_writes_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("said");
    QTest::newRow("task-bogus") << "task"
                                << "bogus"
                                << "names its task 'bogus' in its metadata; a trained GPT file names previous-token";
    QTest::newRow("tokenizer-bogus") << "tokenizer"
                                     << "bogus"
                                     << "names its tokenizer 'bogus' in its metadata; a trained GPT file reads letters";
    QTest::newRow("task-read-in-words") << "tokenizer"
                                        << "book-ch2-simple"
                                        << "says task 'induction' with tokenizer 'book-ch2-simple'";
    QTest::newRow("drop-rate-nan") << "drop_rate"
                                   << "nan"
                                   << "gives drop_rate 'nan' in its metadata; a dropout rate is a number from 0";
    QTest::newRow("drop-rate-one") << "drop_rate"
                                   << "1"
                                   << "gives drop_rate '1'";
    QTest::newRow("drop-rate-text") << "drop_rate"
                                    << "0.1x"
                                    << "gives drop_rate '0.1x'";
    QTest::newRow("qkv-bias-maybe") << "qkv_bias"
                                    << "maybe"
                                    << "gives qkv_bias 'maybe' in its metadata; it is true or false.";
}

void TestGptModel::refuses_metadata_no_trainer_writes()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, said);
    const SafetensorsFile good = read_safetensors(model_path("induction-gpt-h4"));
    std::vector<std::pair<std::string, std::string>> metadata = good.metadata;
    for (auto& [k, v] : metadata)
        if (k == key.toStdString())
            v = value.toStdString();
    QTemporaryDir dir;
    const std::string path = dir.filePath("induction-bad.safetensors").toStdString();
    write_safetensors(path, good.tensors, metadata);
    QString e = testing::error_of([&] { load_gpt_model(path); });
    QVERIFY2(e.startsWith("induction-bad.safetensors ") && e.contains(said), qPrintable(e));
    e = testing::error_of([&] { plan_gpt2_checkpoint(path); });
    QVERIFY2(e.contains(said), qPrintable(e));
    write_safetensors(path, good.tensors, good.metadata); // the trainer's own values open
    QCOMPARE(load_gpt_model(path).meta(key.toStdString()), good.meta(key.toStdString()));
}

// The story's first sentence, a Verdict model's and a GPT-2 checkpoint's first text, is 57 of the book's tokens: a
// model trained with --context 56 or less (or a checkpoint of few positions) could not read it. It is cut at a space
// to what the model reads, whole where it fits.
void TestGptModel::example_text_fits_the_context_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("context");
    QTest::newRow("verdict-context-64") << "verdict-gpt-h4" << 64;
    QTest::newRow("verdict-context-57") << "verdict-gpt-h4" << 57;
    QTest::newRow("verdict-context-56") << "verdict-gpt-h4" << 56;
    QTest::newRow("verdict-context-8") << "verdict-gpt-h4" << 8;
    QTest::newRow("verdict-context-1") << "verdict-gpt-h4" << 1;
    QTest::newRow("gpt2-n_positions-16") << "hf-f32" << 16;
}

void TestGptModel::example_text_fits_the_context()
{
    QFETCH(QString, model);
    QFETCH(int, context);
    const std::string sentence = verdict_first_sentence();
    std::string text;
    std::function<std::size_t(const std::string&)> count;
    if (model == "hf-f32") {
        const std::string checkpoint = ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f32";
        const GptModel m = load_gpt2_checkpoint(plan_gpt2_checkpoint(checkpoint), std::uint64_t{1} << 31);
        QCOMPARE(m.settings.context_length, context);
        const auto tokenizer = std::make_shared<Gpt2Tokenizer>(gpt2_tokenizer_for(checkpoint, ""));
        text = example_text(m, tokenizer.get());
        count = [tokenizer](const std::string& t) { return tokenizer->encode(t, true).size(); };
    } else {
        GptModel m = load_gpt_model(model_path(model.toStdString()));
        m.settings.context_length = context;
        text = example_text(m);
        count = [](const std::string& t) { return verdict_tokenizer().tokenize(t).ids.size(); };
    }
    const auto most = static_cast<std::size_t>(context);
    QVERIFY(count(sentence) > 16 && count(sentence) < 64); // 57 of the book's tokens
    QVERIFY2(count(text) >= 1 && count(text) <= most, text.c_str());
    QVERIFY2(sentence.starts_with(text), text.c_str());
    if (count(sentence) <= most) {
        QCOMPARE(text, sentence);
    } else { // cut at a space, the longest start that fits: one word more would not
        QVERIFY2(sentence[text.size()] == ' ', text.c_str());
        QVERIFY(count(sentence.substr(0, sentence.find(' ', text.size() + 1))) > most);
    }
}

QTEST_GUILESS_MAIN(TestGptModel)
#include "test_gpt_model.moc"
