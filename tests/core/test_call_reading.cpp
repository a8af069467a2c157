// One reading of a call for every front end: a likely swap (or one value too many) is named first,
// with the rewritten call as its fix, and the contract lesson reads the same and offers the same call;
// the fix, applied, is a valid call with the values the student meant. Calls that miss a value, or
// that no single fix makes valid, keep Python's reading, and no fix they offer sets a size to 0.
#include "call/call_parser.h"
#include "lessons/contract_call.h"

#include <QtTest>

using namespace attnlab;

namespace {

std::optional<InputShape> shape(qint64 tokens)
{
    return tokens > 0 ? std::optional<InputShape>(InputShape{1, tokens}) : std::nullopt;
}

} // namespace

class TestCallReading : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void one_reading_data();
    void one_reading();
};

void TestCallReading::one_reading_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<qint64>("tokens"); // the input's token count, 0: unknown
    QTest::addColumn<QString>("first"); // code of the first diagnostic
    QTest::addColumn<QString>("fix");   // the call the first diagnostic offers, "" for none
    QTest::addColumn<QString>("says");  // a phrase of the first diagnostic
    const QString gpt2 = "MultiHeadAttention(768, 768, 1024, 0.0, 12)";
    QTest::newRow("dropout and num_heads swapped")
        << "MultiHeadAttention(768, 768, 1024, 12, 0.0)" << 0ll << "slots-swapped" << gpt2 << "look swapped";
    QTest::newRow("dropout and num_heads swapped, 16 tokens")
        << "MultiHeadAttention(768, 768, 1024, 12, 0.0)" << 16ll << "slots-swapped" << gpt2 << "look swapped";
    QTest::newRow("context_length and num_heads swapped")
        << "MultiHeadAttention(768, 768, 12, 0.0, 1024)" << 0ll << "slots-swapped" << gpt2
        << "context_length and num_heads look swapped";
    QTest::newRow("context_length and num_heads swapped, 16 tokens")
        << "MultiHeadAttention(768, 768, 12, 0.0, 1024)" << 16ll << "slots-swapped" << gpt2
        << "context_length and num_heads look swapped";
    QTest::newRow("context_length and dropout swapped")
        << "MultiHeadAttention(768, 768, 0.1, 1024, 12)" << 6ll << "slots-swapped"
        << "MultiHeadAttention(768, 768, 1024, 0.1, 12)"
        << "context_length and dropout look swapped";
    QTest::newRow("num_heads third") << "MultiHeadAttention(768, 768, 12, 1024, 0.0, False)" << 0ll << "slots-swapped"
                                     << "MultiHeadAttention(768, 768, 1024, 0.0, 12, False)"
                                     << "(d_in, d_out, num_heads, context_length, dropout, qkv_bias)";
    QTest::newRow("swapped by keyword") << "MultiHeadAttention(768, 768, 1024, dropout=12, num_heads=0.1)" << 0ll
                                        << "slots-swapped"
                                        << "MultiHeadAttention(768, 768, 1024, dropout=0.1, num_heads=12)"
                                        << "probably swapped";
    QTest::newRow("wrapper swapped") << "MultiHeadAttentionWrapper(3, 2, 6, 2, 0.0)" << 6ll << "slots-swapped"
                                     << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)"
                                     << "look swapped";
    QTest::newRow("num_heads missing") << "MultiHeadAttention(768, 768, 1024, 0.0)" << 0ll << "call-syntax"
                                       << ""
                                       << "missing 1 required argument";
    QTest::newRow("dropout missing") << "CausalAttention(3, 2, 6)" << 6ll << "call-syntax"
                                     << ""
                                     << "missing 1 required argument, 'dropout'";
    QTest::newRow("one value too many, at the end")
        << "MultiHeadAttention(768, 768, 1024, 0.0, 12, False, 0.1)" << 0ll << "slots-swapped"
        << "MultiHeadAttention(768, 768, 1024, 0.0, 12, False)"
        << "the 7th (0.1)";
    QTest::newRow("a value written twice") << "MultiHeadAttention(768, 768, 1024, 1024, 0.0, 12)" << 0ll
                                           << "slots-swapped" << gpt2 << "one value too many";
    QTest::newRow("two values could go") << "MultiHeadAttention(768, 768, 1024, 0.1, 0.0, 12)" << 0ll << "call-syntax"
                                         << ""
                                         << "positive whole number such as 12";
    QTest::newRow("swapped, and d_out does not split either")
        << "MultiHeadAttention(768, 770, 1024, 12, 0.0)" << 0ll << "slots-swapped"
        << "MultiHeadAttention(768, 770, 1024, 0.0, 12)"
        << "though even then d_out = 770 cannot be split into 12 heads";
    QTest::newRow("num_heads 0.0, dropout fine")
        << "MultiHeadAttention(768, 768, 1024, 0.1, 0.0)" << 0ll << "call-syntax"
        << ""
        << "positive whole number such as 12";
    QTest::newRow("context shorter than the input")
        << "MultiHeadAttention(768, 768, 4, 0.0, 12)" << 6ll << "tokens-exceed-context"
        << ""
        << "at least 6";
}

void TestCallReading::one_reading()
{
    QFETCH(QString, call);
    QFETCH(qint64, tokens);
    QFETCH(QString, first);
    QFETCH(QString, fix);
    QFETCH(QString, says);
    const std::string text = call.toStdString();
    const CallReading r = read_call(text, shape(tokens));
    QVERIFY(!r.diagnostics.empty());
    const Diagnostic& d = r.diagnostics.front();
    QCOMPARE(QString::fromStdString(diagnostic_code_name(d.code)), first);
    QVERIFY2(QString::fromStdString(d.message).contains(says), d.message.c_str());
    QCOMPARE(QString::fromStdString(d.call_fix), fix);
    // Where the call does not bind, the caret message under the call line is that same sentence.
    QCOMPARE(r.config.has_value(), parse_call(text).ok());
    // (One value too many keeps Python's "at most 6 positional arguments" there: it is true.)
    const bool extra =
        !r.contract.findings.empty() && r.contract.findings.front().code == ContractFindingCode::ExtraValue;
    if (r.error && !extra)
        QVERIFY2(d.message.find(r.error->message) != std::string::npos, d.message.c_str());
    for (const Diagnostic& any : r.diagnostics) {
        QVERIFY2(any.message.find("write 0") == std::string::npos, any.message.c_str());
        for (const Fix& f : any.fixes)
            QVERIFY2(f.value > 0, any.message.c_str()); // every slot a fix sets is a size
    }

    // The contract tab: the same reading, the same call.
    if (d.code == DiagnosticCode::SlotsSwapped) {
        QVERIFY(!r.contract.findings.empty());
        QCOMPARE(r.contract.findings.front().message, d.message);
        QCOMPARE(r.contract.findings.front().suggested_call, d.call_fix);
        // Applied, the fix is a valid call with the intended values: what the swap reading read.
        const CallReading fixed = read_call(d.call_fix, shape(tokens));
        QVERIFY(fixed.config);
        QVERIFY(fixed.contract.findings.empty());
        // Valid, unless the sentence said what else is wrong ("though even then"): validate() says it next.
        if (d.message.find("even then") == std::string::npos)
            QVERIFY2(!has_error(fixed.diagnostics), d.call_fix.c_str());
        else
            QCOMPARE(fixed.diagnostics.front().code, DiagnosticCode::HeadSplit);
        const auto intended = parse_call(fix.toStdString()).config;
        QVERIFY(intended && *fixed.config == *intended);
        // Nothing the swap explains is said again beside it.
        for (std::size_t i = 1; i < r.diagnostics.size(); ++i)
            QVERIFY2(r.diagnostics[i].severity != Severity::Error, r.diagnostics[i].message.c_str());
    } else {
        for (const ContractFinding& f : r.contract.findings)
            QVERIFY2(f.code == ContractFindingCode::ContextTooShort, f.message.c_str());
    }
}

QTEST_APPLESS_MAIN(TestCallReading)
#include "test_call_reading.moc"
