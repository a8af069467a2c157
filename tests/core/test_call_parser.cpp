// Reading constructor calls as Python would: which slot each value lands in, the Config that comes
// out, and for refused calls the column the caret points at and what the message says.
#include "call/call_parser.h"

#include "call/call_messages.h"

#include <QtTest>

#include <random>

using namespace attnlab;
Q_DECLARE_METATYPE(attnlab::Config)

namespace {

const auto kMha = ModuleKind::MultiHeadAttention;

Config make(ModuleKind kind, std::int64_t d_in, std::int64_t d_out, std::int64_t context_length = 1024,
            double dropout = 0.0, std::int64_t num_heads = 12, bool qkv_bias = false)
{
    return Config{kind, d_in, d_out, context_length, dropout, num_heads, qkv_bias};
}

QStringList slots_of(const CallSyntax& syntax)
{
    QStringList out;
    for (const auto& arg : syntax.arguments)
        out << QString::fromStdString(arg.slot);
    return out;
}

const QStringList kAllSlots = {"d_in", "d_out", "context_length", "dropout", "num_heads"};

} // namespace

class TestCallParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void good_calls_data();
    void good_calls();
    void bad_calls_data();
    void bad_calls();
    void syntax_survives_binding_errors();
    void literal_kinds_and_offsets();
    void caret_lines_up();
    void huge_inputs_are_refused_quickly();
    void never_throws_on_garbage();
    void golden_calls_round_trip();
    void echoes_stay_on_one_line();
};

void TestCallParser::good_calls_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<Config>("config");
    QTest::addColumn<QStringList>("slot_names");
    const Config gpt2 = make(kMha, 768, 768, 1024, 0.0, 12);
    QTest::newRow("positional-gpt2-small") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << gpt2 << kAllSlots;
    QTest::newRow("keyword-gpt2-small") << "MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, "
                                           "num_heads=12, qkv_bias=False)"
                                        << gpt2 << kAllSlots + QStringList{"qkv_bias"};
    QTest::newRow("keyword-any-order") << "MultiHeadAttention(num_heads=12, qkv_bias=True, dropout=0.1, "
                                          "context_length=1024, d_out=768, d_in=768)"
                                       << make(kMha, 768, 768, 1024, 0.1, 12, true)
                                       << QStringList{"num_heads",      "qkv_bias", "dropout",
                                                      "context_length", "d_out",    "d_in"};
    QTest::newRow("mixed") << "MultiHeadAttention(768, 768, context_length=1024, dropout=0.0, num_heads=12)" << gpt2
                           << kAllSlots;
    QTest::newRow("whitespace-everywhere")
        << "  MultiHeadAttention (\n\t768 ,768,\n  1024 , 0.0 ,\tnum_heads = 12 )  \n"
        << gpt2 << kAllSlots;
    QTest::newRow("underscores") << "MultiHeadAttention(d_in=1_536, d_out=1_536, context_length=1_024, dropout=0.0, "
                                    "num_heads=1_2)"
                                 << make(kMha, 1536, 1536, 1024, 0.0, 12) << kAllSlots;
    QTest::newRow("trailing-comma") << "MultiHeadAttention(768, 768, 1024, 0.0, 12,)" << gpt2 << kAllSlots;
    QTest::newRow("trailing-comma-space") << "MultiHeadAttention(768, 768, 1024, 0.0, 12 , )" << gpt2 << kAllSlots;
    QTest::newRow("dropout-leading-dot") << "MultiHeadAttention(768, 768, 1024, .1, 12)"
                                         << make(kMha, 768, 768, 1024, 0.1, 12) << kAllSlots;
    QTest::newRow("dropout-exponent") << "MultiHeadAttention(768, 768, 1024, 1e-1, 12)"
                                      << make(kMha, 768, 768, 1024, 0.1, 12) << kAllSlots;
    QTest::newRow("dropout-trailing-dot")
        << "MultiHeadAttention(768, 768, 1024, 1., 12)" << make(kMha, 768, 768, 1024, 1.0, 12) << kAllSlots;
    QTest::newRow("dropout-int-zero") << "MultiHeadAttention(768, 768, 1024, 0, 12)" << gpt2 << kAllSlots;
    QTest::newRow("dropout-underflows-to-zero")
        << "MultiHeadAttention(768, 768, 1024, 1e-999, 12)" << gpt2 << kAllSlots;
    QTest::newRow("hex-heads") << "MultiHeadAttention(768, 0x300, 1024, 0.0, 0xC)" << gpt2 << kAllSlots;
    QTest::newRow("negative-values-parse")
        << "MultiHeadAttention(-1, +768, 1024, -0.5, 12)" << make(kMha, -1, 768, 1024, -0.5, 12) << kAllSlots;
    QTest::newRow("int64-extremes") << "MultiHeadAttention(-9223372036854775808, 9223372036854775807, 1, 0.0, 1)"
                                    << make(kMha, INT64_MIN, INT64_MAX, 1, 0.0, 1) << kAllSlots;
    QTest::newRow("bias-positional") << "MultiHeadAttention(10, 12, 16, 0.0, 3, True)"
                                     << make(kMha, 10, 12, 16, 0.0, 3, true) << kAllSlots + QStringList{"qkv_bias"};
    QTest::newRow("book-toy") << "MultiHeadAttention(3, 2, 6, 0.0, num_heads=2)" << make(kMha, 3, 2, 6, 0.0, 2)
                              << kAllSlots;
    QTest::newRow("self-attention-v1") << "SelfAttention_v1(3, 2)" << make(ModuleKind::SelfAttentionV1, 3, 2)
                                       << QStringList{"d_in", "d_out"};
    QTest::newRow("self-attention-v2-bias")
        << "SelfAttention_v2(d_in=3, d_out=2, qkv_bias=True)"
        << make(ModuleKind::SelfAttentionV2, 3, 2, 1024, 0.0, 12, true) << QStringList{"d_in", "d_out", "qkv_bias"};
    QTest::newRow("causal") << "CausalAttention(3, 2, 6, 0.0)" << make(ModuleKind::CausalAttention, 3, 2, 6)
                            << QStringList{"d_in", "d_out", "context_length", "dropout"};
    QTest::newRow("causal-bias-keyword") << "CausalAttention(3, 2, 6, 0.5, qkv_bias=True)"
                                         << make(ModuleKind::CausalAttention, 3, 2, 6, 0.5, 12, true)
                                         << QStringList{"d_in", "d_out", "context_length", "dropout", "qkv_bias"};
    QTest::newRow("wrapper-book") << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, num_heads=2)"
                                  << make(ModuleKind::MultiHeadAttentionWrapper, 3, 2, 6, 0.0, 2) << kAllSlots;
    // Valid Python that is still a literal: parentheses around a value, `not` before one.
    QTest::newRow("parenthesised") << "MultiHeadAttention(((768)), (768), ( 1024 ), (0.0), (12))" << gpt2 << kAllSlots;
    QTest::newRow("parenthesised-negative")
        << "MultiHeadAttention((-1), 768, 1024, 0.0, 12)" << make(kMha, -1, 768, 1024, 0.0, 12) << kAllSlots;
    QTest::newRow("not-false") << "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=not False)"
                               << make(kMha, 768, 768, 1024, 0.0, 12, true) << kAllSlots + QStringList{"qkv_bias"};
    QTest::newRow("not-true") << "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=not True)" << gpt2
                              << kAllSlots + QStringList{"qkv_bias"};
    QTest::newRow("not-not-zero") << "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=not not 0)" << gpt2
                                  << kAllSlots + QStringList{"qkv_bias"};
    QTest::newRow("not-zero") << "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=not 0)"
                              << make(kMha, 768, 768, 1024, 0.0, 12, true) << kAllSlots + QStringList{"qkv_bias"};
    QTest::newRow("not-none") << "MultiHeadAttention(768, 768, 1024, 0.0, 12, not None)"
                              << make(kMha, 768, 768, 1024, 0.0, 12, true) << kAllSlots + QStringList{"qkv_bias"};
    // Forty thousand levels: read in a loop, so no recursion runs out of stack.
    QTest::newRow("deep-parentheses") << "MultiHeadAttention(" + QString(40000, QLatin1Char('(')) + "768" +
                                             QString(40000, QLatin1Char(')')) + ", 768, 1024, 0.0, 12)"
                                      << gpt2 << kAllSlots;
    QTest::newRow("parenthesised-not") << "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=(not (0.0)))"
                                       << make(kMha, 768, 768, 1024, 0.0, 12, true)
                                       << kAllSlots + QStringList{"qkv_bias"};
}

void TestCallParser::good_calls()
{
    QFETCH(QString, text);
    QFETCH(Config, config);
    QFETCH(QStringList, slot_names);
    const ParsedCall parsed = parse_call(text.toStdString());
    QVERIFY2(parsed.ok(), parsed.error ? parsed.error->with_caret(text.toStdString()).c_str() : "no error either");
    QVERIFY(!parsed.error);
    QVERIFY2(*parsed.config == config, canonical_call(*parsed.config).c_str());
    QCOMPARE(slots_of(parsed.syntax), slot_names);

    for (const std::string& again : {canonical_call(config), positional_call(config)}) {
        const ParsedCall back = parse_call(again);
        QVERIFY2(back.ok() && *back.config == config, again.c_str());
    }
}

void TestCallParser::bad_calls_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const char* text, int column, const char* message) {
        QTest::newRow(name) << QString::fromUtf8(text) << column << QString::fromUtf8(message);
    };
    row("bad-float-heads", "MultiHeadAttention(768, 768, 1024, 0.0, 12.0)", 40,
        "a float where an int belongs; write 12.");
    row("bad-float-d-out", "MultiHeadAttention(768, 768.5, 1024, 0.0, 12)", 24, "such as 768 or 769");
    row("bad-float-names-slot", "MultiHeadAttention(768, 768, 1024.0, 0.0, 12)", 29,
        "context_length (the 3rd positional");
    row("unknown-class", "MultiHeadAtention(768, 768, 1024, 0.0, 12)", 0, "did you mean MultiHeadAttention?");
    row("unknown-class-lists-all", "Attention(3, 2)", 0,
        "SelfAttention_v1, SelfAttention_v2, CausalAttention, MultiHeadAttentionWrapper, MultiHeadAttention or "
        "GroupedQueryAttention");
    row("window-on-mha-names-the-grouped-call", "MultiHeadAttention(8, 8, 8, 0.0, 4, window_size=2)", 36,
        "MultiHeadAttention takes no argument 'window_size' (the book's class has no sliding window); write "
        "GroupedQueryAttention(d_in, d_out, context_length, dropout, num_heads, num_kv_groups=num_heads, "
        "window_size=w)");
    row("grouped-keyword-on-mha", "MultiHeadAttention(8, 8, 8, 0.0, 4, num_kv_groups=2)", 36,
        "MultiHeadAttention takes no argument 'num_kv_groups' (GroupedQueryAttention does)");
    row("torch-spelling", "MultiheadAttention(768, 768, 1024, 0.0, 12)", 0, "did you mean MultiHeadAttention?");
    row("unknown-class-before-syntax", "Causal(3, 2", 0, "did you mean CausalAttention?");
    row("missing-open-paren", "MultiHeadAttention 768, 768)", 19, "expected '(' after MultiHeadAttention");
    row("missing-close-paren", "MultiHeadAttention(768, 768, 1024, 0.0, 12", 42, "closing ')'");
    row("missing-close-paren-newline", "MultiHeadAttention(768, 768, 1024, 0.0, 12,  \n", 43, "closing ')'");
    row("trailing-text", "MultiHeadAttention(768, 768, 1024, 0.0, 12) x", 44, "after the closing ')'");
    row("unexpected-operator", "MultiHeadAttention(768, 768 * 2, 1024, 0.0, 12)", 28, "expected ',' or ')'");
    row("unexpected-bracket", "MultiHeadAttention(768, [768], 1024, 0.0, 12)", 24, "unexpected '['");
    row("empty-argument", "MultiHeadAttention(768, , 1024, 0.0, 12)", 24, "empty argument");
    row("empty-first-argument", "MultiHeadAttention(,)", 19, "empty argument");
    row("double-trailing-comma", "MultiHeadAttention(768, 768, 1024, 0.0, 12,,)", 43, "empty argument");
    row("missing-num-heads", "MultiHeadAttention(768, 768, 1024, 0.0)", 38, "missing 1 required argument, 'num_heads'");
    row("missing-two", "MultiHeadAttention(768, 768, 1024)", 33,
        "missing 2 required arguments, 'dropout' and 'num_heads'");
    row("missing-all", "MultiHeadAttention()", 19, "missing 5 required arguments");
    row("missing-d-out-v1", "SelfAttention_v1(3)", 18,
        "missing 1 required argument, 'd_out'; it takes d_in and d_out.");
    row("missing-dropout-causal", "CausalAttention(3, 2, 6)", 23, "missing 1 required argument, 'dropout'");
    row("too-many-positional", "MultiHeadAttention(768, 768, 1024, 0.0, 12, False, 3)", 51,
        "takes at most 6 positional arguments (d_in, d_out, context_length, dropout, num_heads and qkv_bias), but 7 "
        "were");
    row("too-many-v1", "SelfAttention_v1(3, 2, 6)", 23,
        "takes 2 positional arguments (d_in and d_out), but 3 were given");
    row("duplicate-keyword", "MultiHeadAttention(d_in=768, d_in=768, context_length=1024, dropout=0.0, num_heads=12)",
        29, "got multiple values for argument 'd_in'");
    row("keyword-repeats-positional", "MultiHeadAttention(768, 768, 1024, 0.0, 12, d_out=768)", 44,
        "got multiple values for argument 'd_out': the 2nd positional argument (768) already fills it");
    row("unknown-keyword", "MultiHeadAttention(768, 768, 1024, 0.0, n_heads=12)", 40, "did you mean 'num_heads'?");
    row("unknown-keyword-typo", "MultiHeadAttention(768, 768, 1024, dropuot=0.0, num_heads=12)", 35,
        "did you mean 'dropout'?");
    row("unknown-keyword-block-size", "MultiHeadAttention(768, 768, block_size=1024, dropout=0.0, num_heads=12)", 29,
        "did you mean 'context_length'?");
    row("unknown-keyword-no-guess", "MultiHeadAttention(768, 768, 1024, 0.0, 12, xyz=1)", 44,
        "no argument named 'xyz'; its arguments are d_in, d_out");
    row("causal-has-no-heads", "CausalAttention(3, 2, 6, 0.0, num_heads=2)", 30, "takes no argument 'num_heads'");
    row("positional-after-keyword", "MultiHeadAttention(768, d_out=768, 1024, 0.0, 12)", 35,
        "comes after a keyword argument");
    // An echo of what was typed stays on one line (a session file's call had line breaks in it; the fuzzer found it)
    row("positional-after-keyword-over-lines",
        "MultiHeadAttention(d_in=3, not\n\n\n\ncoGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG\n\n, num_heads=2)", 27,
        "the positional argument 'not coGGGGGGGGGGGGGGGGGGGGGGGGGGGGGGG' comes after");
    row("integer-overflow", "MultiHeadAttention(99999999999999999999, 768, 1024, 0.0, 12)", 19,
        "does not fit in 64 bits");
    row("integer-overflow-by-one", "MultiHeadAttention(768, 9223372036854775808, 1024, 0.0, 12)", 24, "does not fit");
    row("inf-dropout", "MultiHeadAttention(768, 768, 1024, inf, 12)", 35, "inf is not a number literal");
    row("nan-dropout", "MultiHeadAttention(768, 768, 1024, nan, 12)", 35, "nan is not a number literal");
    row("float-inf-call", "MultiHeadAttention(768, 768, 1024, float('inf'), 12)", 40, "expected ',' or ')'");
    row("huge-float-dropout", "MultiHeadAttention(768, 768, 1024, 1e999, 12)", 35, "too large");
    row("qkv-bias-int", "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=1)", 53,
        "qkv_bias must be True or False, not 1");
    row("causal-fifth-is-bias", "CausalAttention(3, 2, 6, 0.0, 2)", 30,
        "qkv_bias (the 5th positional argument of CausalAttention) must be True or False");
    row("bool-heads", "MultiHeadAttention(768, 768, 1024, 0.0, True)", 40, "is a bool");
    row("none-heads", "MultiHeadAttention(768, 768, 1024, 0.0, None)", 40, "= None leaves num_heads unset");
    row("none-dropout", "MultiHeadAttention(768, 768, 1024, None, 12)", 35, "None is not a number literal");
    row("none-bias", "SelfAttention_v2(3, 2, None)", 23, "must be True or False, not None");
    row("string-heads", "MultiHeadAttention(768, 768, 1024, 0.0, '12')", 40, "not a literal number");
    row("name-value", "MultiHeadAttention(emb_dim, emb_dim, 1024, 0.0, 12)", 19, "emb_dim is not a literal number");
    row("leading-zero", "MultiHeadAttention(768, 768, 1024, 0.0, 012)", 40, "leading zeros");
    row("double-underscore", "MultiHeadAttention(768, 768, 1__024, 0.0, 12)", 30, "underscore");
    row("trailing-underscore", "MultiHeadAttention(768_, 768, 1024, 0.0, 12)", 22, "underscore");
    row("letters-after-number", "MultiHeadAttention(768, 768, 1024, 0.0, 12abc)", 42, "not a valid Python number");
    row("imaginary", "MultiHeadAttention(768, 768, 1024, 0.0, 12j)", 42, "unexpected 'j'");
    row("two-dots", "MultiHeadAttention(768, 768, 1024, 0.1.2, 12)", 38, "unexpected '.'");
    row("non-ascii-dash", "MultiHeadAttention(768, 768, 1024, 0.0, \u201312)", 40,
        "non-ASCII character at position 41");
    row("empty-call", "", 0, "the call is empty");
    row("whitespace-only", "  \n ", 0, "the call is empty");
    row("no-class-name", "(768)", 0, "expected a class name");
    row("keyword-without-value", "MultiHeadAttention(d_in=, d_out=768)", 24, "'d_in=' has no value");
    row("sign-without-number", "MultiHeadAttention(-, 768)", 20, "expected a number after '-'");
    row("unterminated-string", "MultiHeadAttention(768, 'abc)", 24, "no closing");
    row("parenthesis-not-closed", "MultiHeadAttention((768, 768, 1024, 0.0, 12)", 23, "expected ')' to close a '('");
    row("not-without-value", "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=not)", 56,
        "where a value should be");
    row("not-in-an-int-slot", "MultiHeadAttention(768, 768, 1024, 0.0, not 12)", 40, "is a bool");
    row("not-of-a-name", "MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=not nan)", 53, "True or False");
}

void TestCallParser::bad_calls()
{
    QFETCH(QString, text);
    QFETCH(int, column);
    QFETCH(QString, message);
    const std::string call = text.toStdString();
    const ParsedCall parsed = parse_call(call);
    QVERIFY(!parsed.ok());
    QVERIFY(parsed.error);
    const QString actual = QString::fromStdString(parsed.error->message);
    QVERIFY2(actual.contains(message), qPrintable(actual));
    QVERIFY2(actual.endsWith('.') || actual.endsWith('?'), qPrintable(actual));
    QVERIFY2(!actual.contains('\n') && !actual.contains(QChar::ReplacementCharacter), qPrintable(actual));
    QCOMPARE(int(parsed.error->column), column);
}

void TestCallParser::syntax_survives_binding_errors()
{
    const ParsedCall bad_value = parse_call("MultiHeadAttention(768, 768.0, 1024, 0.0, 12)");
    QVERIFY(!bad_value.ok());
    QCOMPARE(bad_value.syntax.arguments.size(), std::size_t{5});
    QCOMPARE(slots_of(bad_value.syntax), kAllSlots);
    QCOMPARE(bad_value.syntax.arguments[1].text, std::string("768.0"));
    QCOMPARE(bad_value.syntax.arguments[1].kind, LiteralKind::Float);

    // The slots that did bind are still named next to the one that did not.
    const ParsedCall bad_keyword = parse_call("MultiHeadAttention(768, 768, 1024, 0.0, n_heads=12)");
    QVERIFY(!bad_keyword.ok());
    QCOMPARE(slots_of(bad_keyword.syntax), (QStringList{"d_in", "d_out", "context_length", "dropout", ""}));
    QCOMPARE(bad_keyword.syntax.arguments[4].keyword, std::optional<std::string>("n_heads"));

    const ParsedCall too_many = parse_call("SelfAttention_v1(3, 2, 6)");
    QCOMPARE(slots_of(too_many.syntax), (QStringList{"d_in", "d_out", ""}));

    // parse_call_syntax neither binds nor knows the classes.
    const ParsedCall syntax_only = parse_call_syntax("Whatever(1, 2.5)");
    QVERIFY(!syntax_only.error);
    QVERIFY(!syntax_only.config);
    QCOMPARE(syntax_only.syntax.class_name, std::string("Whatever"));
    QCOMPARE(slots_of(syntax_only.syntax), (QStringList{"", ""}));
}

void TestCallParser::literal_kinds_and_offsets()
{
    const std::string text = "Foo( 1_024, x = .5e1, True, None, emb_dim, 'a', -3)";
    const ParsedCall parsed = parse_call_syntax(text);
    QVERIFY(parsed.error); // the positional arguments after x= are refused, but still read
    QCOMPARE(int(parsed.error->column), 22);
    const auto& args = parsed.syntax.arguments;
    QCOMPARE(args.size(), std::size_t{7});
    const std::vector<LiteralKind> kinds = {LiteralKind::Int,  LiteralKind::Float, LiteralKind::Bool,
                                            LiteralKind::None, LiteralKind::Other, LiteralKind::Other,
                                            LiteralKind::Int};
    const std::vector<std::string> texts = {"1_024", ".5e1", "True", "None", "emb_dim", "'a'", "-3"};
    for (std::size_t i = 0; i < args.size(); ++i) {
        QCOMPARE(args[i].kind, kinds[i]);
        QCOMPARE(args[i].text, texts[i]);
        QCOMPARE(text.substr(args[i].value_begin, args[i].end - args[i].value_begin), texts[i]);
    }
    QCOMPARE(parsed.syntax.class_begin, std::size_t{0});
    QCOMPARE(args[0].begin, std::size_t{5});
    QCOMPARE(args[1].keyword, std::optional<std::string>("x"));
    QCOMPARE(args[1].begin, std::size_t{12});
    QCOMPARE(args[1].value_begin, std::size_t{16});
    QCOMPARE(args[1].end, std::size_t{20});
}

void TestCallParser::caret_lines_up()
{
    const std::string text = "MultiHeadAttention(768, 768, 1024, 0.0, 12.0)";
    const ParsedCall parsed = parse_call(text);
    QVERIFY(parsed.error);
    QCOMPARE(parsed.error->with_caret(text), parsed.error->message + "\n" + text + "\n" + std::string(40, ' ') + "^");

    // Multi-line calls show the line with the problem, tabs kept so the caret stays under it.
    const std::string lines = "MultiHeadAttention(\n\t768, 768,\n\t1024, 0.0, 12.5)";
    const ParsedCall multi = parse_call(lines);
    QVERIFY(multi.error);
    QCOMPARE(int(multi.error->column), 43);
    QCOMPARE(multi.error->with_caret(lines), multi.error->message + "\n\t1024, 0.0, 12.5)\n\t           ^");

    QCOMPARE((CallError{"m", 99}.with_caret("abc")), std::string("m\nabc\n   ^"));
}

void TestCallParser::huge_inputs_are_refused_quickly()
{
    QElapsedTimer timer;
    timer.start();
    std::string many = "MultiHeadAttention(";
    for (int i = 0; i < 30000; ++i)
        many += i == 0 ? "1" : ", 1";
    many += ")";
    const ParsedCall parsed = parse_call(many);
    QVERIFY(!parsed.ok());
    QVERIFY2(parsed.error->message.find("takes at most 6 positional arguments") != std::string::npos &&
                 parsed.error->message.find("30000 were given") != std::string::npos,
             parsed.error->message.c_str());
    QCOMPARE(int(parsed.error->column), 19 + 6 * 3);

    std::string keywords = "MultiHeadAttention(";
    for (int i = 0; i < 12000; ++i)
        keywords += "d_in=1, ";
    keywords += ")";
    const ParsedCall repeated = parse_call(keywords);
    QVERIFY(!repeated.ok());
    QVERIFY(repeated.error->message.find("multiple values for argument 'd_in'") != std::string::npos);

    const std::string digits = "MultiHeadAttention(" + std::string(90000, '9') + ", 1, 1, 0.0, 1)";
    const ParsedCall overflow = parse_call(digits);
    QVERIFY(!overflow.ok());
    QVERIFY(overflow.error->message.size() < 300); // the number is echoed clipped, not in full

    const std::string long_text = "MultiHeadAttention(" + std::string(100001, ' ') + ")";
    const ParsedCall too_long = parse_call(long_text);
    QVERIFY(!too_long.ok());
    QVERIFY2(too_long.error->message.find("more than the 100000") != std::string::npos,
             too_long.error->message.c_str());
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed()) + " ms"));
}

void TestCallParser::never_throws_on_garbage()
{
    // Every prefix of valid and invalid calls, and random bytes, must come back as a value or an error.
    std::vector<std::string> inputs;
    for (const std::string base : {"MultiHeadAttention(d_in=1_024, d_out=0x10, context_length=8, dropout=.5e-1, "
                                   "num_heads=2, qkv_bias=True,)",
                                   "CausalAttention('a\\'b', \"x\", -+1, 1e, 0b, 0x_, 1e+, None)"})
        for (std::size_t n = 0; n <= base.size(); ++n)
            inputs.push_back(base.substr(0, n));
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        std::string s = "MultiHeadAttention(";
        const int length = static_cast<int>(rng() % 40);
        for (int k = 0; k < length; ++k)
            s += static_cast<char>(rng() % 256);
        inputs.push_back(s);
    }
    inputs.push_back(std::string("MultiHeadAttention(1\0, 2)", 25));
    for (const auto& s : inputs) {
        ParsedCall parsed;
        try {
            parsed = parse_call(s);
        } catch (...) {
            QFAIL(("threw on: " + s).c_str());
        }
        QVERIFY(parsed.ok() != parsed.error.has_value());
        if (parsed.error) {
            QVERIFY(parsed.error->column <= s.size());
            QVERIFY(!parsed.error->with_caret(s).empty());
        }
    }
}

void TestCallParser::golden_calls_round_trip()
{
    // The reference files record the call PyTorch ran; reading it and writing it back must agree.
    const QDir dir(QStringLiteral(ATTNLAB_GOLDEN_DIR));
    const QStringList files = dir.entryList({"*.safetensors"}, QDir::Files);
    if (files.isEmpty())
        QSKIP("no golden files");
    int seen = 0;
    for (const QString& name : files) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray size_bytes = file.read(8);
        QCOMPARE(size_bytes.size(), 8);
        quint64 size = 0;
        for (int i = 7; i >= 0; --i)
            size = size * 256 + static_cast<unsigned char>(size_bytes[i]);
        const QJsonObject header = QJsonDocument::fromJson(file.read(qint64(size))).object();
        const std::string call = header["__metadata__"].toObject()["call"].toString().toStdString();
        if (call.empty())
            continue;
        const ParsedCall parsed = parse_call(call);
        QVERIFY2(parsed.ok(), (name.toStdString() + ": " + call).c_str());
        QCOMPARE(canonical_call(*parsed.config), call);
        ++seen;
    }
    QVERIFY(seen >= 5);
}

// clip, which every message's echo of typed text goes through: one line, at most 40 bytes, whole characters.
void TestCallParser::echoes_stay_on_one_line()
{
    QCOMPARE(clip("a\n\n\tb\r\nc  d"), std::string("a b c d"));
    QCOMPARE(clip("\n\nx"), std::string("x"));
    QCOMPARE(clip(std::string(40, 'x')), std::string(40, 'x'));
    QCOMPARE(clip(std::string(41, 'x')), std::string(37, 'x') + "...");
    const std::string accents = "0123456789012345678901234567890123456\u00e9\u00e9\u00e9"; // \u00e9 is 2 bytes
    QCOMPARE(clip(accents), std::string("0123456789012345678901234567890123456..."));
    const std::string inside = "x01234567890123456789012345678901234\u00e9\u00e9\u00e9"; // byte 37 is inside an e-acute
    QCOMPARE(clip(inside), std::string("x01234567890123456789012345678901234..."));
}

QTEST_GUILESS_MAIN(TestCallParser)
#include "test_call_parser.moc"
