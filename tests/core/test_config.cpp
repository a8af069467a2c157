// Names, slots, the printed forms of a call, and what validate() says about a config: codes,
// severities, the slots they point at and the one-click fixes.
#include "call/call_parser.h"
#include "call/config.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace attnlab;
Q_DECLARE_METATYPE(attnlab::Config)
Q_DECLARE_METATYPE(attnlab::ModuleKind)

namespace {

Config make(ModuleKind kind, std::int64_t d_in, std::int64_t d_out, std::int64_t context_length = 1024,
            double dropout = 0.0, std::int64_t num_heads = 12, bool qkv_bias = false)
{
    return Config{kind, d_in, d_out, context_length, dropout, num_heads, qkv_bias};
}

Config mha(std::int64_t d_in, std::int64_t d_out, std::int64_t ctx, double dropout, std::int64_t heads,
           bool bias = false)
{
    return make(ModuleKind::MultiHeadAttention, d_in, d_out, ctx, dropout, heads, bias);
}

// "code/severity/slot" per diagnostic, in the order validate() gives them.
QStringList summary(const std::vector<Diagnostic>& diagnostics)
{
    QStringList out;
    for (const auto& d : diagnostics)
        out << QString::fromStdString(diagnostic_code_name(d.code) + "/" + severity_name(d.severity) + "/" +
                                      (d.slot ? slot_name(*d.slot) : ""));
    return out;
}

const Diagnostic* find_code(const std::vector<Diagnostic>& diagnostics, DiagnosticCode code)
{
    for (const auto& d : diagnostics)
        if (d.code == code)
            return &d;
    return nullptr;
}

} // namespace

class TestConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void class_names_data();
    void class_names();
    void unknown_class_names();
    void canonical_call_data();
    void canonical_call();
    void positional_call_data();
    void positional_call();
    void output_width_data();
    void output_width();
    void validate_codes_data();
    void validate_codes();
    void gpt2_small_is_clean();
    void head_split_770();
    void head_split_many_divisors();
    void wrapper_width_fix();
    void tokens_exceed_context_fix();
    void messages_are_single_sentences();
    void divisors_data();
    void divisors();
    void divisors_are_fast_for_huge_values();
    void severity_names();
    void diagnostic_code_names();
    void slot_names();
};

void TestConfig::class_names_data()
{
    QTest::addColumn<ModuleKind>("kind");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QStringList>("slot_names");
    const QStringList all = {"d_in", "d_out", "context_length", "dropout", "num_heads", "qkv_bias"};
    QTest::newRow("self-attention-v1") << ModuleKind::SelfAttentionV1 << "SelfAttention_v1"
                                       << QStringList{"d_in", "d_out"};
    QTest::newRow("self-attention-v2") << ModuleKind::SelfAttentionV2 << "SelfAttention_v2"
                                       << QStringList{"d_in", "d_out", "qkv_bias"};
    QTest::newRow("causal") << ModuleKind::CausalAttention << "CausalAttention"
                            << QStringList{"d_in", "d_out", "context_length", "dropout", "qkv_bias"};
    QTest::newRow("wrapper") << ModuleKind::MultiHeadAttentionWrapper << "MultiHeadAttentionWrapper" << all;
    QTest::newRow("multi-head") << ModuleKind::MultiHeadAttention << "MultiHeadAttention" << all;
}

void TestConfig::class_names()
{
    QFETCH(ModuleKind, kind);
    QFETCH(QString, name);
    QFETCH(QStringList, slot_names);
    QCOMPARE(QString::fromStdString(module_class_name(kind)), name);
    QVERIFY(module_kind_from_name(name.toStdString()) == kind);
    QStringList actual;
    for (const auto& s : module_slots(kind))
        actual << QString::fromStdString(s);
    QCOMPARE(actual, slot_names);
}

void TestConfig::unknown_class_names()
{
    QVERIFY(!module_kind_from_name("multiheadattention"));
    QVERIFY(!module_kind_from_name("MultiHeadAttention "));
    QVERIFY(!module_kind_from_name(""));
    QVERIFY(!module_kind_from_name("nn.MultiHeadAttention"));
}

void TestConfig::canonical_call_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<QString>("call");
    const auto m = ModuleKind::MultiHeadAttention;
    const auto w = ModuleKind::MultiHeadAttentionWrapper;
    QTest::newRow("golden-book-toy")
        << mha(3, 2, 6, 0.0, 2)
        << "MultiHeadAttention(d_in=3, d_out=2, context_length=6, dropout=0.0, num_heads=2, "
           "qkv_bias=False)";
    QTest::newRow("golden-gpt2-small") << mha(768, 768, 1024, 0.0, 12)
                                       << "MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, "
                                          "num_heads=12, qkv_bias=False)";
    QTest::newRow("golden-bias-rect") << mha(10, 12, 16, 0.0, 3, true)
                                      << "MultiHeadAttention(d_in=10, d_out=12, context_length=16, dropout=0.0, "
                                         "num_heads=3, qkv_bias=True)";
    QTest::newRow("golden-causal") << make(ModuleKind::CausalAttention, 3, 2, 6)
                                   << "CausalAttention(d_in=3, d_out=2, context_length=6, dropout=0.0, qkv_bias=False)";
    QTest::newRow("golden-v1") << make(ModuleKind::SelfAttentionV1, 3, 2) << "SelfAttention_v1(d_in=3, d_out=2)";
    QTest::newRow("golden-v2") << make(ModuleKind::SelfAttentionV2, 3, 2)
                               << "SelfAttention_v2(d_in=3, d_out=2, qkv_bias=False)";
    QTest::newRow("golden-wrapper-d1") << make(w, 3, 1, 6, 0.0, 2)
                                       << "MultiHeadAttentionWrapper(d_in=3, d_out=1, context_length=6, dropout=0.0, "
                                          "num_heads=2)";
    QTest::newRow("wrapper-with-bias") << make(w, 3, 1, 6, 0.0, 2, true)
                                       << "MultiHeadAttentionWrapper(d_in=3, d_out=1, context_length=6, dropout=0.0, "
                                          "num_heads=2, qkv_bias=True)";
    QTest::newRow("dropout-0.1") << make(m, 4, 4, 8, 0.1, 2)
                                 << "MultiHeadAttention(d_in=4, d_out=4, context_length=8, "
                                    "dropout=0.1, num_heads=2, qkv_bias=False)";
    QTest::newRow("dropout-0.25") << make(ModuleKind::CausalAttention, 4, 4, 8, 0.25)
                                  << "CausalAttention(d_in=4, d_out=4, context_length=8, dropout=0.25, qkv_bias=False)";
    QTest::newRow("dropout-1e-05")
        << make(ModuleKind::CausalAttention, 4, 4, 8, 1e-5)
        << "CausalAttention(d_in=4, d_out=4, context_length=8, dropout=1e-05, qkv_bias=False)";
    QTest::newRow("dropout-0.0001")
        << make(ModuleKind::CausalAttention, 4, 4, 8, 1e-4)
        << "CausalAttention(d_in=4, d_out=4, context_length=8, dropout=0.0001, qkv_bias=False)";
    QTest::newRow("dropout-1.0") << make(ModuleKind::CausalAttention, 4, 4, 8, 1.0)
                                 << "CausalAttention(d_in=4, d_out=4, context_length=8, dropout=1.0, qkv_bias=False)";
    QTest::newRow("dropout-0.3") << make(ModuleKind::CausalAttention, 4, 4, 8, 0.1 + 0.2)
                                 << "CausalAttention(d_in=4, d_out=4, context_length=8, dropout=0.30000000000000004, "
                                    "qkv_bias=False)";
}

void TestConfig::canonical_call()
{
    QFETCH(Config, config);
    QFETCH(QString, call);
    QCOMPARE(QString::fromStdString(attnlab::canonical_call(config)), call);
    const ParsedCall back = parse_call(call.toStdString());
    QVERIFY2(back.ok(), back.error ? back.error->message.c_str() : "");
    QVERIFY(*back.config == config);
}

void TestConfig::positional_call_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<QString>("call");
    QTest::newRow("gpt2-small") << mha(768, 768, 1024, 0.0, 12) << "MultiHeadAttention(768, 768, 1024, 0.0, 12)";
    QTest::newRow("with-bias") << mha(10, 12, 16, 0.1, 3, true) << "MultiHeadAttention(10, 12, 16, 0.1, 3, True)";
    QTest::newRow("wrapper") << make(ModuleKind::MultiHeadAttentionWrapper, 3, 2, 6, 0.0, 2)
                             << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)";
    QTest::newRow("causal") << make(ModuleKind::CausalAttention, 3, 2, 6) << "CausalAttention(3, 2, 6, 0.0)";
    QTest::newRow("v1") << make(ModuleKind::SelfAttentionV1, 3, 2) << "SelfAttention_v1(3, 2)";
    QTest::newRow("v2-bias") << make(ModuleKind::SelfAttentionV2, 3, 2, 1024, 0.0, 12, true)
                             << "SelfAttention_v2(3, 2, True)";
}

void TestConfig::positional_call()
{
    QFETCH(Config, config);
    QFETCH(QString, call);
    QCOMPARE(QString::fromStdString(attnlab::positional_call(config)), call);
    const ParsedCall back = parse_call(call.toStdString());
    QVERIFY(back.ok());
    QVERIFY(*back.config == config);
}

void TestConfig::output_width_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<qint64>("width");
    QTest::addColumn<qint64>("head_dim");
    const auto w = ModuleKind::MultiHeadAttentionWrapper;
    QTest::newRow("gpt2-small") << mha(768, 768, 1024, 0.0, 12) << qint64(768) << qint64(64);
    QTest::newRow("wrapper-d2") << make(w, 3, 2, 6, 0.0, 2) << qint64(4) << qint64(2);
    QTest::newRow("wrapper-d1") << make(w, 3, 1, 6, 0.0, 2) << qint64(2) << qint64(1);
    QTest::newRow("causal") << make(ModuleKind::CausalAttention, 3, 2, 6) << qint64(2) << qint64(2);
    QTest::newRow("wrapper-saturates") << make(w, 3, std::numeric_limits<std::int64_t>::max(), 6, 0.0, 2)
                                       << std::numeric_limits<qint64>::max() << std::numeric_limits<qint64>::max();
}

void TestConfig::output_width()
{
    QFETCH(Config, config);
    QFETCH(qint64, width);
    QFETCH(qint64, head_dim);
    QCOMPARE(qint64(config.output_width()), width);
    QCOMPARE(qint64(config.head_dim()), head_dim);
}

void TestConfig::validate_codes_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<bool>("has_input");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<QStringList>("expected");
    const auto w = ModuleKind::MultiHeadAttentionWrapper;
    const auto causal = ModuleKind::CausalAttention;
    const double nan = std::numeric_limits<double>::quiet_NaN();

    QTest::newRow("gpt2-small") << mha(768, 768, 1024, 0.0, 12) << true << qint64(1) << qint64(8) << QStringList{};
    QTest::newRow("gpt2-770") << mha(768, 770, 1024, 0.0, 12) << false << qint64(0) << qint64(0)
                              << QStringList{"head-split/error/num_heads"};
    QTest::newRow("book-toy") << mha(3, 2, 6, 0.0, 2) << true << qint64(2) << qint64(6)
                              << QStringList{"head-dim-small/note/num_heads", "d-in-ne-d-out/note/d_out"};
    QTest::newRow("zero-everything") << mha(0, 0, 0, 0.0, 0) << false << qint64(0) << qint64(0)
                                     << QStringList{"non-positive/error/d_in", "non-positive/error/d_out",
                                                    "non-positive/error/context_length",
                                                    "non-positive/error/num_heads"};
    QTest::newRow("negative-heads") << mha(768, 768, 1024, 0.0, -12) << false << qint64(0) << qint64(0)
                                    << QStringList{"non-positive/error/num_heads"};
    QTest::newRow("dropout-negative") << mha(16, 16, 8, -0.1, 2) << false << qint64(0) << qint64(0)
                                      << QStringList{"dropout-range/error/dropout"};
    // nn.Dropout takes p = 1 (every weight multiplied by 0 in training); above 1 it refuses.
    QTest::newRow("dropout-one") << mha(16, 16, 8, 1.0, 2) << true << qint64(1) << qint64(8)
                                 << QStringList{"dropout-eval/note/dropout"};
    QTest::newRow("dropout-above-one") << mha(16, 16, 8, 1.5, 2) << false << qint64(0) << qint64(0)
                                       << QStringList{"dropout-range/error/dropout"};
    QTest::newRow("dropout-nan") << mha(16, 16, 8, nan, 2) << false << qint64(0) << qint64(0)
                                 << QStringList{"dropout-range/error/dropout"};
    QTest::newRow("dropout-training-note")
        << mha(16, 16, 8, 0.1, 2) << false << qint64(0) << qint64(0) << QStringList{"dropout-eval/note/dropout"};
    QTest::newRow("tokens-exceed") << mha(768, 768, 6, 0.0, 12) << true << qint64(1) << qint64(8)
                                   << QStringList{"tokens-exceed-context/error/context_length"};
    QTest::newRow("notes-survive-input-errors")
        << mha(3, 2, 6, 0.0, 2) << true << qint64(1) << qint64(7)
        << QStringList{"tokens-exceed-context/error/context_length", "head-dim-small/note/num_heads",
                       "d-in-ne-d-out/note/d_out"};
    QTest::newRow("no-notes-beside-config-errors")
        << mha(3, 2, 6, 0.5, 0) << false << qint64(0) << qint64(0) << QStringList{"non-positive/error/num_heads"};
    QTest::newRow("tokens-equal-context")
        << mha(768, 768, 8, 0.0, 12) << true << qint64(1) << qint64(8) << QStringList{};
    QTest::newRow("causal-tokens-exceed") << make(causal, 4, 4, 4) << true << qint64(1) << qint64(5)
                                          << QStringList{"tokens-exceed-context/error/context_length"};
    QTest::newRow("empty-input") << mha(768, 768, 1024, 0.0, 12) << true << qint64(0) << qint64(0)
                                 << QStringList{"non-positive-input/error/batch",
                                                "non-positive-input/error/num_tokens"};
    QTest::newRow("v1-ignores-context-and-heads")
        << make(ModuleKind::SelfAttentionV1, 4, 4, -1, 5.0, 0) << true << qint64(1) << qint64(100) << QStringList{};
    QTest::newRow("v2-d-in-ne-d-out") << make(ModuleKind::SelfAttentionV2, 3, 2, 0, 0.0, 7) << false << qint64(0)
                                      << qint64(0) << QStringList{"d-in-ne-d-out/note/d_out"};
    QTest::newRow("causal-ignores-heads")
        << make(causal, 6, 6, 6, 0.0, 4) << false << qint64(0) << qint64(0) << QStringList{};
    QTest::newRow("wrapper-d2") << make(w, 3, 2, 6, 0.0, 2) << false << qint64(0) << qint64(0)
                                << QStringList{"d-in-ne-d-out/note/d_out", "wrapper-width/note/d_out"};
    QTest::newRow("wrapper-no-head-split")
        << make(w, 5, 5, 6, 0.0, 3) << false << qint64(0) << qint64(0) << QStringList{"wrapper-width/note/d_out"};
    QTest::newRow("wrapper-one-head") << make(w, 5, 5, 6, 0.0, 1) << false << qint64(0) << qint64(0) << QStringList{};
    QTest::newRow("wrapper-zero-heads") << make(w, 5, 5, 6, 0.0, 0) << false << qint64(0) << qint64(0)
                                        << QStringList{"non-positive/error/num_heads"};
    QTest::newRow("head-dim-7") << mha(14, 14, 8, 0.0, 2) << false << qint64(0) << qint64(0)
                                << QStringList{"head-dim-small/note/num_heads"};
    QTest::newRow("head-dim-8") << mha(16, 16, 8, 0.0, 2) << false << qint64(0) << qint64(0) << QStringList{};
}

void TestConfig::validate_codes()
{
    QFETCH(Config, config);
    QFETCH(bool, has_input);
    QFETCH(qint64, batch);
    QFETCH(qint64, tokens);
    QFETCH(QStringList, expected);
    const auto input = has_input ? std::optional<InputShape>(InputShape{batch, tokens}) : std::nullopt;
    const auto diagnostics = validate(config, input);
    QCOMPARE(summary(diagnostics), expected);
    QCOMPARE(has_error(diagnostics), expected.join(' ').contains("/error/"));
}

void TestConfig::gpt2_small_is_clean()
{
    const Config c = mha(768, 768, 1024, 0.0, 12);
    QVERIFY(validate(c).empty());
    QVERIFY(validate(c, InputShape{1, 1024}).empty());
    QCOMPARE(c.head_dim(), std::int64_t{64});
    QCOMPARE(c.output_width(), std::int64_t{768});
}

void TestConfig::head_split_770()
{
    const auto diagnostics = validate(mha(768, 770, 1024, 0.0, 12));
    QCOMPARE(diagnostics.size(), std::size_t{1});
    const Diagnostic& d = diagnostics[0];
    QCOMPARE(d.code, DiagnosticCode::HeadSplit);
    QCOMPARE(d.severity, Severity::Error);
    QVERIFY(d.slot == Slot::num_heads);
    const std::vector<Fix> fixes = {
        {Slot::num_heads, 11}, {Slot::num_heads, 14}, {Slot::d_out, 768}, {Slot::d_out, 780}};
    QVERIFY(d.fixes == fixes);
    const QString message = QString::fromStdString(d.message);
    for (const char* part :
         {"d_out = 770", "num_heads = 12", "770 / 12 = 64.17", "not a whole number",
          "1, 2, 5, 7, 10, 11, 14, 22, 35, 55, 70, 77, 110, 154, 385, 770", "11 or 14", "768 or 780"})
        QVERIFY2(message.contains(part), qPrintable(message + " lacks " + part));
    QVERIFY(!message.contains("residual")); // d_in 768 != d_out 770: not a block's width
    // At a block's width (d_in = d_out, GPT-2 small's 768), a new d_out is offered with what it breaks there.
    const auto gpt2 = validate(mha(768, 768, 1024, 0.0, 10));
    QCOMPARE(gpt2.size(), std::size_t{1});
    const QString block = QString::fromStdString(gpt2[0].message);
    QVERIFY2(block.contains("d_out = 760 or 770 (the module alone takes any d_out, but in a GPT block, whose residual "
                            "adds the output to the 768-wide input, d_out stays 768)."),
             qPrintable(block));
}

void TestConfig::head_split_many_divisors()
{
    // 720720 has 240 divisors: name the ones around the requested count and point at the rest.
    const auto diagnostics = validate(mha(720720, 720720, 8, 0.0, 17));
    const Diagnostic* d = find_code(diagnostics, DiagnosticCode::HeadSplit);
    QVERIFY(d);
    const QString message = QString::fromStdString(d->message);
    QVERIFY2(message.contains("all divisors of 720720"), qPrintable(message));
    QVERIFY2(message.contains("14, 15, 16, 18, 20, 21"), qPrintable(message));
    QVERIFY2(message.contains("720720 / 17 = 42395.29"), qPrintable(message));
    QVERIFY(!message.contains("360360")); // not the whole list
    const std::vector<Fix> fixes = {
        {Slot::num_heads, 16}, {Slot::num_heads, 18}, {Slot::d_out, 720715}, {Slot::d_out, 720732}};
    QVERIFY(d->fixes == fixes);

    // More heads than features: no larger divisor and no positive multiple below d_out.
    const auto small_diagnostics = validate(mha(6, 6, 8, 0.0, 7));
    const Diagnostic* small = find_code(small_diagnostics, DiagnosticCode::HeadSplit);
    QVERIFY(small);
    const std::vector<Fix> small_fixes = {{Slot::num_heads, 6}, {Slot::d_out, 7}};
    QVERIFY(small->fixes == small_fixes);
    QVERIFY(QString::fromStdString(small->message).contains("6 / 7 = 0.86"));
}

void TestConfig::wrapper_width_fix()
{
    const auto w = ModuleKind::MultiHeadAttentionWrapper;
    const auto diagnostics = validate(make(w, 3, 2, 6, 0.0, 2));
    const Diagnostic* d = find_code(diagnostics, DiagnosticCode::WrapperWidth);
    QVERIFY(d);
    QCOMPARE(d->severity, Severity::Note);
    const std::vector<Fix> fixes = {{Slot::d_out, 1}};
    QVERIFY(d->fixes == fixes);
    QVERIFY2(QString::fromStdString(d->message).contains("2 * 2 = 4"), d->message.c_str());

    const auto odd_diagnostics = validate(make(w, 5, 5, 6, 0.0, 3));
    const Diagnostic* odd = find_code(odd_diagnostics, DiagnosticCode::WrapperWidth);
    QVERIFY(odd);
    QVERIFY(odd->fixes.empty());
    QVERIFY2(QString::fromStdString(odd->message).contains("3 * 5 = 15"), odd->message.c_str());
}

void TestConfig::tokens_exceed_context_fix()
{
    const auto diagnostics = validate(mha(3, 2, 6, 0.0, 2), InputShape{2, 9});
    const Diagnostic* d = find_code(diagnostics, DiagnosticCode::TokensExceedContext);
    QVERIFY(d);
    const std::vector<Fix> fixes = {{Slot::context_length, 9}};
    QVERIFY(d->fixes == fixes);
    QVERIFY2(QString::fromStdString(d->message).contains("9 tokens"), d->message.c_str());
    QVERIFY(!find_code(validate(make(ModuleKind::SelfAttentionV2, 3, 2, 6), InputShape{1, 9}),
                       DiagnosticCode::TokensExceedContext));
}

void TestConfig::messages_are_single_sentences()
{
    const std::vector<std::pair<Config, InputShape>> cases = {
        {mha(0, -3, 0, 2.0, 0), {0, 0}},
        {mha(768, 770, 6, 0.1, 12), {1, 9}},
        {mha(3, 2, 6, 0.5, 2), {1, 6}},
        {make(ModuleKind::MultiHeadAttentionWrapper, 3, 2, 6, 0.0, 2), {1, 6}},
    };
    for (const auto& [config, input] : cases) {
        for (const auto& d : validate(config, input)) {
            const QString m = QString::fromStdString(d.message);
            QVERIFY2(m.endsWith('.') && !m.contains(". ") && !m.contains('\n'), qPrintable(m));
            QVERIFY2(m.size() > 20, qPrintable(m));
        }
    }
    const auto zero_d_in = validate(mha(0, 4, 6, 0.0, 2));
    const Diagnostic* d = find_code(zero_d_in, DiagnosticCode::NonPositive);
    QVERIFY(d);
    QVERIFY2(d->message.find("d_in = 0") != std::string::npos &&
                 d->message.find("positive integer") != std::string::npos,
             d->message.c_str());
}

void TestConfig::divisors_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("zero") << qint64(0) << QList<qint64>{};
    QTest::newRow("negative") << qint64(-12) << QList<qint64>{};
    QTest::newRow("one") << qint64(1) << QList<qint64>{1};
    QTest::newRow("twelve") << qint64(12) << QList<qint64>{1, 2, 3, 4, 6, 12};
    QTest::newRow("768") << qint64(768)
                         << QList<qint64>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 768};
    QTest::newRow("770") << qint64(770)
                         << QList<qint64>{1, 2, 5, 7, 10, 11, 14, 22, 35, 55, 70, 77, 110, 154, 385, 770};
    QTest::newRow("prime-2^61-1") << qint64((qint64(1) << 61) - 1) << QList<qint64>{1, (qint64(1) << 61) - 1};
    QTest::newRow("semiprime-near-2^63") << qint64(3037000453LL * 3037000493LL)
                                         << QList<qint64>{1, 3037000453LL, 3037000493LL, 3037000453LL * 3037000493LL};
}

void TestConfig::divisors()
{
    QFETCH(qint64, n);
    QFETCH(QList<qint64>, expected);
    QList<qint64> actual;
    for (auto d : attnlab::divisors(n))
        actual << d;
    QCOMPARE(actual, expected);
}

void TestConfig::divisors_are_fast_for_huge_values()
{
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(attnlab::divisors(qint64(1) << 40).size(), std::size_t{41});
    QCOMPARE(attnlab::divisors((qint64(1) << 40) - 1).size(), std::size_t{192});
    QCOMPARE(attnlab::divisors(std::numeric_limits<std::int64_t>::max()).size(), std::size_t{96});
    QCOMPARE(attnlab::divisors(897612484786617600LL).size(), std::size_t{103680}); // most divisors below 2^63
    const auto big = attnlab::divisors(963761198400LL);
    QVERIFY(std::is_sorted(big.begin(), big.end()));
    QCOMPARE(big.size(), std::size_t{6720});
    for (auto d : big)
        QVERIFY(963761198400LL % d == 0);
    QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed()) + " ms"));
}

void TestConfig::severity_names()
{
    QCOMPARE(severity_name(Severity::Note), std::string("note"));
    QCOMPARE(severity_name(Severity::Warning), std::string("warning"));
    QCOMPARE(severity_name(Severity::Error), std::string("error"));
    QVERIFY(!has_error({}));
    QVERIFY(has_error({Diagnostic{DiagnosticCode::HeadSplit, Severity::Error, std::nullopt, "m", {}, {}}}));
    QVERIFY(!has_error({Diagnostic{DiagnosticCode::DropoutEval, Severity::Note, std::nullopt, "m", {}, {}},
                        Diagnostic{DiagnosticCode::TrainedWeights, Severity::Warning, Slot::d_out, "m", {}, {}}}));
}

// The names are the CLI's `validate --json` output and the diagnostic cards' object names: fixed text.
void TestConfig::diagnostic_code_names()
{
    const QStringList expected = {
        "non-positive",   "non-positive-input", "dropout-range",   "head-split",    "tokens-exceed-context",
        "head-dim-small", "d-in-ne-d-out",      "wrapper-width",   "dropout-eval",  "call-syntax",
        "memory-budget",  "cancelled",          "engine",          "text-empty",    "text-unusable",
        "layer-missing",  "model-missing",      "trained-weights", "slots-swapped", "kv-group-split",
        "window-range"};
    QStringList names;
    for (DiagnosticCode code : kDiagnosticCodes) {
        const std::string name = diagnostic_code_name(code);
        names << QString::fromStdString(name);
        QVERIFY2(diagnostic_code_from_name(name) == code, name.c_str());
    }
    QCOMPARE(names, expected);
    QVERIFY(!diagnostic_code_from_name("head_split"));
    QVERIFY(!diagnostic_code_from_name(""));
}

void TestConfig::slot_names()
{
    QStringList names;
    for (Slot slot : kSlots) {
        const std::string name = slot_name(slot);
        names << QString::fromStdString(name);
        QVERIFY2(slot_from_name(name) == slot, name.c_str());
    }
    QCOMPARE(names, (QStringList{"d_in", "d_out", "context_length", "dropout", "num_heads", "num_kv_groups", "qkv_bias",
                                 "window_size", "batch", "num_tokens"}));
    // Every constructor slot of every class is one of them.
    for (ModuleKind kind : {ModuleKind::MultiHeadAttention, ModuleKind::CausalAttention, ModuleKind::SelfAttentionV2,
                            ModuleKind::GroupedQueryAttention})
        for (const std::string& name : module_slots(kind))
            QVERIFY2(slot_from_name(name).has_value(), name.c_str());
    QVERIFY(!slot_from_name("heads"));
}

QTEST_GUILESS_MAIN(TestConfig)
#include "test_config.moc"
