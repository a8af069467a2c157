// `follow` as a user runs it: the element's value, the stages where it lives (same storage or a copy,
// with offsets that are Σ index × stride), its sources and the value recomputed from them; refused
// requests in one sentence with exit 1.
#include "common/cli_runner.h"

#include <QJsonArray>
#include <QtTest>

namespace {

const QString kToy = QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)");
const QString kGpt2 = QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)");

QJsonObject placeIn(const QJsonObject& j, const QString& stage)
{
    for (const auto& p : j.value("places").toArray())
        if (p.toObject().value("stage").toString() == stage)
            return p.toObject();
    return {};
}

QJsonArray ints(std::initializer_list<int> v)
{
    QJsonArray a;
    for (int x : v)
        a.append(x);
    return a;
}

} // namespace

class TestCliFollow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void follows_data();
    void follows();
    void sourcesOfAScore();
    void layoutStagesNameTheirComputation();
    void refusals_data();
    void refusals();
};

void TestCliFollow::follows_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("other");
    QTest::addColumn<QJsonArray>("there");
    QTest::addColumn<QString>("relation");
    QTest::newRow("toy-heads-to-queries")
        << QStringList{"--call", kToy, "--input", "book", "--stage", "queries.heads", "--index", "0,1,4,0"} << "queries"
        << ints({0, 4, 1}) << "same storage";
    QTest::newRow("gpt2-merged-to-heads")
        << QStringList{"--call", kGpt2, "--tokens", "4", "--stage", "context.merged", "--index", "0,3,100"}
        << "context.heads" << ints({0, 1, 3, 36}) << "copy";
    QTest::newRow("gpt2-transposed-to-heads")
        << QStringList{"--call", kGpt2, "--tokens", "4", "--stage", "context.transposed", "--index", "0,2,11,63"}
        << "context.heads" << ints({0, 11, 2, 63}) << "same storage";
    QTest::newRow("wrapper-output-to-head") << QStringList{"--call",  "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)",
                                                           "--input", "book",
                                                           "--stage", "output",
                                                           "--index", "0,5,3"}
                                            << "heads.1.context" << ints({0, 5, 1}) << "copy";
}

void TestCliFollow::follows()
{
    QFETCH(QStringList, args);
    QFETCH(QString, other);
    QFETCH(QJsonArray, there);
    QFETCH(QString, relation);
    const Result r = cli(QStringList{"follow"} + args + QStringList{"--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject j = r.json();
    const QJsonObject p = placeIn(j, other);
    QVERIFY2(!p.isEmpty(), qPrintable(r.out));
    QCOMPARE(p.value("index").toArray(), there);
    QCOMPARE(p.value("relation").toString(), relation);
    QCOMPARE(j.value("places").toArray().first().toObject().value("relation").toString(), QString("itself"));
    QVERIFY(qAbs(j.value("recomputed").toDouble() - j.value("value").toDouble()) <=
            1e-5 + 1e-4 * qAbs(j.value("value").toDouble()));
    // offset = Σ index × stride (these stages start at their storage's first float)
    qint64 offset = 0;
    const QJsonArray index = p.value("index").toArray(), strides = p.value("strides").toArray();
    for (int a = 0; a < index.size(); ++a)
        offset += index[a].toInteger() * strides[a].toInteger();
    QCOMPARE(p.value("storage_offset").toInteger(), offset);
}

void TestCliFollow::sourcesOfAScore()
{
    const Result r =
        cli({"follow", "--call", kGpt2, "--tokens", "5", "--stage", "attn_scores", "--index", "0,7,4,2", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject s = r.json().value("sources").toObject();
    QCOMPARE(s.value("combine").toString(), QString("dot"));
    const QJsonArray ops = s.value("operands").toArray();
    QCOMPARE(ops.size(), 2);
    QCOMPARE(ops[0].toObject().value("tensor").toString(), QString("queries.heads"));
    QCOMPARE(ops[1].toObject().value("tensor").toString(), QString("keys.heads"));
    const QJsonArray q = ops[0].toObject().value("indices").toArray(), k = ops[1].toObject().value("indices").toArray();
    QCOMPARE(q.size(), 64); // head_dim terms
    QCOMPARE(q[5].toArray(), ints({0, 7, 4, 5}));
    QCOMPARE(k[5].toArray(), ints({0, 7, 2, 5}));
    // The terms' sum is the score.
    double sum = 0;
    const QJsonArray qv = ops[0].toObject().value("values").toArray(), kv = ops[1].toObject().value("values").toArray();
    for (int d = 0; d < 64; ++d)
        sum += qv[d].toDouble() * kv[d].toDouble();
    QVERIFY(qAbs(sum - r.json().value("value").toDouble()) <= 1e-4 * (1 + qAbs(sum)));
}

// Issue 43.5: a view or a copy only moved the number; follow says where it was computed and from what.
void TestCliFollow::layoutStagesNameTheirComputation()
{
    Result r = cli({"follow", "--call", kGpt2, "--tokens", "3", "--stage", "queries.heads", "--index", "0,1,2,0"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("The number itself was computed at queries (0, 2, 64), as a projection: the row of x "
                            "times row 64 of W_query.weight, summed over d_in = 768."),
             qPrintable(r.out));
    QVERIFY2(r.out.contains("  W_query.weight (64, 0) = "), qPrintable(r.out));
    QVERIFY2(r.out.contains("Recomputed from that computation alone: "), qPrintable(r.out));
    r = cli({"follow", "--call", kToy, "--stage", "context.merged", "--index", "0,3,1", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject at = r.json().value("computed_at").toObject();
    QCOMPARE(at.value("stage").toString(), QString("context.heads"));
    QCOMPARE(at.value("index").toArray(), ints({0, 1, 3, 0}));
    const QJsonObject how = at.value("sources").toObject();
    QCOMPARE(how.value("combine").toString(), QString("dot"));
    const QJsonArray ops = how.value("operands").toArray();
    QCOMPARE(ops[0].toObject().value("tensor").toString(), QString("attn_weights"));
    QCOMPARE(ops[1].toObject().value("tensor").toString(), QString("values.heads"));
    double sum = 0; // row 3 of head 1's weights times column 0 of its values
    const QJsonArray w = ops[0].toObject().value("values").toArray(), v = ops[1].toObject().value("values").toArray();
    QCOMPARE(w.size(), 6);
    for (int t = 0; t < 6; ++t)
        sum += w[t].toDouble() * v[t].toDouble();
    QVERIFY(qAbs(sum - r.json().value("value").toDouble()) <= 1e-5 * (1 + qAbs(sum)));
    // A stage that computes the number itself has nothing more to name.
    r = cli({"follow", "--call", kToy, "--stage", "queries", "--index", "0,2,1", "--json"});
    QVERIFY(!r.json().contains("computed_at"));
}

void TestCliFollow::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("no-such-stage") << QStringList{"--call", kToy, "--stage", "attn", "--index", "0"}
                                   << "no stage 'attn'";
    QTest::newRow("outside") << QStringList{"--call", kToy, "--stage", "queries", "--index", "0,6,0"} << "(1, 6, 2)";
    QTest::newRow("not-numbers") << QStringList{"--call", kToy, "--stage", "queries", "--index", "0,x"} << "--index";
    QTest::newRow("trailing-comma") << QStringList{"--call", kToy, "--stage", "queries", "--index", "0,1,"} << "commas";
    QTest::newRow("negative") << QStringList{"--call", kToy, "--stage", "queries", "--index", "0,-1,0"} << "--index";
    // A huge or broken --stage is quoted as a message may: cut short with the rest counted, bytes that are not
    // UTF-8 escaped (it echoed 100 KB whole and wrote raw bytes to stderr; a test argument is always UTF-8 here).
    QTest::newRow("huge-stage") << QStringList{"--call", kToy, "--stage", QString(100000, 'x'), "--index", "0"}
                                << "more characters";
    QTest::newRow("stage-beyond-ascii-with-json")
        << QStringList{"--call", kToy, "--stage", QString::fromLatin1("ab\xff"), "--index", "0", "--json"}
        << "no stage 'ab";
    QTest::newRow("bad-call") << QStringList{"--call",  "MultiHeadAttention(3, 3, 6, 0.0, 2)",
                                             "--stage", "queries",
                                             "--index", "0,0,0"}
                              << "num_heads";
}

void TestCliFollow::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    const Result r = cli(QStringList{"follow"} + args);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.size() < 2000, qPrintable(QString::number(r.err.size()))); // never an argument echoed whole
}

QTEST_GUILESS_MAIN(TestCliFollow)
#include "test_cli_follow.moc"
