// attention-lab-cli generate: greedy generation with and without the KV cache. Its JSON fields and steps, the
// cached and full forwards' logits within 1e-5 under --compare, --dump's caches readable with the shapes of
// (n_heads, T, head_dim) and equal to run --model's keys.heads and values.heads on the same tokens, refusals with
// their exit codes, and an unwritable dump refused with nothing written.
#include "common/cli_runner.h"
#include "common/golden_compare.h"
#include "io/safetensors.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QStringList ids_of(const QJsonArray& a)
{
    QStringList out;
    for (const auto& v : a)
        out << QString::number(v.toInteger());
    return out;
}

} // namespace

class TestCliGenerate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void json_fields_and_steps();
    void compare_agrees_data();
    void compare_agrees();
    void text_output();
    void window_model_cached_as_full();
    void dump_holds_the_caches();
    void refusals_data();
    void refusals();
    void unwritable_dump_writes_nothing_data();
    void unwritable_dump_writes_nothing();
};

void TestCliGenerate::json_fields_and_steps()
{
    const Result r = cli({"generate", "--model", "h4", "--text", "I HAD always thought", "--tokens", "6", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject j = r.json();
    QCOMPARE(j["model"].toString(), QString("verdict-gpt-h4"));
    const int prompt = static_cast<int>(j["prompt_ids"].toArray().size());
    QVERIFY(prompt >= 4);
    QCOMPARE(j["generated_ids"].toArray().size(), 6);
    QVERIFY(!j["generated_text"].toString().isEmpty());
    QVERIFY(j["text"].toString().startsWith("I HAD always"));
    const QJsonArray steps = j["steps"].toArray();
    QCOMPARE(steps.size(), 6);
    // 2 layers x (keys + values) x 128 floats of 4 bytes per token in the cache.
    for (int i = 0; i < steps.size(); ++i) {
        const QJsonObject s = steps[i].toObject();
        QCOMPARE(s["tokens_in_cache"].toInt(), prompt + i);
        QCOMPARE(s["cache_bytes"].toInteger(), qint64(2 * 2 * 128 * 4) * (prompt + i));
        QCOMPARE(s["id"].toInteger(), j["generated_ids"].toArray()[i].toInteger());
        QVERIFY(s["ms"].toDouble() >= 0);
    }
    QVERIFY(j["mean_ms_with_cache"].isDouble());
    QVERIFY(!j.contains("steps_without_cache"));
    QVERIFY(j["max_logit_difference"].isNull());
    QVERIFY(j["max_abs_logit"].isNull());
    QVERIFY(j["dump"].isNull());
}

void TestCliGenerate::compare_agrees_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("h4 text") << QStringList{"--model", "h4", "--text", "I HAD always thought", "--tokens", "20"};
    QTest::newRow("induction one letter to context")
        << QStringList{"--model", "induction-h4", "--ids", "3", "--tokens", "32"};
    QTest::newRow("h8 ids") << QStringList{"--model", "h8", "--ids", "5,60,200", "--tokens", "12"};
}

void TestCliGenerate::compare_agrees()
{
    QFETCH(QStringList, args);
    const Result r = cli(QStringList{"generate", "--compare", "--json"} + args);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject j = r.json();
    const double diff = j["max_logit_difference"].toDouble(-1);
    QVERIFY2(diff >= 0 && diff <= 1e-5, qPrintable(QString::number(diff)));
    QVERIFY(j["max_abs_logit"].toDouble() > diff);
    const QJsonArray with = j["steps"].toArray(), without = j["steps_without_cache"].toArray();
    QCOMPARE(with.size(), without.size());
    for (int i = 0; i < with.size(); ++i) {
        QCOMPARE(without[i].toObject()["id"], with[i].toObject()["id"]);
        QCOMPARE(without[i].toObject()["cache_bytes"].toInteger(), 0);
        QCOMPARE(without[i].toObject()["tokens_in_cache"], with[i].toObject()["tokens_in_cache"]);
    }
    QVERIFY(j["mean_ms_with_cache"].toDouble() > 0 && j["mean_ms_without_cache"].toDouble() > 0);
}

// A model trained with a sliding window (and 2 key/value groups): its file names window_size, the full forward
// masks the keys 6 or more tokens back, and a cached step reads only the 6 latest keys; both agree to 1e-5 past
// the window (a prompt of 8 tokens, 12 generated).
void TestCliGenerate::window_model_cached_as_full()
{
    QTemporaryDir dir;
    const QString model = dir.filePath("win.safetensors");
    const Result t = cli({"train", "--task", "induction", "--heads", "4", "--kv-groups", "2", "--window", "6",
                          "--steps", "30", "--save", model});
    QVERIFY2(t.code == 0, qPrintable(t.err));
    const Result r =
        cli({"generate", "--model", model, "--text", "A B C D E A B C", "--tokens", "12", "--compare", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const double diff = r.json()["max_logit_difference"].toDouble(-1);
    QVERIFY2(diff >= 0 && diff <= 1e-5, qPrintable(QString::number(diff)));
    const Result run =
        cli({"run", "--model", model, "--text", "A B C D E A B C", "--dump", dir.filePath("d.safetensors"), "--json"});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    QVERIFY2(run.json()["call"].toString().endsWith("num_kv_groups=2, qkv_bias=False, window_size=6)"),
             qPrintable(run.out));
}

void TestCliGenerate::text_output()
{
    const Result r =
        cli({"generate", "--model", "induction-h4", "--text", "A B C D A B", "--tokens", "4", "--compare"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    for (const char* line :
         {"with the KV cache", "without the cache", "generated ids: ", "mean ms per token with the cache",
          "mean ms per token without the cache", "largest |logit difference|"})
        QVERIFY2(r.out.contains(line), qPrintable(r.out));
    // The induction model continues the repeated run: after A B C D A B comes C D.
    QVERIFY2(r.out.contains("| C D"), qPrintable(r.out));
}

void TestCliGenerate::dump_holds_the_caches()
{
    QTemporaryDir dir;
    const QString dump = dir.filePath("cache.safetensors");
    const Result r = cli(
        {"generate", "--model", "induction-h4", "--text", "A B C D E A B", "--tokens", "5", "--dump", dump, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.json()["dump"].toString(), dump);
    // The cache holds the prompt and every generated token but the last: 7 + 5 - 1.
    const QStringList generated = ids_of(r.json()["generated_ids"].toArray());
    const attnlab::SafetensorsFile got = attnlab::read_safetensors(dump.toStdString());
    // The same tokens through run --model: each layer's keys.heads and values.heads, (1, n_heads, T, head_dim).
    QString letters = "A B C D E A B";
    for (int i = 0; i + 1 < generated.size(); ++i)
        letters += " " + QString(QChar('A' + generated[i].toInt()));
    for (int layer = 0; layer < 2; ++layer) {
        const QString run = dir.filePath(QString("run%1.safetensors").arg(layer));
        const Result rr = cli(
            {"run", "--model", "induction-h4", "--layer", QString::number(layer), "--text", letters, "--dump", run});
        QVERIFY2(rr.code == 0, qPrintable(rr.err));
        const attnlab::SafetensorsFile full = attnlab::read_safetensors(run.toStdString());
        for (const char* part : {"keys", "values"}) {
            const std::string name = std::string("layer.") + std::to_string(layer) + "." + part;
            const attnlab::Tensor* t = got.find(name);
            QVERIFY2(t, name.c_str());
            QCOMPARE(t->shape(), attnlab::Shape({4, 11, 8}));
            const attnlab::Tensor expected = full.find(std::string(part) + ".heads")->contiguous().view({4, 11, 8});
            const std::string diff = testing::compare_tensors(*t, expected, {1e-5, 1e-5});
            QVERIFY2(diff.empty(), (name + ": " + diff).c_str());
        }
    }
}

void TestCliGenerate::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("says");
    const QStringList h4{"--model", "h4"};
    QTest::newRow("no tokens option") << h4 + QStringList{"--ids", "1"} << 2 << "--tokens N";
    QTest::newRow("text and ids") << h4 + QStringList{"--ids", "1", "--text", "I", "--tokens", "2"} << 2
                                  << "one of them";
    QTest::newRow("no prompt") << h4 + QStringList{"--tokens", "2"} << 2 << "one of them";
    QTest::newRow("no-cache with compare")
        << h4 + QStringList{"--ids", "1", "--tokens", "2", "--no-cache", "--compare"} << 2 << "drop --no-cache";
    QTest::newRow("no-cache with dump") << h4 + QStringList{"--ids",      "1",      "--tokens",          "2",
                                                            "--no-cache", "--dump", "/tmp/x.safetensors"}
                                        << 2 << "--dump";
    QTest::newRow("unknown option") << h4 + QStringList{"--ids", "1", "--tokens", "2", "--top"} << 2 << "--top";
    QTest::newRow("zero tokens") << h4 + QStringList{"--ids", "1", "--tokens", "0"} << 1 << "--tokens";
    QTest::newRow("past the context") << h4 + QStringList{"--ids", "1,2,3,4", "--tokens", "62"} << 1
                                      << "ask for 1 to 61";
    QTest::newRow("id outside the vocabulary")
        << h4 + QStringList{"--ids", "1,1132", "--tokens", "2"} << 1 << "outside verdict-gpt-h4's vocabulary";
    QTest::newRow("not an id") << h4 + QStringList{"--ids", "1,x", "--tokens", "2"} << 1 << "--ids";
    QTest::newRow("empty text") << h4 + QStringList{"--text", "", "--tokens", "2"} << 1 << "no tokens";
    QTest::newRow("unknown model") << QStringList{"--model", "h5", "--ids", "1", "--tokens", "2"} << 1 << "h5";
}

void TestCliGenerate::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, says);
    const Result r = cli(QStringList{"generate"} + args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

void TestCliGenerate::unwritable_dump_writes_nothing_data()
{
    QTest::addColumn<QString>("target"); // inside the test's own folder
    QTest::newRow("missing folder") << "no/such/cache.safetensors";
    QTest::newRow("a folder") << "folder";
}

void TestCliGenerate::unwritable_dump_writes_nothing()
{
    QFETCH(QString, target);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("folder"));
    const QStringList before = QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    const Result r =
        cli({"generate", "--model", "h4", "--ids", "1,2", "--tokens", "3", "--dump", dir.filePath(target)});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
    QVERIFY(QDir(dir.filePath("folder")).isEmpty());
}

QTEST_GUILESS_MAIN(TestCliGenerate)
#include "test_cli_generate.moc"
