// "Seed S" means torch.manual_seed(S) followed by constructing the module: for every case PyTorch
// wrote into tests/data/seeded (tests/reference/make_seeded_cases.py, the book's modules imported
// from resources/pytorch), the app's seeded weights equal PyTorch's bit for bit, its random input is
// PyTorch's torch.rand, and its traced forward -- dropout masks in training mode included -- gives
// every stage in the book's order within the golden tolerance.
#include "call/call_parser.h"
#include "common/golden_compare.h"
#include "forward/experiment.h"
#include "io/safetensors.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>

using namespace attnlab;

namespace {

const std::string kDir = ATTNLAB_TEST_DATA_DIR "/seeded";

std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t begin = 0;
    for (std::size_t comma; (comma = text.find(',', begin)) != std::string::npos; begin = comma + 1)
        out.push_back(text.substr(begin, comma - begin));
    out.push_back(text.substr(begin));
    return out;
}

// Equal to the last bit, -0.0 and +0.0 told apart.
bool same_bits(const Tensor& a, const Tensor& b)
{
    const std::vector<float> x = a.to_vector(), y = b.to_vector();
    return a.shape() == b.shape() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

// The case as the CLI and the GUI state it: seeded weights, the file's x, training and dropout seed.
ExperimentSpec spec_of(const SafetensorsFile& file, const std::string& path)
{
    ExperimentSpec spec;
    spec.config = *parse_call(file.meta("call")).config;
    spec.seed = std::stoull(file.meta("seed"));
    spec.training = file.meta("training") == "1";
    if (!file.meta("dropout_seed").empty())
        spec.dropout_seed = std::stoull(file.meta("dropout_seed"));
    spec.input = InputSource::File;
    spec.input_path = path;
    return spec;
}

// 64-bit FNV-1a over a tensor's float32 bytes, little-endian and row-major, as make_seeded_large.py hashes.
std::string fnv1a64(const Tensor& t)
{
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (float v : t.to_vector()) {
        unsigned char bytes[sizeof v];
        std::memcpy(bytes, &v, sizeof v); // x86-64 and aarch64 are little-endian, like the file
        for (unsigned char b : bytes)
            h = (h ^ b) * 0x100000001B3ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

const nlohmann::json& large_cases()
{
    static const nlohmann::json cases = [] {
        std::ifstream in(ATTNLAB_TEST_DATA_DIR "/seeded_large.json");
        return nlohmann::json::parse(in).at("cases");
    }();
    return cases;
}

} // namespace

class TestSeededReference : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cases_are_there();
    void weights_are_pytorchs_data() { rows(); }
    void weights_are_pytorchs();
    void random_input_is_torch_rand_data() { rows(); }
    void random_input_is_torch_rand();
    void every_stage_in_the_books_order_data() { rows(); }
    void every_stage_in_the_books_order();
    // GPT-2-sized modules (up to 768 x 2304), fingerprinted: too large to commit as tensors.
    void large_weights_are_pytorchs_data();
    void large_weights_are_pytorchs();

private:
    static void rows()
    {
        QTest::addColumn<QString>("path");
        for (const auto& path : testing::safetensors_files(kDir))
            QTest::newRow(qPrintable(QFileInfo(QString::fromStdString(path)).completeBaseName()))
                << QString::fromStdString(path);
    }
};

void TestSeededReference::cases_are_there()
{
    // A missing folder must fail, not turn the tables below into zero rows.
    QVERIFY2(testing::safetensors_files(kDir).size() >= 26, kDir.c_str());
}

void TestSeededReference::weights_are_pytorchs()
{
    QFETCH(QString, path);
    const SafetensorsFile file = read_safetensors(path.toStdString());
    const Experiment e = prepare(spec_of(file, path.toStdString()));
    std::size_t parameters = 0;
    for (const auto& [name, tensor] : file.tensors) {
        if (name == "x" || name.rfind("expected.", 0) == 0)
            continue;
        ++parameters;
        QVERIFY2(e.weights.count(name), name.c_str());
        QVERIFY2(same_bits(e.weights.at(name), tensor), name.c_str());
    }
    QCOMPARE(e.weights.size(), parameters); // nothing more than PyTorch's state_dict either
}

void TestSeededReference::random_input_is_torch_rand()
{
    QFETCH(QString, path);
    const SafetensorsFile file = read_safetensors(path.toStdString());
    if (file.meta("input") != "rand")
        QSKIP("the book's input");
    const Tensor& x = *file.find("x");
    const Config config = *parse_call(file.meta("call")).config;
    Config sized = config;
    sized.d_in = x.size(-1); // SimpleSelfAttention: the width is the input's
    const std::int64_t batch = config.is_batched() ? x.size(0) : 1;
    QVERIFY(same_bits(random_input(sized, batch, x.size(-2), std::stoull(file.meta("seed")) + 1), x));
}

void TestSeededReference::every_stage_in_the_books_order()
{
    QFETCH(QString, path);
    const SafetensorsFile file = read_safetensors(path.toStdString());
    const Trace trace = run(prepare(spec_of(file, path.toStdString())));
    std::vector<std::string> names;
    for (const Stage& s : trace.stages)
        names.push_back(s.name);
    QCOMPARE(names, split(file.meta("stages")));
    for (const Stage& s : trace.stages) {
        if (s.name == "x")
            continue;
        const Tensor* expected = file.find("expected." + s.name);
        QVERIFY2(expected, s.name.c_str());
        const std::string diff = testing::compare_tensors(s.tensor, *expected);
        QVERIFY2(diff.empty(), (s.name + ": " + diff).c_str());
    }
}

void TestSeededReference::large_weights_are_pytorchs_data()
{
    QTest::addColumn<int>("index");
    QVERIFY(large_cases().size() >= 5);
    for (std::size_t i = 0; i < large_cases().size(); ++i)
        QTest::newRow(large_cases()[i].at("call").get<std::string>().c_str()) << static_cast<int>(i);
}

void TestSeededReference::large_weights_are_pytorchs()
{
    QFETCH(int, index);
    const nlohmann::json& c = large_cases()[static_cast<std::size_t>(index)];
    const Config config = *parse_call(c.at("call").get<std::string>()).config;
    const StateDict weights = init_weights(config, c.at("seed").get<std::uint64_t>());
    QCOMPARE(weights.size(), c.at("parameters").size());
    for (const auto& p : c.at("parameters")) {
        const std::string name = p.at("name");
        QVERIFY2(weights.count(name), name.c_str());
        const Tensor& t = weights.at(name);
        QCOMPARE(t.shape(), p.at("shape").get<Shape>());
        const std::vector<float> v = t.to_vector();
        QCOMPARE(v.front(), p.at("first").get<float>()); // a readable first difference before the hash
        QCOMPARE(v.back(), p.at("last").get<float>());
        QCOMPARE(fnv1a64(t), p.at("fnv1a64").get<std::string>());
    }
}

QTEST_GUILESS_MAIN(TestSeededReference)
#include "test_seeded_reference.moc"
