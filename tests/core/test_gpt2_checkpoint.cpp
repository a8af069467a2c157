// GPT-2 checkpoints against PyTorch (tests/reference/make_gpt2_checkpoints.py): Hugging Face's layout in F32
// and F16 (with "transformer." names and its own eps) and the book's chapter 5 names give every layer's x and
// every attention stage within 1e-4, the logits within 1e-3 and the same five next tokens; broken checkpoints
// are refused with one sentence naming the file.
#include "common/errors.h"
#include "common/golden_compare.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "io/safetensors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

using namespace attnlab;

namespace {

const std::string kData = ATTNLAB_TEST_DATA_DIR "/gpt2/";
constexpr std::uint64_t kBudget = std::uint64_t{2} << 30;

std::vector<std::int64_t> ids_of(const SafetensorsFile& f)
{
    std::vector<std::int64_t> ids;
    for (float v : f.find("token_ids")->to_vector())
        ids.push_back(static_cast<std::int64_t>(v));
    return ids;
}

// Columns [0, n) of a (1, T, V) tensor as (T, n).
Tensor first_columns(const Tensor& logits, std::int64_t n)
{
    std::vector<float> values;
    for (std::int64_t t = 0; t < logits.size(1); ++t)
        for (std::int64_t c = 0; c < n; ++c)
            values.push_back(logits.at({0, t, c}));
    return Tensor::from_values({logits.size(1), n}, std::move(values));
}

void write_text(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

std::string read_text(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// A safetensors file of `tensors` (F32) with some stored in another dtype instead (I64 or BOOL: zero bytes of that
// dtype's size), as write_safetensors cannot write them.
void write_with_dtypes(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                       const std::map<std::string, std::string>& dtypes)
{
    std::string header = "{", data;
    for (const auto& [name, t] : tensors) {
        const auto it = dtypes.find(name);
        const std::string dtype = it == dtypes.end() ? "F32" : it->second;
        const std::size_t begin = data.size();
        if (dtype == "F32") {
            const std::vector<float> values = t.to_vector();
            data.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
        } else {
            data.append(static_cast<std::size_t>(t.numel()) * (dtype == "I64" ? 8 : 1), '\0');
        }
        std::string shape;
        for (std::int64_t n : t.shape())
            shape += (shape.empty() ? "" : ",") + std::to_string(n);
        header += (header.size() > 1 ? "," : "") +
                  ("\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" +
                   std::to_string(begin) + "," + std::to_string(data.size()) + "]}");
    }
    header += "}";
    std::string length(8, '\0');
    for (int i = 0; i < 8; ++i)
        length[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    write_text(path, length + header + data);
}

} // namespace

class TestGpt2Checkpoint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matches_pytorch_data();
    void matches_pytorch();
    void keeps_only_what_is_asked();
    void plans_from_the_header();
    void refuses_broken_checkpoints_data();
    void refuses_broken_checkpoints();
    void refuses_what_does_not_fit();
    void refuses_tensors_no_weight_can_be_data();
    void refuses_tensors_no_weight_can_be();
    void counts_tokens_before_memory();
    void advises_no_budget_when_the_machine_limits();
    void reads_bfloat16();
};

void TestGpt2Checkpoint::matches_pytorch_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<int>("layers");
    QTest::newRow("hf-f32-folder") << QString::fromStdString(kData + "hf-f32") << "hf-f32" << 3;
    QTest::newRow("hf-f16-prefixed") << QString::fromStdString(kData + "hf-f16/model.safetensors") << "hf-f16" << 2;
    QTest::newRow("book-ch5-file") << QString::fromStdString(kData + "book-ch5/gpt_ch5.safetensors") << "book-ch5" << 2;
}

void TestGpt2Checkpoint::matches_pytorch()
{
    QFETCH(QString, path);
    QFETCH(QString, reference);
    QFETCH(int, layers);
    const SafetensorsFile ref = read_safetensors(kData + reference.toStdString() + ".reference.safetensors");
    const Gpt2Plan plan = plan_gpt2_checkpoint(path.toStdString());
    QCOMPARE(plan.settings.n_layers, layers);
    const GptModel model = load_gpt2_checkpoint(plan, kBudget);
    GptForwardOptions options;
    for (int l = 0; l < layers; ++l)
        options.full_traces.push_back(l);
    options.all_logits = true;
    const GptForward out = gpt_forward(model, plan.layer_norm_eps, ids_of(ref), options);
    QCOMPARE(static_cast<int>(out.layers.size()), layers);
    int compared = 0;
    for (int l = 0; l < layers; ++l) {
        const std::string at = "layer" + std::to_string(l) + ".";
        const std::string dx = testing::compare_tensors(out.layers[l].x, *ref.find(at + "x"), {0.0, 1e-4});
        QVERIFY2(dx.empty(), (at + "x: " + dx).c_str());
        for (const auto& [name, expected] : ref.tensors) {
            if (!name.starts_with(at) || name == at + "x")
                continue;
            const Stage* s = out.layers[l].trace->find(name.substr(at.size()));
            QVERIFY2(s, name.c_str());
            const std::string diff = testing::compare_tensors(s->tensor, expected, {0.0, 1e-4});
            QVERIFY2(diff.empty(), (name + ": " + diff).c_str());
            ++compared;
        }
    }
    QCOMPARE(compared, 16 * layers); // every canonical stage of MultiHeadAttention after x, in every layer
    const std::int64_t T = out.logits.size(1), V = plan.settings.vocab_size;
    std::vector<float> last_row(out.logits.data() + (T - 1) * V, out.logits.data() + T * V);
    std::string diff =
        testing::compare_tensors(Tensor::from_values({V}, last_row), *ref.find("logits.last"), {0.0, 1e-3});
    QVERIFY2(diff.empty(), ("logits.last: " + diff).c_str());
    diff = testing::compare_tensors(first_columns(out.logits, 1024), *ref.find("logits.head"), {0.0, 1e-3});
    QVERIFY2(diff.empty(), ("logits.head: " + diff).c_str());
    std::string top;
    for (const NextToken& n : out.next)
        top += (top.empty() ? "" : ",") + std::to_string(n.id);
    QCOMPARE(top, ref.meta("top5"));
}

void TestGpt2Checkpoint::keeps_only_what_is_asked()
{
    const Gpt2Plan plan = plan_gpt2_checkpoint(kData + "hf-f32");
    const GptModel model = load_gpt2_checkpoint(plan, kBudget);
    const GptForward all = gpt_forward(model, plan.layer_norm_eps, {464, 2068, 7586});
    QCOMPARE(all.layers.size(), std::size_t{3});
    for (const GptLayerRecord& r : all.layers) {
        QVERIFY(!r.trace);
        QCOMPARE(r.x.shape(), (Shape{1, 3, 8}));
        QCOMPARE(r.attn_weights.shape(), (Shape{1, 2, 3, 3}));
    }
    QCOMPARE(all.logits.shape(), (Shape{1, 1, 50257})); // the last token's row only
    QCOMPARE(all.next.size(), std::size_t{5});
    QVERIFY(all.next[0].logit >= all.next[4].logit && all.next[0].probability > 0 && all.next[0].probability <= 1);
    const GptForward one =
        gpt_forward(model, plan.layer_norm_eps, {464, 2068, 7586}, {.full_traces = {1}, .last_layer = 1});
    QCOMPARE(one.layers.size(), std::size_t{2});
    QVERIFY(one.layers[1].trace && !one.layers[0].trace && !one.logits.defined());
    QVERIFY(gpt_forward_bytes(plan.settings, 1024, {}) <
            gpt_forward_bytes(plan.settings, 1024, {.full_traces = {0, 1, 2}}));
    // Out of range: an id, a layer, too many tokens.
    QVERIFY(testing::error_of([&] { gpt_forward(model, 1e-5, {50257}); }).contains("outside"));
    QVERIFY(testing::error_of([&] { gpt_forward(model, 1e-5, {1}, {.last_layer = 3}); }).contains("layers 0 to 2"));
    QVERIFY(
        testing::error_of([&] { gpt_forward(model, 1e-5, std::vector<std::int64_t>(17, 1)); }).contains("at most 16"));
    QVERIFY(testing::error_of([&] { gpt_forward(model, 1e-5, {}); }).contains("no token ids"));
}

void TestGpt2Checkpoint::plans_from_the_header()
{
    const Gpt2Plan hf = plan_gpt2_checkpoint(kData + "hf-f32");
    QCOMPARE(hf.prefix, std::string());
    QCOMPARE(hf.ignored, std::uint64_t{3}); // the attn.bias mask buffers, not read
    QVERIFY(hf.tied_head);
    QCOMPARE(hf.settings.n_heads, 2);
    QCOMPARE(hf.heads_from, std::string("config.json"));
    QCOMPARE(hf.dtypes, std::vector<std::string>{"F32"});
    const Gpt2Plan f16 = plan_gpt2_checkpoint(kData + "hf-f16");
    QCOMPARE(f16.prefix, std::string("transformer."));
    QCOMPARE(f16.layer_norm_eps, 1e-3);
    QCOMPARE(f16.dtypes, std::vector<std::string>{"F16"});
    QCOMPARE(f16.weight_bytes, 2 * f16.stored_bytes);
    const Gpt2Plan book = plan_gpt2_checkpoint(kData + "book-ch5/gpt_ch5.safetensors");
    QCOMPARE(book.layout, Gpt2Layout::Book);
    QVERIFY(!book.tied_head);
    QVERIFY(is_gpt2_checkpoint(kData + "hf-f32") && is_gpt2_checkpoint(kData + "book-ch5/gpt_ch5.safetensors"));
    QVERIFY(!is_gpt2_checkpoint(ATTNLAB_MODELS_DIR "/verdict-gpt-h1.safetensors"));
    const QString described = QString::fromStdString(describe_gpt2_plan(f16));
    QVERIFY2(described.contains("names under transformer.") && described.contains("eps 0.001"), qPrintable(described));
    // The chapter 5 transfer as code: c_attn split in three and each part transposed.
    const std::vector<std::string> code = gpt2_mapping_code(f16);
    std::string all;
    for (const std::string& line : code)
        all += line + "\n";
    QVERIFY(all.find("torch.chunk(sd[h + \"attn.c_attn.weight\"], 3, dim=-1)") != std::string::npos);
    QVERIFY(all.find("W_query.weight, q_w.T)") != std::string::npos);
    QVERIFY(all.find("h = f\"transformer.h.{b}.\"") != std::string::npos);
    QVERIFY(all.find("# tied to wte") != std::string::npos);
}

void TestGpt2Checkpoint::refuses_broken_checkpoints_data()
{
    QTest::addColumn<QString>("drop");      // a tensor left out
    QTest::addColumn<QString>("reshape");   // a tensor stored with shape (7)
    QTest::addColumn<QString>("rename");    // every name given this prefix
    QTest::addColumn<int>("truncate");      // bytes cut off the end
    QTest::addColumn<QString>("config");    // config.json's text ("" keeps the original)
    QTest::addColumn<QString>("said");      // what the sentence must say
    QTest::addColumn<bool>("names_config"); // the sentence names config.json rather than model.safetensors
    QTest::newRow("missing-tensor") << "h.1.mlp.c_fc.bias"
                                    << ""
                                    << "" << 0 << ""
                                    << "has no tensor 'h.1.mlp.c_fc.bias'" << false;
    QTest::newRow("wrong-shape") << ""
                                 << "h.0.ln_1.weight"
                                 << "" << 0 << ""
                                 << "holds 'h.0.ln_1.weight' with shape (7), but" << false;
    QTest::newRow("unknown-layout") << ""
                                    << ""
                                    << "encoder." << 0 << ""
                                    << "neither a Hugging Face GPT-2 checkpoint" << false;
    QTest::newRow("truncated") << ""
                               << ""
                               << "" << 1000 << ""
                               << "truncated" << false;
    QTest::newRow("config-not-json") << ""
                                     << ""
                                     << "" << 0 << "{\"n_layer\": 3,"
                                     << "does not parse as JSON" << true;
    QTest::newRow("config-not-object") << ""
                                       << ""
                                       << "" << 0 << "[3]"
                                       << "not an object" << true;
    QTest::newRow("config-width") << ""
                                  << ""
                                  << "" << 0 << "{\"n_embd\": 32, \"n_head\": 2}"
                                  << "says n_embd=32 but" << true;
    QTest::newRow("config-layers") << ""
                                   << ""
                                   << "" << 0 << "{\"n_layer\": 4, \"n_head\": 2}"
                                   << "says n_layer=4 but" << true;
    QTest::newRow("config-heads-uneven") << ""
                                         << ""
                                         << "" << 0 << "{\"n_head\": 3}"
                                         << "does not divide n_embd=8" << true;
    QTest::newRow("config-heads-text") << ""
                                       << ""
                                       << "" << 0 << "{\"n_head\": \"two\"}"
                                       << "gives n_head as \"two\"" << true;
    QTest::newRow("config-eps") << ""
                                << ""
                                << "" << 0 << "{\"n_head\": 2, \"layer_norm_epsilon\": -1}"
                                << "gives layer_norm_epsilon as -1" << true;
    QTest::newRow("no-heads") << ""
                              << ""
                              << "" << 0 << "{}"
                              << "does not say how many heads" << false;
}

void TestGpt2Checkpoint::refuses_broken_checkpoints()
{
    QFETCH(QString, drop);
    QFETCH(QString, reshape);
    QFETCH(QString, rename);
    QFETCH(int, truncate);
    QFETCH(QString, config);
    QFETCH(QString, said);
    QFETCH(bool, names_config);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string folder = dir.path().toStdString(), file = folder + "/model.safetensors";
    const SafetensorsFile good = read_safetensors(kData + "hf-f32/model.safetensors");
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& [name, t] : good.tensors) {
        if (name == drop.toStdString())
            continue;
        tensors.emplace_back(rename.toStdString() + name, name == reshape.toStdString() ? Tensor::zeros({7}) : t);
    }
    write_safetensors(file, tensors, {});
    if (truncate > 0)
        std::filesystem::resize_file(file, std::filesystem::file_size(file) - static_cast<std::uintmax_t>(truncate));
    write_text(folder + "/config.json",
               config.isEmpty() ? read_text(kData + "hf-f32/config.json") : config.toStdString());
    const QString e = testing::error_of([&] { load_gpt2_checkpoint(plan_gpt2_checkpoint(folder), kBudget); });
    QVERIFY2(e.contains(said), qPrintable(e));
    QVERIFY2(e.contains(QString::fromStdString(names_config ? folder + "/config.json" : file)), qPrintable(e));
    QVERIFY2(!e.trimmed().chopped(1).contains(". "), qPrintable(e)); // one sentence
}

void TestGpt2Checkpoint::refuses_what_does_not_fit()
{
    const Gpt2Plan plan = plan_gpt2_checkpoint(kData + "hf-f32");
    QString e = testing::error_of([&] { load_gpt2_checkpoint(plan, 1 << 20); });
    QVERIFY2(e.contains("needs about") && e.contains("memory budget") && e.contains("nothing was read"), qPrintable(e));
    e = testing::error_of([&] { check_gpt2_memory(plan, 16, {}, 1 << 20); });
    QVERIFY2(e.contains("on 16 tokens needs about"), qPrintable(e));
    QVERIFY(testing::error_of([&] { check_gpt2_memory(plan, 16, {}, kBudget); }).isEmpty());
    // GPT-2 XL's shapes as a plan: 1.5 billion parameters are about 6 GB as F32, refused under 2 GiB unread.
    Gpt2Plan xl = plan;
    xl.settings = {50257, 1600, 48, 25, 1024, true};
    xl.weight_bytes = std::uint64_t{4} * 1557611200;
    e = testing::error_of([&] { check_gpt2_memory(xl, 64, {}, kBudget); });
    QVERIFY2(e.contains("5.80 GiB of weights"), qPrintable(e));
    QTemporaryDir empty;
    e = testing::error_of([&] { plan_gpt2_checkpoint(empty.path().toStdString()); });
    QVERIFY2(e.contains("is a folder with no model.safetensors"), qPrintable(e));
}

// A tensor no weight can be -- stored as integers or booleans, or an embedding of no rows -- is refused by what it
// is, on planning (so inspect says it too): an I64 wte.weight and a BOOL ln_f.weight were called missing ("which
// every gpt2-hf checkpoints have"), and a vocabulary or context of 0 rows passed until the first token.
void TestGpt2Checkpoint::refuses_tensors_no_weight_can_be_data()
{
    QTest::addColumn<QString>("tensor"); // the tensor changed
    QTest::addColumn<QString>("dtype");  // stored as this dtype; "" keeps F32 with no rows
    QTest::addColumn<QString>("said");
    QTest::newRow("wte-i64") << "wte.weight"
                             << "I64"
                             << "stores 'wte.weight' as I64, which is not a float dtype";
    QTest::newRow("ln_f-bool") << "ln_f.weight"
                               << "BOOL"
                               << "stores 'ln_f.weight' as BOOL, which is not a float dtype";
    QTest::newRow("block-weight-i64") << "h.1.attn.c_attn.weight"
                                      << "I64"
                                      << "stores 'h.1.attn.c_attn.weight' as I64";
    QTest::newRow("vocabulary-of-none") << "wte.weight"
                                        << ""
                                        << "holds 'wte.weight' (0, 8), a vocabulary of no tokens";
    QTest::newRow("context-of-none") << "wpe.weight"
                                     << ""
                                     << "holds 'wpe.weight' (0, 8), a context of no positions";
}

void TestGpt2Checkpoint::refuses_tensors_no_weight_can_be()
{
    QFETCH(QString, tensor);
    QFETCH(QString, dtype);
    QFETCH(QString, said);
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString(), file = folder + "/model.safetensors";
    const SafetensorsFile good = read_safetensors(kData + "hf-f32/model.safetensors");
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& [name, t] : good.tensors)
        tensors.emplace_back(name, name == tensor.toStdString() && dtype.isEmpty() ? Tensor::zeros({0, t.size(1)}) : t);
    std::map<std::string, std::string> dtypes;
    if (!dtype.isEmpty())
        dtypes[tensor.toStdString()] = dtype.toStdString();
    write_with_dtypes(file, tensors, dtypes);
    write_text(folder + "/config.json", "{\"n_head\": 2}");
    for (const std::string& path : {folder, file}) {
        QVERIFY(is_gpt2_checkpoint(path)); // by its names, whatever their dtypes: then named by plan_gpt2_checkpoint
        const QString e = testing::error_of([&] { plan_gpt2_checkpoint(path); });
        QVERIFY2(e.contains(said) && e.contains(QString::fromStdString(file)), qPrintable(e));
        QVERIFY2(!e.contains("has no tensor"), qPrintable(e));
        QVERIFY2(!e.trimmed().chopped(1).contains(". "), qPrintable(e)); // one sentence
    }
}

// More tokens than n_positions are that, whatever they would cost: 30,000 tokens were answered with a memory
// estimate of tens of GiB and the advice of a larger budget.
void TestGpt2Checkpoint::counts_tokens_before_memory()
{
    const Gpt2Plan plan = plan_gpt2_checkpoint(kData + "hf-f32");
    for (const std::uint64_t budget : {std::uint64_t{1} << 20, kBudget}) {
        const QString e = testing::error_of([&] { check_gpt2_memory(plan, 30000, {}, budget); });
        QCOMPARE(e, QString("there are 30000 tokens; hf-f32 takes at most 16 (its n_positions)."));
    }
    QVERIFY(testing::error_of([&] { check_gpt2_memory(plan, 16, {}, kBudget); }).isEmpty());
}

// Where the machine, not the budget, is the limit, a larger --max-memory would change nothing: not advised; where
// the budget is, it is. The parts named add up to the need.
void TestGpt2Checkpoint::advises_no_budget_when_the_machine_limits()
{
    Gpt2Plan huge = plan_gpt2_checkpoint(kData + "hf-f32");
    huge.weight_bytes = std::uint64_t{1} << 50; // a petabyte of weights: more than any machine here
    QString e = testing::error_of([&] { check_gpt2_memory(huge, 4, {}, UINT64_MAX); });
    QVERIFY2(e.contains("this machine has") && !e.contains("--max-memory"), qPrintable(e));
    e = testing::error_of([&] { load_gpt2_checkpoint(huge, UINT64_MAX); });
    QVERIFY2(e.contains("this machine has") && !e.contains("--max-memory"), qPrintable(e));
    const Gpt2Plan plan = plan_gpt2_checkpoint(kData + "hf-f32");
    e = testing::error_of([&] { check_gpt2_memory(plan, 4, {}, 1 << 20, false, 3 << 20); });
    QVERIFY2(e.contains("memory budget") && e.contains("a larger --max-memory"), qPrintable(e));
    QVERIFY2(e.contains("3.00 MiB for the tokenizer"), qPrintable(e));
}

// BF16 as Hugging Face stores some checkpoints: the same forward as the F32 file of the values it widens to.
void TestGpt2Checkpoint::reads_bfloat16()
{
    QTemporaryDir dir;
    const std::string bf16 = dir.path().toStdString() + "/bf16", f32 = dir.path().toStdString() + "/f32";
    std::filesystem::create_directories(bf16);
    std::filesystem::create_directories(f32);
    const SafetensorsFile good = read_safetensors(kData + "hf-f32/model.safetensors");
    std::string header = "{", data;
    std::vector<std::pair<std::string, Tensor>> widened;
    for (const auto& [name, t] : good.tensors) {
        std::vector<float> values = t.to_vector();
        const std::size_t begin = data.size();
        for (float& v : values) {
            const auto top = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(v) >> 16); // truncated to BF16
            data += static_cast<char>(top & 0xff);
            data += static_cast<char>(top >> 8);
            v = std::bit_cast<float>(static_cast<std::uint32_t>(top) << 16);
        }
        std::string shape;
        for (std::int64_t n : t.shape())
            shape += (shape.empty() ? "" : ",") + std::to_string(n);
        header += (header.size() > 1 ? "," : "") +
                  ("\"" + name + "\":{\"dtype\":\"BF16\",\"shape\":[" + shape + "],\"data_offsets\":[" +
                   std::to_string(begin) + "," + std::to_string(data.size()) + "]}");
        widened.emplace_back(name, Tensor::from_values(t.shape(), std::move(values)));
    }
    header += "}";
    std::string length(8, '\0');
    for (int i = 0; i < 8; ++i)
        length[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
    write_text(bf16 + "/model.safetensors", length + header + data);
    write_safetensors(f32 + "/model.safetensors", widened, {});
    for (const std::string& folder : {bf16, f32})
        write_text(folder + "/config.json", read_text(kData + "hf-f32/config.json"));
    const Gpt2Plan plan = plan_gpt2_checkpoint(bf16);
    QCOMPARE(plan.dtypes, std::vector<std::string>{"BF16"});
    const std::vector<std::int64_t> ids = {464, 2068, 7586, 21831};
    const GptForward a = gpt_forward(load_gpt2_checkpoint(plan, kBudget), 1e-5, ids, {.full_traces = {2}});
    const GptForward b =
        gpt_forward(load_gpt2_checkpoint(plan_gpt2_checkpoint(f32), kBudget), 1e-5, ids, {.full_traces = {2}});
    QCOMPARE(a.logits.to_vector(), b.logits.to_vector());
    QCOMPARE(a.layers[2].trace->find("context.merged")->tensor.to_vector(),
             b.layers[2].trace->find("context.merged")->tensor.to_vector());
}

QTEST_GUILESS_MAIN(TestGpt2Checkpoint)
#include "test_gpt2_checkpoint.moc"
