// attention-lab-cli kv-cache as a user runs it: the example (17.18 GB with 32 key/value heads, 4.29 GB
// with 8), GPT-2 small's bytes per token, Mistral's sliding window, every published row recomputed from its
// own fields, a config's JSON fed back as sizes, a call's module, and refused input and usage.
#include "common/cli_runner.h"

#include <QJsonArray>
#include <QtTest>

namespace {

// d 4096, 32 heads (head_dim 128), 32 layers, 32,768 tokens, bf16.
const QStringList kExample = {"kv-cache", "--d-model", "4096", "--heads", "32", "--layers", "32", "--context", "32768"};

qint64 bytes_per_value(const QString& dtype)
{
    return dtype == "f32" ? 4 : 2;
}

// A config's bytes from its JSON fields alone: batch x min(tokens, window) x layers x 2 x kv_heads x head_dim x bytes.
qint64 recomputed(const QJsonObject& config, qint64 tokens, qint64 batch, qint64 bytes)
{
    const QJsonValue window = config["sliding_window"];
    const qint64 cached = window.isNull() ? tokens : std::min(tokens, window.toInteger());
    return batch * cached * config["layers"].toInteger() * 2 * config["num_kv_heads"].toInteger() *
           config["head_dim"].toInteger() * bytes;
}

} // namespace

class TestCliKvCache : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void example_figures_data();
    void example_figures();
    void example_text();
    void gpt2_small_per_token_data();
    void gpt2_small_per_token();
    void grouped_query_call();
    void mistral_sliding_window();
    void every_preset_recomputed_data();
    void every_preset_recomputed();
    void json_round_trip();
    void refusals_data();
    void refusals();
};

void TestCliKvCache::example_figures_data()
{
    QTest::addColumn<QString>("kv_heads");
    QTest::addColumn<qint64>("bytes");
    // 32 layers x 2 x G x 128 x 2 bytes x 32,768 tokens: 2^34 with G = 32, 2^32 with G = 8.
    QTest::newRow("mha-32") << "32" << qint64{17179869184};
    QTest::newRow("gqa-8") << "8" << qint64{4294967296};
}

void TestCliKvCache::example_figures()
{
    QFETCH(QString, kv_heads);
    QFETCH(qint64, bytes);
    const Result r = cli(kExample + QStringList{"--kv-heads", kv_heads, "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = r.json();
    QCOMPARE(o["cache"]["bytes"].toInteger(), bytes);
    QCOMPARE(o["cache"]["gb"].toDouble(), double(bytes) / 1e9);
    QCOMPARE(o["cache"]["gib"].toDouble(), double(bytes) / (1024.0 * 1024 * 1024));
    // The rows hold both figures whichever count was asked for, the asked one marked.
    bool asked = false;
    for (const QJsonValue row : o["rows"].toArray()) {
        if (row["kv_heads"].toInteger() == 32)
            QCOMPARE(row["cache"]["bytes"].toInteger(), qint64{17179869184});
        if (row["kv_heads"].toInteger() == 8)
            QCOMPARE(row["cache"]["bytes"].toInteger(), qint64{4294967296});
        if (row["is_asked"].toBool()) {
            QCOMPARE(row["kv_heads"].toInteger(), kv_heads.toLongLong());
            asked = true;
        }
    }
    QVERIFY(asked);
    QCOMPARE(o["rows"].toArray().size(), 6); // 32, 16, 8, 4, 2, 1
}

void TestCliKvCache::example_text()
{
    const Result r = cli(kExample + QStringList{"--dtype", "bf16"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("17179869184 bytes for 1 x 32768 tokens = 17.18 GB = 16.00 GiB"), qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("\\n +8 +4 +GQA +131072 +4294967296 +4\\.29 +4\\.00 ")),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("\\n +1 +32 +MQA ")), qPrintable(r.out));
    QVERIFY(r.err.isEmpty());
}

void TestCliKvCache::gpt2_small_per_token_data()
{
    QTest::addColumn<QStringList>("args");
    // 12 layers x 2 x 768 (12 heads of 64) x 4 bytes = 73,728 bytes per token in f32.
    QTest::newRow("preset") << QStringList{"--preset", "gpt2-small"};
    QTest::newRow("sizes") << QStringList{"--d-model", "768", "--heads", "12", "--layers", "12", "--context", "1024"};
    QTest::newRow("call") << QStringList{"--call", "MultiHeadAttention(768, 768, 1024, 0.0, 12)", "--layers", "12"};
}

void TestCliKvCache::gpt2_small_per_token()
{
    QFETCH(QStringList, args);
    const Result r = cli(QStringList{"kv-cache"} + args + QStringList{"--dtype", "f32", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = r.json();
    QCOMPARE(o["bytes_per_token"].toInteger(), qint64{12 * 2 * 768 * 4});
    QCOMPARE(o["tokens"].toInteger(), qint64{1024});
    QCOMPARE(o["cache"]["bytes"].toInteger(), qint64{12 * 2 * 768 * 4} * 1024);
}

// A GroupedQueryAttention call caches only its num_kv_groups key/value heads: 12 layers x 2 x 4 heads of 64
// x 4 bytes, a third of the MultiHeadAttention call's 73,728 bytes per token.
void TestCliKvCache::grouped_query_call()
{
    const Result r = cli({"kv-cache", "--call", "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4)", "--layers", "12",
                          "--dtype", "f32", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject o = r.json();
    QCOMPARE(o["bytes_per_token"].toInteger(), qint64{12 * 2 * 4 * 64 * 4});
    QCOMPARE(o["config"]["num_kv_heads"].toInteger(), qint64{4});
    QCOMPARE(o["cache"]["bytes"].toInteger(), qint64{12 * 2 * 4 * 64 * 4} * 1024);
    // With a sliding window of 256 tokens the cache keeps at most 256 of the 1024.
    const Result w = cli({"kv-cache", "--call", "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4, window_size=256)",
                          "--layers", "12", "--dtype", "f32", "--json"});
    QVERIFY2(w.code == 0, qPrintable(w.err));
    const QJsonObject windowed = w.json();
    QCOMPARE(windowed["cached_tokens"].toInteger(), qint64{256});
    QCOMPARE(windowed["cache"]["bytes"].toInteger(), qint64{12 * 2 * 4 * 64 * 4} * 256);
}

void TestCliKvCache::mistral_sliding_window()
{
    const Result r = cli({"kv-cache", "--preset", "mistral-7b-v0.1", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = r.json();
    const qint64 window = o["config"]["sliding_window"].toInteger();
    QCOMPARE(window, qint64{4096});
    QCOMPARE(o["tokens"].toInteger(), qint64{32768});
    QCOMPARE(o["cached_tokens"].toInteger(), window);
    QCOMPARE(o["cache"]["bytes"].toInteger(), window * o["bytes_per_token"].toInteger());
    // Below the window every token is kept.
    const Result shorter = cli({"kv-cache", "--preset", "mistral-7b-v0.1", "--context", "1000", "--json"});
    const QJsonObject within = shorter.json();
    QCOMPARE(within["cache"]["bytes"].toInteger(), 1000 * o["bytes_per_token"].toInteger());
    const Result text = cli({"kv-cache", "--preset", "mistral-7b-v0.1"});
    QVERIFY2(text.out.contains("the cache holds only the last 4096 of the 32768 tokens"), qPrintable(text.out));
}

void TestCliKvCache::every_preset_recomputed_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("tokens"); // 0: each config's context_length
    QTest::newRow("defaults") << QStringList{} << "bf16" << qint64{1} << qint64{0};
    QTest::newRow("f32-batch-2-5000") << QStringList{"--dtype", "f32", "--batch", "2", "--context", "5000"} << "f32"
                                      << qint64{2} << qint64{5000};
    QTest::newRow("presets-flag-f16") << QStringList{"--presets", "--dtype", "f16"} << "f16" << qint64{1} << qint64{0};
}

void TestCliKvCache::every_preset_recomputed()
{
    QFETCH(QStringList, args);
    QFETCH(QString, dtype);
    QFETCH(qint64, batch);
    QFETCH(qint64, tokens);
    const Result r = cli(QStringList{"kv-cache"} + args + QStringList{"--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = r.json();
    QCOMPARE(o["dtype"].toString(), dtype);
    const QJsonArray configs = o["configs"].toArray();
    QCOMPARE(configs.size(), 14);
    for (const QJsonValue v : configs) {
        const QJsonObject c = v.toObject();
        const qint64 t = tokens > 0 ? tokens : c["context_length"].toInteger();
        QCOMPARE(c["tokens"].toInteger(), t);
        QVERIFY2(c["num_heads"].toInteger() % c["num_kv_heads"].toInteger() == 0, qPrintable(c["name"].toString()));
        QVERIFY2(!c["source"].toString().isEmpty(), qPrintable(c["name"].toString()));
        QCOMPARE(c["cache"]["bytes"].toInteger(), recomputed(c, t, batch, bytes_per_value(dtype)));
        QCOMPARE(c["bytes_per_token"].toInteger(), recomputed(c, 1, 1, bytes_per_value(dtype)));
    }
}

// A published config's JSON fields given back as sizes count the same cache, row by row.
void TestCliKvCache::json_round_trip()
{
    for (const QString& name : {QStringLiteral("gemma-2b"), QStringLiteral("llama-3-70b")}) {
        const Result preset = cli({"kv-cache", "--preset", name, "--json"});
        QCOMPARE(preset.code, 0);
        const QJsonObject p = preset.json(), c = p["config"].toObject();
        const auto field = [&c](const char* key) { return QString::number(c[key].toInteger()); };
        const Result sizes = cli({"kv-cache", "--d-model", field("d_model"), "--heads", field("num_heads"), "--layers",
                                  field("layers"), "--kv-heads", field("num_kv_heads"), "--head-dim", field("head_dim"),
                                  "--context", field("context_length"), "--json"});
        QCOMPARE(sizes.code, 0);
        const QJsonObject q = sizes.json();
        QCOMPARE(q["cache"], p["cache"]);
        const QJsonArray a = p["rows"].toArray(), b = q["rows"].toArray();
        QCOMPARE(a.size(), b.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i]["cache"], a[i]["cache"]);
            QCOMPARE(b[i]["kind"], a[i]["kind"]);
            // The sizes' own count is every head (MHA); the preset's is the one --kv-heads asked for.
            QCOMPARE(b[i]["is_asked"], a[i]["is_config"]);
        }
    }
}

void TestCliKvCache::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown-preset") << QStringList{"--preset", "llama-9"} << 1
                                    << "not a published config here; give one of gpt2-small";
    QTest::newRow("kv-heads-not-dividing")
        << kExample.mid(1) + QStringList{"--kv-heads", "5"} << 1 << "--kv-heads 5 does not divide the 32 query heads";
    QTest::newRow("kv-heads-nearest") << QStringList{"--preset", "falcon-7b", "--kv-heads", "8"} << 1
                                      << "the nearest that do are 1 and 71";
    QTest::newRow("kv-heads-zero") << QStringList{"--preset", "gpt2-small", "--kv-heads", "0"} << 1
                                   << "--kv-heads 0 is out of range";
    QTest::newRow("context-negative") << QStringList{"--preset", "gpt2-small", "--context", "-5"} << 1
                                      << "--context -5 is out of range";
    QTest::newRow("context-beyond-bound") << QStringList{"--preset", "gpt2-small", "--context", "1099511627777"} << 1
                                          << "a whole number from 1 to 1099511627776";
    QTest::newRow("bytes-overflow") << QStringList{"--preset",  "llama-2-70b",   "--batch", "1048576",
                                                   "--context", "1099511627776", "--dtype", "f32"}
                                    << 1 << "would exceed 2^63 - 1";
    QTest::newRow("presets-overflow") << QStringList{"--batch", "1048576", "--context", "1099511627776"} << 1
                                      << "would exceed 2^63 - 1";
    QTest::newRow("unknown-dtype") << QStringList{"--preset", "gpt2-small", "--dtype", "f64"} << 1
                                   << "give f32 (4 bytes), bf16 or f16";
    QTest::newRow("d-model-not-split") << QStringList{"--d-model", "100", "--heads",   "3",
                                                      "--layers",  "2",   "--context", "8"}
                                       << 1 << "--d-model 100 does not split into 3 heads";
    QTest::newRow("simple-self-attention")
        << QStringList{"--call", "SimpleSelfAttention()"} << 1 << "no key or value projection";
    QTest::newRow("call-heads-not-splitting")
        << QStringList{"--call", "MultiHeadAttention(768, 770, 1024, 0.0, 12)"} << 1 << "770";
    QTest::newRow("two-shapes") << QStringList{"--preset", "gpt2-small", "--d-model", "8"} << 2 << "give one of";
    QTest::newRow("sizes-missing-context")
        << QStringList{"--d-model", "8", "--heads", "2", "--layers", "1"} << 2 << "needs --context";
    QTest::newRow("layers-with-preset") << QStringList{"--preset", "gpt2-small", "--layers", "2"} << 2
                                        << "--layers does not go with --preset";
    QTest::newRow("presets-and-preset") << QStringList{"--presets", "--preset", "gpt2-small"} << 2 << "--presets";
    QTest::newRow("unknown-option") << QStringList{"--preset", "gpt2-small", "--tokens", "4"} << 2
                                    << "unknown option --tokens";
}

void TestCliKvCache::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, says);
    const Result r = cli(QStringList{"kv-cache"} + args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    if (!args.join(' ').contains("770")) // validate's sentence for a call is its own
        QVERIFY2(r.err.count('\n') == 1 && r.err.trimmed().endsWith('.'), qPrintable(r.err));
}

QTEST_GUILESS_MAIN(TestCliKvCache)
#include "test_cli_kv_cache.moc"
