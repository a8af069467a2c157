// attention-lab-cli as a user runs it: exit codes, messages, JSON, and dumps that reproduce the
// PyTorch reference stages.
#include "common/golden_compare.h"
#include "io/safetensors.h"

#include "common/cli_runner.h"

#include <QJsonArray>

#include <QtTest>

namespace {

const QString kGpt2 = "MultiHeadAttention(768, 768, 1024, 0.0, 12)";

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exit_codes_data();
    void exit_codes();
    void validate_gpt2_small();
    void validate_refuses_770_with_head_counts();
    void validate_names_a_swap_first_data();
    void validate_names_a_swap_first();
    void trace_json_records_strides();
    void run_reproduces_reference_data();
    void run_reproduces_reference();
    void memory_budget_refuses_before_allocating();
    void failed_dump_leaves_no_file();
    void bench_json();
    void bench_defaults();
    void inspect_says_what_the_file_holds();
};

void TestCli::exit_codes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("stderr_has");
    QTest::newRow("no-command") << QStringList{} << 2 << "Usage";
    QTest::newRow("unknown-command") << QStringList{"frobnicate"} << 2 << "unknown command";
    QTest::newRow("unknown-option") << QStringList{"validate", "--call", kGpt2, "--colour"} << 2 << "unknown option";
    QTest::newRow("missing-call") << QStringList{"validate"} << 2 << "--call is required";
    QTest::newRow("bad-syntax") << QStringList{"validate", "--call", "MultiHeadAttention(768, 768"} << 1 << "^";
    QTest::newRow("unknown-class") << QStringList{"validate", "--call", "MultiHeadAtention(768, 768, 1024, 0.0, 12)"}
                                   << 1 << "MultiHeadAttention";
    QTest::newRow("tokens-not-a-number") << QStringList{"trace", "--call", kGpt2, "--tokens", "lots"} << 1
                                         << "not a whole number";
    QTest::newRow("tokens-over-context") << QStringList{"trace", "--call", kGpt2, "--tokens", "2000"} << 1
                                         << "context_length";
    QTest::newRow("missing-weights-file")
        << QStringList{"run", "--call", kGpt2, "--weights", "/nonexistent.st", "--dump", "/tmp/never.safetensors"} << 1
        << "/nonexistent.st";
    QTest::newRow("bad-layout") << QStringList{"run", "--call", kGpt2, "--layout", "keras", "--dump", "/tmp/x.st"} << 1
                                << "gpt2-hf";
    QTest::newRow("valid") << QStringList{"validate", "--call", kGpt2} << 0 << "";
    QTest::newRow("inspect-gpt2") << QStringList{"inspect", ATTNLAB_GOLDEN_DIR "/gpt2_layout_tiny.safetensors"} << 0
                                  << "";
    QTest::newRow("inspect-missing") << QStringList{"inspect", "/nonexistent.st"} << 1 << "/nonexistent.st";
    QTest::newRow("inspect-missing-key") << QStringList{"inspect", ATTNLAB_TEST_DATA_DIR
                                                        "/../robustness/files/mha_missing_key.safetensors"}
                                         << 1 << "W_key";
    QTest::newRow("inspect-no-file") << QStringList{"inspect", "--json"} << 2 << "inspect needs the weights file";
}

// "Load your own": the shapes give d_in, d_out and the bias; num_heads is offered, not read.
void TestCli::inspect_says_what_the_file_holds()
{
    const Result r = cli({"inspect", ATTNLAB_GOLDEN_DIR "/gpt2_layout_tiny.safetensors"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(": gpt2-hf, MultiHeadAttention, d_in=16, d_out=16, qkv_bias=True, layer 0\n"),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("num_heads is not stored in the weights"), qPrintable(r.out));
    QVERIFY2(r.out.contains("  num_heads=4  head_dim=4\n"), qPrintable(r.out));
    const QJsonObject o = cli({"inspect", ATTNLAB_GOLDEN_DIR "/book_wrapper_d2.safetensors", "--json"}).json();
    QCOMPARE(o.value("modules").toArray().first().toString(), QStringLiteral("MultiHeadAttentionWrapper"));
    QCOMPARE(o.value("num_heads").toInt(), 2); // the wrapper keeps one module per head: the file says it
    QCOMPARE(o.value("d_out").toInt(), 2);
}

void TestCli::exit_codes()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, stderr_has);
    const Result r = cli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(stderr_has), qPrintable(r.err));
    if (code == 1) // one sentence (plus the caret lines for calls), never a stack of noise
        QVERIFY2(r.err.count('\n') <= 3, qPrintable(r.err));
}

void TestCli::validate_gpt2_small()
{
    const Result r = cli({"validate", "--call", kGpt2, "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = json_of(r);
    QCOMPARE(o["valid"].toBool(), true);
    QCOMPARE(o["head_dim"].toInt(), 64);
    QCOMPARE(o["slots"].toArray().size(), 5);
    QCOMPARE(o["slots"].toArray()[2].toObject()["slot"].toString(), QString("context_length"));
    QCOMPARE(o["slots"].toArray()[4].toObject()["slot"].toString(), QString("num_heads"));
}

void TestCli::validate_refuses_770_with_head_counts()
{
    const Result r = cli({"validate", "--call", "MultiHeadAttention(768, 770, 1024, 0.0, 12)"});
    QCOMPARE(r.code, 1);
    for (const char* valid : {"10", "11", "14"})
        QVERIFY2(r.err.contains(valid), qPrintable(r.err));
    QVERIFY(r.err.contains("head_dim"));
}

void TestCli::validate_names_a_swap_first_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QString>("tokens");
    QTest::newRow("dropout and num_heads swapped") << "MultiHeadAttention(768, 768, 1024, 12, 0.0)"
                                                   << "16";
    QTest::newRow("context_length and num_heads swapped") << "MultiHeadAttention(768, 768, 12, 0.0, 1024)"
                                                          << "16";
}

// The contract's reading of a swap comes first, as the GUI's call line says it, and its fix is the call.
void TestCli::validate_names_a_swap_first()
{
    QFETCH(QString, call);
    QFETCH(QString, tokens);
    const Result r = cli({"validate", "--call", call, "--tokens", tokens, "--json"});
    QCOMPARE(r.code, 1);
    const QJsonObject first = json_of(r)["diagnostics"].toArray().first().toObject();
    QCOMPARE(first["code"].toString(), QStringLiteral("slots-swapped"));
    QCOMPARE(first["call_fix"].toString(), kGpt2);
    QVERIFY(first["message"].toString().contains("look swapped"));
    const Result text = cli({"validate", "--call", call, "--tokens", tokens});
    QCOMPARE(text.code, 1);
    const QString said = text.err.split('\n').first();
    QVERIFY2(said.contains("look swapped") && said.contains(kGpt2), qPrintable(text.err));
    for (const char* wrong : {"write 0", "num_heads = 768", "context_length to at least 16"})
        QVERIFY2(!text.err.contains(wrong) && !text.out.contains(wrong), qPrintable(text.err + text.out));
    const Result fixed = cli({"validate", "--call", first["call_fix"].toString(), "--tokens", tokens});
    QCOMPARE(fixed.code, 0);
}

void TestCli::trace_json_records_strides()
{
    const Result r = cli({"trace", "--call", kGpt2, "--tokens", "4", "--json"});
    QCOMPARE(r.code, 0);
    QHash<QString, QJsonObject> stages;
    for (const auto& s : json_of(r)["stages"].toArray())
        stages[s.toObject()["name"].toString()] = s.toObject();
    QCOMPARE(stages.size(), 17);
    QCOMPARE(stages["queries.heads"]["strides"].toArray(), (QJsonArray{3072, 64, 768, 1}));
    QCOMPARE(stages["context.transposed"]["contiguous"].toBool(), false);
    QCOMPARE(stages["context.merged"]["contiguous"].toBool(), true);
    QCOMPARE(stages["queries.view"]["view_of"].toString(), QString("queries"));
    QVERIFY(stages["context.merged"]["code"].toString().contains("contiguous().view"));
}

void TestCli::run_reproduces_reference_data()
{
    QTest::addColumn<QString>("path");
    for (const char* dir : {ATTNLAB_GOLDEN_DIR, ATTNLAB_TEST_DATA_DIR "/reference"})
        for (const auto& path : testing::safetensors_files(dir))
            QTest::newRow(qPrintable(QFileInfo(QString::fromStdString(path)).completeBaseName()))
                << QString::fromStdString(path);
}

void TestCli::run_reproduces_reference()
{
    QFETCH(QString, path);
    const attnlab::SafetensorsFile golden = attnlab::read_safetensors(path.toStdString());
    QTemporaryDir dir;
    const QString dump = dir.filePath("dump.safetensors");
    const Result r = cli({"run", "--call", QString::fromStdString(golden.meta("call")), "--weights", path, "--input",
                          path, "--layer", QString::fromStdString(golden.meta("layer", "0")), "--dump", dump});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const attnlab::SafetensorsFile out = attnlab::read_safetensors(dump.toStdString());
    QCOMPARE(out.meta("call").empty(), false);
    int compared = 0;
    for (const auto& [name, expected] : golden.tensors) {
        if (name.rfind("expected.", 0) != 0)
            continue;
        const attnlab::Tensor* got = out.find(name.substr(9));
        QVERIFY2(got, name.c_str());
        const std::string diff = testing::compare_tensors(*got, expected);
        QVERIFY2(diff.empty(), (name + ": " + diff).c_str());
        ++compared;
    }
    QVERIFY(compared > 0);
}

void TestCli::memory_budget_refuses_before_allocating()
{
    QElapsedTimer timer;
    timer.start();
    const Result r = cli({"run", "--call", "MultiHeadAttention(768, 768, 1048576, 0.0, 12)", "--tokens", "1048576",
                          "--dump", "/tmp/never-written.safetensors"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("GiB") && r.err.contains("budget"), qPrintable(r.err));
    QVERIFY(!QFile::exists("/tmp/never-written.safetensors"));
    const Result small = cli({"run", "--call", kGpt2, "--tokens", "64", "--max-memory", "1M", "--dump", "/tmp/n.st"});
    QCOMPARE(small.code, 1);
    QVERIFY(small.err.contains("1.00 MiB"));
}

void TestCli::failed_dump_leaves_no_file()
{
    QTemporaryDir dir;
    const QString target = dir.filePath("missing/sub/dump.safetensors");
    const Result r = cli({"run", "--call", "MultiHeadAttention(3, 2, 6, 0.0, 2)", "--input", "book", "--dump", target});
    QCOMPARE(r.code, 1);
    QVERIFY(!r.err.isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
}

void TestCli::bench_json()
{
    const Result r = cli({"bench", "--call", "MultiHeadAttention(64, 64, 64, 0.0, 4)", "--batch", "2", "--tokens", "32",
                          "--repeat", "3", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = json_of(r);
    QVERIFY(o["median_ms"].toDouble() > 0);
    // The microsecond key sits beside the millisecond one (older scripts read median_ms).
    QVERIFY(qAbs(o["median_us"].toDouble() - 1000 * o["median_ms"].toDouble()) < 1e-6 * o["median_us"].toDouble());
    QVERIFY(o["gflops"].toDouble() > 0);
    QCOMPARE(o["threads"].toInt(), 1);
}

// bench takes the batch and the tokens as run does: 1 and 6 unless given (it once required both).
void TestCli::bench_defaults()
{
    const Result r = cli({"bench", "--call", "MultiHeadAttention(3, 2, 6, 0.0, 2)", "--repeat", "1", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = json_of(r);
    QCOMPARE(o["batch"].toInt(), 1);
    QCOMPARE(o["tokens"].toInt(), 6);
    QVERIFY(o["median_ms"].toDouble() > 0);
}

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
