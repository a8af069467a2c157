// The argument contract: every value named by its slot even when the call does not bind, and the
// usual confusions caught with a sentence and a corrected call.
#include "lessons/contract.h"

#include <QtTest>

using namespace attnlab;

namespace {

ContractInput input(qint64 d_in, qint64 tokens)
{
    ContractInput in;
    if (d_in > 0)
        in.d_in = d_in;
    if (tokens > 0)
        in.num_tokens = tokens;
    return in;
}

} // namespace

class TestContract : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void findings_data();
    void findings();
    void names_slots_when_binding_fails();
    void extra_value_has_no_slot();
    void finding_names();
};

void TestContract::findings_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<qint64>("width");  // the input's embedding width, 0: unknown
    QTest::addColumn<qint64>("tokens"); // 0: unknown
    QTest::addColumn<QString>("code");  // the only finding expected, "" for none
    QTest::addColumn<QString>("suggested");
    QTest::addColumn<QString>("says"); // a phrase the sentence must contain
    QTest::newRow("dropout-num_heads-swapped")
        << "MultiHeadAttention(768, 768, 1024, 12, 0.0)" << 0ll << 0ll << "dropout-num_heads-swapped"
        << "MultiHeadAttention(768, 768, 1024, 0.0, 12)"
        << "look swapped";
    QTest::newRow("swap-by-keyword")
        << "MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=12, num_heads=0.0)" << 0ll << 0ll
        << "dropout-num_heads-swapped"
        << "MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12)"
        << "probably swapped";
    QTest::newRow("num_heads-third-dropout-fourth")
        << "MultiHeadAttention(768, 768, 12, 0.0, 1024)" << 0ll << 0ll << "other-slot-order"
        << "MultiHeadAttention(768, 768, 1024, 0.0, 12)"
        << "(d_in, d_out, num_heads, dropout, context_length)";
    QTest::newRow("num_heads-context-dropout")
        << "MultiHeadAttention(768, 768, 12, 1024, 0.0, False)" << 0ll << 0ll << "other-slot-order"
        << "MultiHeadAttention(768, 768, 1024, 0.0, 12, False)"
        << "(d_in, d_out, num_heads, context_length, dropout, qkv_bias)";
    QTest::newRow("d_in-d_out-swapped") << "MultiHeadAttention(2, 3, 6, 0.0, 1)" << 3ll << 0ll << "d_in-d_out-swapped"
                                        << "MultiHeadAttention(3, 2, 6, 0.0, 1)"
                                        << "d_in and d_out were probably swapped";
    QTest::newRow("swap-breaks-head-split")
        << "MultiHeadAttention(3, 6, 8, 0.0, 2)" << 6ll << 0ll << "d_in-d_out-swapped"
        << "MultiHeadAttention(6, 3, 8, 0.0, 2)"
        << "d_out = 3 cannot be split into 2 heads";
    QTest::newRow("causal-swapped") << "CausalAttention(2, 3, 6, 0.0)" << 3ll << 0ll << "d_in-d_out-swapped"
                                    << "CausalAttention(3, 2, 6, 0.0)"
                                    << "x.shape[-1]";
    QTest::newRow("d_in-mismatch") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << 1024ll << 0ll << "d_in-mismatch"
                                   << "MultiHeadAttention(1024, 768, 1024, 0.0, 12)"
                                   << "mat1 and mat2";
    QTest::newRow("context-too-short") << "MultiHeadAttention(3, 2, 4, 0.0, 2)" << 3ll << 6ll << "context-too-short"
                                       << "MultiHeadAttention(3, 2, 6, 0.0, 2)"
                                       << "shorter than the input's 6 tokens";
    QTest::newRow("short-context-is-not-another-order")
        << "MultiHeadAttention(768, 768, 4, 0.0, 12)" << 0ll << 6ll << "context-too-short"
        << "MultiHeadAttention(768, 768, 6, 0.0, 12)"
        << "4 x 4";
    QTest::newRow("extra-value") << "MultiHeadAttention(768, 768, 1024, 1024, 0.0, 12)" << 0ll << 0ll << "extra-value"
                                 << "MultiHeadAttention(768, 768, 1024, 0.0, 12)"
                                 << "one value too many";
    QTest::newRow("gpt2-small-is-fine") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << 768ll << 8ll << ""
                                        << ""
                                        << "";
    QTest::newRow("keywords-are-fine") << "MultiHeadAttention(d_in=3, d_out=2, num_heads=2, dropout=0.0, "
                                          "context_length=6)"
                                       << 3ll << 6ll << ""
                                       << ""
                                       << "";
}

void TestContract::findings()
{
    QFETCH(QString, call);
    QFETCH(qint64, width);
    QFETCH(qint64, tokens);
    QFETCH(QString, code);
    QFETCH(QString, suggested);
    QFETCH(QString, says);
    const ContractReport r = check_contract(call.toStdString(), input(width, tokens));
    QStringList codes;
    for (const auto& f : r.findings)
        codes << QString::fromStdString(contract_finding_name(f.code) + ": " + f.message);
    if (code.isEmpty()) {
        QVERIFY2(r.findings.empty(), qPrintable(codes.join("\n")));
        return;
    }
    QCOMPARE(r.findings.size(), std::size_t{1});
    const ContractFinding& f = r.findings.front();
    QCOMPARE(QString::fromStdString(contract_finding_name(f.code)), code);
    QCOMPARE(QString::fromStdString(f.suggested_call), suggested);
    QVERIFY2(QString::fromStdString(f.message).contains(says), f.message.c_str());
    QVERIFY2(QString::fromStdString(f.message).contains(suggested), f.message.c_str());
    // An example order is one under which the call makes sense: (num_heads, context_length, dropout) would read
    // 0.0 as context_length here.
    if (QByteArray(QTest::currentDataTag()) == "num_heads-third-dropout-fourth")
        QVERIFY2(!QString::fromStdString(f.message).contains("num_heads, context_length, dropout"), f.message.c_str());
}

void TestContract::names_slots_when_binding_fails()
{
    const ContractReport r = check_contract("MultiHeadAttention(768, 768, 1024, 12, 0.0)");
    QVERIFY(!r.config);
    QVERIFY(r.error);
    const QStringList slot_names = {"d_in", "d_out", "context_length", "dropout", "num_heads"};
    const QStringList texts = {"768", "768", "1024", "12", "0.0"};
    QCOMPARE(r.values.size(), std::size_t{5});
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(QString::fromStdString(r.values[static_cast<std::size_t>(i)].slot), slot_names[i]);
        QCOMPARE(QString::fromStdString(r.values[static_cast<std::size_t>(i)].text), texts[i]);
    }
}

void TestContract::extra_value_has_no_slot()
{
    const ContractReport r = check_contract("SelfAttention_v1(3, 2, 5)");
    QVERIFY(r.error);
    QCOMPARE(r.values.size(), std::size_t{3});
    QCOMPARE(r.values[1].slot, std::string("d_out"));
    QVERIFY(r.values[2].slot.empty());
}

// The names are the CLI's `contract --json` output and the finding cards' object names: fixed text.
void TestContract::finding_names()
{
    QStringList names;
    for (ContractFindingCode code : kContractFindingCodes)
        names << QString::fromStdString(contract_finding_name(code));
    QCOMPARE(names, (QStringList{"d_in-d_out-swapped", "d_in-mismatch", "dropout-num_heads-swapped", "other-slot-order",
                                 "context-too-short", "extra-value"}));
}

QTEST_GUILESS_MAIN(TestContract)
#include "test_contract.moc"
