// attention-lab-cli diagnose, transfer and contract as a user runs them: exit codes and JSON.
#include "common/cli_runner.h"

#include <QtTest>

namespace {

const QString kToy = "MultiHeadAttention(3, 4, 8, 0.0, 2)";

} // namespace

class TestCliLessons : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exit_codes_data();
    void exit_codes();
    void diagnose_json_error();
    void diagnose_json_harmless();
    void transfer_json();
    void contract_json();
};

void TestCliLessons::exit_codes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("stderr_has");
    QTest::newRow("diagnose-ok") << QStringList{"diagnose", "--call", kToy, "--bug", "skip-mask"} << 0 << "";
    QTest::newRow("unknown-bug") << QStringList{"diagnose", "--call", kToy, "--bug", "skip-softmax"} << 1
                                 << "merge-without-transpose";
    QTest::newRow("missing-bug") << QStringList{"diagnose", "--call", kToy} << 2 << "--bug";
    QTest::newRow("invalid-call") << QStringList{"diagnose", "--call", "MultiHeadAttention(3, 5, 8, 0.0, 2)", "--bug",
                                                 "skip-mask"}
                                  << 1 << "num_heads";
    QTest::newRow("not-mha") << QStringList{"diagnose", "--call", "CausalAttention(3, 2, 6, 0.0)", "--bug", "skip-mask"}
                             << 1 << "MultiHeadAttention";
    QTest::newRow("tokens-over-context") << QStringList{"diagnose",  "--call",   kToy, "--bug",
                                                        "skip-mask", "--tokens", "9"}
                                         << 1 << "context_length";
    QTest::newRow("transfer-bad-role") << QStringList{"transfer", "--omit", "W_key"} << 1 << "query, key or value";
    QTest::newRow("transfer-error-status") << QStringList{"transfer", "--no-transpose", "key"} << 0 << "";
    QTest::newRow("contract-unreadable") << QStringList{"contract", "--call", "MultiHeadAttention(768"} << 1 << "^";
    QTest::newRow("contract-unbound") << QStringList{"contract", "--call",
                                                     "MultiHeadAttention(768, 768, 1024, 12, 0.0)"}
                                      << 0 << "";
}

void TestCliLessons::exit_codes()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, stderr_has);
    const Result r = cli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(stderr_has), qPrintable(r.err));
}

void TestCliLessons::diagnose_json_error()
{
    const Result r =
        cli({"diagnose", "--call", kToy, "--bug", "skip-contiguous", "--batch", "2", "--tokens", "6", "--json"});
    QCOMPARE(r.code, 0);
    const QJsonObject d = r.json()["first_divergence"].toObject();
    QCOMPARE(d["stage"].toString(), QString("context.merged"));
    QCOMPARE(d["kind"].toString(), QString("error"));
    QCOMPARE(d["expected_shape"].toArray(), (QJsonArray{2, 6, 4}));
    QVERIFY(d["observed_shape"].isNull());
    QVERIFY(d["message"].toString().startsWith("view size is not compatible"));
    QVERIFY(r.json()["why_no_divergence"].isNull());
    QCOMPARE(r.json()["stages"].toArray().last()["status"].toString(), QString("not-reached"));
}

void TestCliLessons::diagnose_json_harmless()
{
    const Result r =
        cli({"diagnose", "--call", "MultiHeadAttention(4, 4, 8, 0.0, 2)", "--bug", "swap-d_in-d_out", "--json"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.json()["first_divergence"].isNull());
    QVERIFY(r.json()["why_no_divergence"].toString().contains("d_in equals d_out"));
    const Result shape = cli({"diagnose", "--call", kToy, "--bug", "skip-head-transpose", "--json"});
    const QJsonObject d = shape.json()["first_divergence"].toObject();
    QCOMPARE(d["kind"].toString(), QString("shape"));
    QCOMPARE(d["observed_shape"].toArray(), (QJsonArray{2, 6, 2, 2}));
}

void TestCliLessons::transfer_json()
{
    Result r = cli({"transfer", "--d-in", "3", "--d-out", "2", "--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.json()["status"].toString(), QString("match"));
    r = cli({"transfer", "--d-in", "3", "--d-out", "3", "--no-transpose", "query", "--omit", "value", "--json"});
    QCOMPARE(r.json()["status"].toString(), QString("mismatch"));
    QVERIFY(r.json()["max_abs_diff"].toDouble() > 1e-4);
    QVERIFY(r.json()["message"].toString().contains("W_value was never assigned"));
    r = cli({"transfer", "--d-in", "3", "--d-out", "2", "--no-transpose", "value", "--json"});
    QCOMPARE(r.json()["status"].toString(), QString("error"));
    QVERIFY(r.json()["max_abs_diff"].isNull());
    QVERIFY(r.json()["message"].toString().contains("mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)"));
}

void TestCliLessons::contract_json()
{
    const Result r = cli({"contract", "--call", "MultiHeadAttention(768, 768, 12, 0.0, 1024)", "--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.json()["values"].toArray().at(2)["slot"].toString(), QString("context_length"));
    const QJsonArray findings = r.json()["findings"].toArray();
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings[0]["code"].toString(), QString("other-slot-order"));
    QCOMPARE(findings[0]["suggested_call"].toString(), QString("MultiHeadAttention(768, 768, 1024, 0.0, 12)"));
    const Result w =
        cli({"contract", "--call", "MultiHeadAttention(2, 3, 6, 0.0, 1)", "--d-in-of-input", "3", "--json"});
    QCOMPARE(w.json()["findings"].toArray().at(0)["code"].toString(), QString("d_in-d_out-swapped"));
}

QTEST_GUILESS_MAIN(TestCliLessons)
#include "test_cli_lessons.moc"
