// GroupedQueryAttention through the commands that take a call, as a user runs them: validate names the
// groups, trace lists keys.repeated as a contiguous copy, follow finds a key in every query head of its
// group, layout draws the narrower key/value blocks beside MultiHeadAttention and the wrappers, equivalence
// slices it into a wrapper whose heads share keys, and bad groups are one sentence with exit code 1.
#include "common/cli_runner.h"

#include <QtTest>

namespace {

const QString kGqa = "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4)";

QJsonObject stageNamed(const QJsonObject& trace, const QString& name)
{
    for (const QJsonValue& s : trace.value("stages").toArray())
        if (s.toObject().value("name").toString() == name)
            return s.toObject();
    return {};
}

} // namespace

class TestCliGroupedQuery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void validateNamesTheGroups();
    void traceListsTheRepeatedCopies();
    void followFindsAKeyInEveryHeadOfItsGroup();
    void layoutDrawsTheNarrowerBlocks();
    void equivalenceSharesKeysWithinAGroup();
    void badGroupsAreRefused_data();
    void badGroupsAreRefused();
};

void TestCliGroupedQuery::validateNamesTheGroups()
{
    const Result r = cli({"validate", "--call", kGqa, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject o = r.json();
    QCOMPARE(o["class"].toString(), QString("GroupedQueryAttention"));
    QCOMPARE(o["num_kv_groups"].toInteger(), 4);
    QCOMPARE(o["group_size"].toInteger(), 3);
    QCOMPARE(o["head_dim"].toInteger(), 64);
    QCOMPARE(o["call"].toString(), QString("GroupedQueryAttention(d_in=768, d_out=768, context_length=1024, "
                                           "dropout=0.0, num_heads=12, num_kv_groups=4, qkv_bias=False)"));
    // Hugging Face's name for the same setting binds to it.
    const Result hf =
        cli({"validate", "--call", "GroupedQueryAttention(768, 768, 1024, 0.0, num_heads=12, num_key_value_heads=4)"});
    QVERIFY2(hf.code == 0, qPrintable(hf.err));
    QVERIFY2(hf.out.contains("group_size      3"), qPrintable(hf.out));
}

void TestCliGroupedQuery::traceListsTheRepeatedCopies()
{
    const Result r = cli(
        {"trace", "--call", "GroupedQueryAttention(6, 8, 8, 0.0, 4, 2)", "--tokens", "5", "--batch", "2", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject t = r.json();
    const QJsonObject keys = stageNamed(t, "keys.heads"), rep = stageNamed(t, "keys.repeated");
    QVERIFY2(!keys.isEmpty() && !rep.isEmpty(), qPrintable(r.out.left(2000)));
    QCOMPARE(keys["shape"].toArray(), (QJsonArray{2, 2, 5, 2}));
    QCOMPARE(rep["shape"].toArray(), (QJsonArray{2, 4, 5, 2}));
    QCOMPARE(rep["strides"].toArray(), (QJsonArray{40, 10, 2, 1})); // a contiguous copy: no stride 0
    QCOMPARE(rep["contiguous"].toBool(), true);
    QCOMPARE(stageNamed(t, "values.repeated")["shape"].toArray(), (QJsonArray{2, 4, 5, 2}));
    QCOMPARE(stageNamed(t, "keys")["shape"].toArray(), (QJsonArray{2, 5, 4}));
}

void TestCliGroupedQuery::followFindsAKeyInEveryHeadOfItsGroup()
{
    const Result r = cli({"follow", "--call", "GroupedQueryAttention(6, 8, 8, 0.0, 4, 2)", "--tokens", "5", "--stage",
                          "keys.heads", "--index", "0,1,3,0", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QList<int> heads;
    for (const QJsonValue& p : r.json().value("places").toArray()) {
        const QJsonObject o = p.toObject();
        if (o["stage"].toString() == "keys.repeated") {
            QCOMPARE(o["relation"].toString(), QString("copy"));
            heads << o["index"].toArray()[1].toInt();
        }
    }
    std::sort(heads.begin(), heads.end());
    QCOMPARE(heads, (QList<int>{2, 3})); // key/value head 1 serves query heads 2 and 3
    QVERIFY(qAbs(r.json().value("recomputed").toDouble() - r.json().value("value").toDouble()) <= 1e-5);
}

void TestCliGroupedQuery::layoutDrawsTheNarrowerBlocks()
{
    const Result r = cli({"layout", "--call", kGqa, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject o = r.json();
    const QJsonObject g = o["grouped"].toObject();
    QCOMPARE(g["blocks"][1]["name"].toString(), QString("W_key.weight"));
    QCOMPARE(g["blocks"][1]["shape"].toArray(), (QJsonArray{256, 768}));
    QCOMPARE(g["blocks"][1]["head_slices"].toArray().size(), 4);
    // MultiHeadAttention from the same arguments: 2 × (768 − 256) × 768 parameters more.
    QCOMPARE(o["integrated"]["parameters"].toInteger() - g["parameters"].toInteger(), 2 * 512 * 768);
    QCOMPARE(g["output_width"].toInteger(), 768);
    QVERIFY(o.contains("wrapper_same_call") && o.contains("wrapper_matched_width"));
}

void TestCliGroupedQuery::equivalenceSharesKeysWithinAGroup()
{
    const Result r = cli({"equivalence", "--call", "GroupedQueryAttention(6, 8, 8, 0.0, 4, 2)", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject o = r.json();
    QVERIFY(o["equivalent"].toBool());
    // Heads 2 and 3 copy the same key rows: key/value head 1's.
    const auto keyRows = [&](int head) {
        for (const QJsonValue& c : o["heads"][head]["copies"].toArray())
            if (c["integrated"].toString() == "W_key.weight")
                return c["rows"].toArray();
        return QJsonArray{};
    };
    QCOMPARE(keyRows(2), (QJsonArray{2, 4}));
    QCOMPARE(keyRows(3), (QJsonArray{2, 4}));
    QCOMPARE(keyRows(0), (QJsonArray{0, 2}));
}

void TestCliGroupedQuery::badGroupsAreRefused_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QString>("says");
    QTest::newRow("not-dividing") << "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 5)"
                                  << "so use num_kv_groups = 4 or 6.";
    QTest::newRow("more-than-heads") << "GroupedQueryAttention(8, 8, 8, 0.0, 4, 8)"
                                     << "so use num_kv_groups = 4.";
    QTest::newRow("zero") << "GroupedQueryAttention(8, 8, 8, 0.0, 4, 0)"
                          << "num_kv_groups = 0 must be a positive";
    QTest::newRow("missing") << "GroupedQueryAttention(8, 8, 8, 0.0, 4)"
                             << "missing 1 required argument";
}

void TestCliGroupedQuery::badGroupsAreRefused()
{
    QFETCH(QString, call);
    QFETCH(QString, says);
    for (const QString& command : {QString("validate"), QString("trace")}) {
        const Result r = cli({command, "--call", call});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(says), qPrintable(command + ": " + r.err));
        QVERIFY2(!r.err.contains("terminate") && !r.err.contains("what()"), qPrintable(r.err));
    }
}

QTEST_GUILESS_MAIN(TestCliGroupedQuery)
#include "test_cli_grouped_query.moc"
