// attention-lab-cli on the trained Verdict GPTs: `tokenize` gives the Python tokenizer's ids, and
// `run --model h4` dumps x and every stage matching PyTorch (tests/data/gpt) to 1e-4.
#include "common/cli_runner.h"
#include "common/golden_compare.h"
#include "io/safetensors.h"

#include <QJsonArray>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestCliGpt : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tokenize_json_matches_python();
    void tokenize_text_marks_unknown();
    void run_dump_matches_pytorch_data();
    void run_dump_matches_pytorch();
    void refusals_data();
    void refusals();
    void tokenize_reads_a_file();
    void short_context_model_runs_on_its_first_text();
};

void TestCliGpt::tokenize_json_matches_python()
{
    QFile file(ATTNLAB_TEST_DATA_DIR "/text/tokenizer_cases.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).object()["cases"].toArray();
    for (const auto& v : cases) {
        const QJsonObject c = v.toObject();
        if (c["text"].toString().isEmpty())
            continue;
        const Result r = cli({"tokenize", "--text", c["text"].toString(), "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json()["ids"].toArray(), c["ids"].toArray());
        QCOMPARE(r.json()["vocab_size"].toInt(), 1132);
    }
}

void TestCliGpt::tokenize_text_marks_unknown()
{
    const Result r = cli({"tokenize", "--text", "Hello, Jack"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("1 unknown") && r.out.contains("1131\tHello\t-> <|unk|>"), qPrintable(r.out));
}

void TestCliGpt::run_dump_matches_pytorch_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("layer");
    QTest::newRow("name-h4-layer0") << "h4" << 0;
    QTest::newRow("stem-layer1") << "verdict-gpt-h4" << 1;
    QTest::newRow("path-layer1") << ATTNLAB_MODELS_DIR "/verdict-gpt-h4.safetensors" << 1;
}

void TestCliGpt::run_dump_matches_pytorch()
{
    QFETCH(QString, model);
    QFETCH(int, layer);
    const std::string ref_path = ATTNLAB_TEST_DATA_DIR "/gpt/verdict-h4-layer" + std::to_string(layer) + ".safetensors";
    const attnlab::SafetensorsFile ref = attnlab::read_safetensors(ref_path);
    QTemporaryDir dir;
    const QString dump = dir.filePath("dump.safetensors");
    const Result r = cli({"run", "--model", model, "--layer", QString::number(layer), "--text",
                          QString::fromStdString(ref.meta("text")), "--dump", dump});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const attnlab::SafetensorsFile got = attnlab::read_safetensors(dump.toStdString());
    QCOMPARE(got.meta("token_ids"), ref.meta("token_ids"));
    int compared = 0;
    for (const auto& [name, expected] : ref.tensors) {
        if (name == "token_ids" || name == "expected.logits")
            continue;
        const std::string stage = name.rfind("expected.", 0) == 0 ? name.substr(9) : name;
        const attnlab::Tensor* t = got.find(stage);
        QVERIFY2(t, stage.c_str());
        const std::string diff = testing::compare_tensors(*t, expected, {1e-4, 1e-4});
        QVERIFY2(diff.empty(), (stage + ": " + diff).c_str());
        ++compared;
    }
    QCOMPARE(compared, 17); // x and the sixteen stages after it
}

// A text past a command line's 128 KiB an argument: --text-file reads it (or standard input for '-'), the same ids
// as --text gives for what fits on a command line; a folder, a missing file, both options or neither are refused.
void TestCliGpt::tokenize_reads_a_file()
{
    QTemporaryDir dir;
    const QString small = dir.filePath("small.txt"), big = dir.filePath("big.txt");
    const QByteArray sentence = "I HAD always thought Jack Gisburn rather a cheap genius--though a good fellow enough";
    for (const auto& [path, times] : {std::pair{small, 1}, std::pair{big, 2000}}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < times; ++i)
            f.write(sentence + "\n");
    }
    QVERIFY(QFileInfo(big).size() > 128 * 1024);
    for (const QString tokenizer : {"book", "gpt2"}) {
        const Result fromFile = cli({"tokenize", "--tokenizer", tokenizer, "--text-file", small, "--json"});
        const Result fromArg =
            cli({"tokenize", "--tokenizer", tokenizer, "--text", QString::fromUtf8(sentence + "\n"), "--json"});
        QCOMPARE(fromFile.code, 0);
        QCOMPARE(fromFile.out, fromArg.out);
        const Result whole = cli({"tokenize", "--tokenizer", tokenizer, "--text-file", big, "--json"});
        QCOMPARE(whole.code, 0);
        QCOMPARE(whole.json()["num_tokens"].toInt(), 2000 * fromFile.json()["num_tokens"].toInt());
    }
    QProcess piped; // standard input
    piped.start(ATTNLAB_CLI_PATH, {"tokenize", "--text-file", "-", "--json"});
    QVERIFY(piped.waitForStarted());
    piped.write(sentence + "\n");
    piped.closeWriteChannel();
    QVERIFY(piped.waitForFinished(60000));
    QCOMPARE(QString::fromUtf8(piped.readAllStandardOutput()), cli({"tokenize", "--text-file", small, "--json"}).out);
    const Result folder = cli({"tokenize", "--text-file", dir.path()});
    QCOMPARE(folder.code, 1);
    QVERIFY2(folder.err.contains("is not a regular file"), qPrintable(folder.err));
    const Result missing = cli({"tokenize", "--text-file", dir.filePath("none.txt")});
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.err.contains("does not exist"), qPrintable(missing.err));
    QCOMPARE(cli({"tokenize", "--text", "a", "--text-file", small}).code, 2);
    QCOMPARE(cli({"tokenize"}).code, 2);
}

// A Verdict model trained with --context 56 (here the 4-head model's first 56 positions) runs without --text: the
// story's first sentence, 57 tokens, is cut at a space to what it reads ("the text has 57 tokens; verd56 takes at most
// 56" before).
void TestCliGpt::short_context_model_runs_on_its_first_text()
{
    using attnlab::Tensor;
    const attnlab::SafetensorsFile h4 = attnlab::read_safetensors(ATTNLAB_MODELS_DIR "/verdict-gpt-h4.safetensors");
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const auto& [name, t] : h4.tensors) {
        if (name != "pos_emb.weight") {
            tensors.emplace_back(name, t);
            continue;
        }
        std::vector<float> rows = t.to_vector();
        rows.resize(static_cast<std::size_t>(56 * t.size(1)));
        tensors.emplace_back(name, Tensor::from_values({56, t.size(1)}, std::move(rows)));
    }
    std::vector<std::pair<std::string, std::string>> metadata = h4.metadata;
    for (auto& [key, value] : metadata)
        if (key == "context_length")
            value = "56";
    QTemporaryDir dir;
    const QString model = dir.filePath("verd56.safetensors"), out = dir.filePath("out.safetensors");
    attnlab::write_safetensors(model.toStdString(), tensors, metadata);
    const Result r = cli({"run", "--model", model, "--dump", out, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const int tokens = r.json()["num_tokens"].toInt();
    QVERIFY2(tokens > 40 && tokens <= 56, qPrintable(r.out));
}

void TestCliGpt::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("stderr_has");
    QTest::newRow("unknown-model") << QStringList{"run", "--model", "h3", "--dump", "/tmp/never.st"} << 1
                                   << "h1, h2, h4, h8";
    QTest::newRow("missing-file") << QStringList{"run", "--model", "/nonexistent/m.safetensors", "--dump", "/tmp/n.st"}
                                  << 1 << "/nonexistent/m.safetensors";
    QTest::newRow("not-a-gpt") << QStringList{"run", "--model", ATTNLAB_GOLDEN_DIR "/book_toy.safetensors", "--dump",
                                              "/tmp/n.st"}
                               << 1 << "not a trained GPT file";
    QTest::newRow("layer-2") << QStringList{"run", "--model", "h2", "--layer", "2", "--dump", "/tmp/n.st"} << 1
                             << "layers 0 to 1";
    QTest::newRow("no-words") << QStringList{"run", "--model", "h2", "--text", " ,", "--dump", "/tmp/n.st"} << 0 << "";
    QTest::newRow("empty-text") << QStringList{"run", "--model", "h2", "--text", "  ", "--dump", "/tmp/n.st"} << 1
                                << "no tokens";
    QTest::newRow("with-call") << QStringList{"run", "--model", "h2", "--call", "x", "--dump", "/tmp/n.st"} << 2
                               << "unknown option --call";
    QTest::newRow("tokenize-no-text") << QStringList{"tokenize"} << 2 << "give the text with --text T or --text-file";
    // A model trained here on a task reads letters: it was told "the Verdict models take --text".
    QTest::newRow("ids-to-a-task-model") << QStringList{"run", "--model", "induction-h4", "--ids", "1,2"} << 1
                                         << "letters such as 'A B C' for one trained on a task";
    QTest::newRow("top-to-a-verdict-model")
        << QStringList{"run", "--model", "h2", "--top"} << 1 << "words for a Verdict GPT";
}

void TestCliGpt::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, stderr_has);
    const Result r = cli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(stderr_has), qPrintable(r.err));
    if (code == 1)
        QCOMPARE(r.err.count('\n'), 1); // one sentence
    QFile::remove("/tmp/n.st");
}

QTEST_GUILESS_MAIN(TestCliGpt)
#include "test_cli_gpt.moc"
