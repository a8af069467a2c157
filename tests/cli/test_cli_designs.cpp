// attention-lab-cli layout, equivalence and tradeoffs as a user runs them: the numbers in the
// JSON, PyTorch's block names for one case in full, and the exit codes of refused input and usage.
#include "common/cli_runner.h"

#include <QtTest>

namespace {

const QString kGpt2 = "MultiHeadAttention(768, 768, 1024, 0.0, 12)";

} // namespace

class TestCliDesigns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void layout_json_gpt2_small();
    void layout_json_matches_pytorch_case();
    void layout_json_missing_designs();
    void layout_text_table();
    void equivalence_json();
    void tradeoffs_by_width_json();
    void tradeoffs_by_heads_json();
    void exit_codes_data();
    void exit_codes();
};

void TestCliDesigns::layout_json_gpt2_small()
{
    const Result r = cli({"layout", "--call", kGpt2, "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = json_of(r);
    QCOMPARE(o["integrated"]["parameters"].toInteger(), 2360064);
    QCOMPARE(o["integrated"]["output_width"].toInteger(), 768);
    QCOMPARE(o["wrapper_same_call"]["parameters"].toInteger(), 21233664);
    QCOMPARE(o["wrapper_same_call"]["output_width"].toInteger(), 9216);
    QCOMPARE(o["wrapper_matched_width"]["parameters"].toInteger(), 1769472);
    QCOMPARE(o["wrapper_matched_width"]["output_width"].toInteger(), 768);
    QCOMPARE(o["wrapper_same_call"]["blocks"].toArray().size(), 36);
    QCOMPARE(o["wrapper_same_call"]["buffers"].toArray().size(), 12);
    const QJsonObject query = o["integrated"]["blocks"][0].toObject();
    QCOMPARE(query["name"].toString(), "W_query.weight");
    QCOMPARE(query["head_slices"][11]["begin"].toInteger(), 704);
    QCOMPARE(query["head_slices"][11]["end"].toInteger(), 768);
    QCOMPARE(o["integrated"]["buffers"][0]["name"].toString(), "mask");
    QCOMPARE(o["integrated"]["buffers"][0]["parameters"].toInteger(), 0);
}

void TestCliDesigns::layout_json_matches_pytorch_case()
{
    QFile file(ATTNLAB_TEST_DATA_DIR "/layout_cases.json");
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject want;
    for (const QJsonValue& c : QJsonDocument::fromJson(file.readAll()).object()["cases"].toArray())
        if (c["name"].toString() == "odd_widths_bias")
            want = c.toObject();
    QVERIFY(!want.isEmpty());
    const QJsonObject got = json_of(cli({"layout", "--call", want["call"].toString(), "--json"}));
    for (const char* key : {"integrated", "wrapper_same_call", "wrapper_matched_width"}) {
        const QJsonObject g = got[key].toObject(), w = want[key].toObject();
        QCOMPARE(g["parameters"].toInteger(), w["parameters"].toInteger());
        QCOMPARE(g["output_width"].toInteger(), w["output_width"].toInteger());
        const QJsonArray blocks = g["blocks"].toArray(), torch = w["blocks"].toArray();
        QCOMPARE(blocks.size(), torch.size());
        for (qsizetype i = 0; i < blocks.size(); ++i)
            for (const char* field : {"name", "shape", "parameters"})
                QCOMPARE(blocks[i][field], torch[i][field]);
    }
}

void TestCliDesigns::layout_json_missing_designs()
{
    const Result r = cli({"layout", "--call", "MultiHeadAttention(8, 10, 4, 0.0, 3)", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = json_of(r);
    QCOMPARE(o["integrated"]["exists"].toBool(), false);
    QVERIFY(o["integrated"]["why_not"].toString().contains("cannot be split evenly"));
    QVERIFY(o["integrated"]["parameters"].isNull());
    QCOMPARE(o["wrapper_matched_width"]["exists"].toBool(), false);
    QCOMPARE(o["wrapper_same_call"]["parameters"].toInteger(), 720); // torch: 3 heads * 3 * 10 * 8
    QCOMPARE(o["wrapper_same_call"]["output_width"].toInteger(), 30);
}

void TestCliDesigns::layout_text_table()
{
    const Result r = cli({"layout", "--call", "MultiHeadAttentionWrapper(768, 768, 1024, 0.0, 12)"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("note: the wrapper call"));
    QVERIFY(r.out.contains("2,360,064"));
    QVERIFY(r.out.contains("21,233,664"));
    QVERIFY(r.out.contains("output width 9,216"));
    QVERIFY(r.out.contains("mask (buffer)"));
    QVERIFY(r.out.contains("12 slices of 64 rows"));
}

void TestCliDesigns::equivalence_json()
{
    const Result r = cli({"equivalence", "--call", "MultiHeadAttention(5, 6, 9, 0.0, 3, qkv_bias=True)", "--tokens",
                          "7", "--batch", "2", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject o = json_of(r);
    QVERIFY(o["max_abs_diff"].toDouble() < 1e-5);
    QVERIFY(o["output_max_abs_diff"].toDouble() < 1e-4);
    QCOMPARE(o["equivalent"].toBool(), true);
    QCOMPARE(o["input_shape"].toArray(), (QJsonArray{2, 7, 5}));
    QVERIFY(o["wrapper_call"].toString().startsWith("MultiHeadAttentionWrapper(d_in=5, d_out=2"));
    const QJsonArray heads = o["heads"].toArray();
    QCOMPARE(heads.size(), 3);
    QCOMPARE(heads[2]["query_rows"].toArray(), (QJsonArray{4, 6}));
    QCOMPARE(heads[2]["copies"].toArray().size(), 6);
    QCOMPARE(heads[2]["copies"][1]["wrapper"].toString(), "heads.2.W_query.bias");
}

void TestCliDesigns::tradeoffs_by_width_json()
{
    const Result r = cli({"tradeoffs", "--d-out", "768", "--tokens", "1024", "--batch", "2", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonArray rows = json_of(r)["rows"].toArray();
    QCOMPARE(rows.size(), 18);
    const QJsonObject twelve = rows[6].toObject();
    QCOMPARE(twelve["num_heads"].toInteger(), 12);
    QCOMPARE(twelve["head_dim"].toInteger(), 64);
    QCOMPARE(twelve["parameters"].toInteger(), 2360064);
    QCOMPARE(twelve["multiply_adds"]["projections"].toInteger(), 3ll * 2 * 1024 * 768 * 768);
    QCOMPARE(twelve["multiply_adds"]["out_proj"].toInteger(), 2ll * 1024 * 768 * 768);
    QCOMPARE(twelve["score_bytes"].toInteger(), 4ll * 2 * 12 * 1024 * 1024);
}

void TestCliDesigns::tradeoffs_by_heads_json()
{
    const Result r = cli({"tradeoffs", "--num-heads", "12", "--d-out-min", "760", "--d-out-max", "779", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonArray rows = json_of(r)["rows"].toArray();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0]["d_out"].toInteger(), 768);
    QCOMPARE(rows[0]["head_dim"].toInteger(), 64);
    QCOMPARE(rows[0]["parameters"].toInteger(), 2360064);
}

void TestCliDesigns::exit_codes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("stderr_has");
    QTest::newRow("layout-missing-call") << QStringList{"layout"} << 2 << "--call is required";
    QTest::newRow("layout-causal") << QStringList{"layout", "--call", "CausalAttention(3, 2, 6, 0.0)"} << 1
                                   << "not CausalAttention";
    QTest::newRow("layout-bad-syntax") << QStringList{"layout", "--call", "MultiHeadAttention(3, 2"} << 1 << "^";
    QTest::newRow("equivalence-not-divisible")
        << QStringList{"equivalence", "--call", "MultiHeadAttention(768, 770, 1024, 0.0, 12)"} << 1 << "num_heads = 11";
    QTest::newRow("equivalence-tokens") << QStringList{"equivalence", "--call", kGpt2, "--tokens", "0"} << 1
                                        << "--tokens 0 is out of range";
    QTest::newRow("tradeoffs-no-direction") << QStringList{"tradeoffs", "--tokens", "4"} << 2 << "either --d-out";
    QTest::newRow("tradeoffs-both") << QStringList{"tradeoffs", "--d-out", "8", "--num-heads", "2"} << 2
                                    << "either --d-out";
    QTest::newRow("tradeoffs-no-tokens") << QStringList{"tradeoffs", "--d-out", "8"} << 2 << "needs --tokens";
    QTest::newRow("tradeoffs-zero-width")
        << QStringList{"tradeoffs", "--d-out", "0", "--tokens", "4"} << 1 << "--d-out 0 is out of range";
    QTest::newRow("tradeoffs-range") << QStringList{"tradeoffs", "--num-heads", "4", "--d-out-max", "1048576"} << 1
                                     << "narrow the range";
    QTest::newRow("tradeoffs-unknown-option")
        << QStringList{"tradeoffs", "--d-out", "8", "--heads", "2"} << 2 << "unknown option --heads";
    QTest::newRow("tradeoffs-text") << QStringList{"tradeoffs", "--d-out", "6", "--tokens", "4"} << 0 << "";
}

void TestCliDesigns::exit_codes()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, stderr_has);
    const Result r = cli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(stderr_has), qPrintable(r.err));
    if (code == 0)
        QVERIFY(r.err.isEmpty());
    else if (!args.join(' ').contains("MultiHeadAttention(3, 2")) // a syntax error adds the caret lines
        QCOMPARE(r.err.count('\n'), 1);
}

QTEST_GUILESS_MAIN(TestCliDesigns)
#include "test_cli_designs.moc"
