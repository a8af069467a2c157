// GroupedQueryAttention beside MultiHeadAttention: with one key/value head per query head it is the same
// module (same seed, same numbers); with fewer, keys.repeated holds each key/value head once per query head
// of its group, as a copy. Its settings are refused in one sentence with the nearest valid values, under
// both of the names the literature uses. Every stage against PyTorch: test_seeded_reference, test_golden.
#include "call/call_parser.h"
#include "forward/follow.h"
#include "forward/trace.h"
#include "io/weights.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

Config gqa(std::int64_t d_out, std::int64_t heads, std::int64_t groups)
{
    Config c;
    c.kind = ModuleKind::GroupedQueryAttention;
    c.d_in = 6;
    c.d_out = d_out;
    c.context_length = 8;
    c.num_heads = heads;
    c.num_kv_groups = groups;
    return c;
}

Tensor input(const Config& c, std::int64_t batch, std::int64_t tokens, std::uint64_t seed)
{
    return random_input(c, batch, tokens, seed);
}

const Diagnostic* find(const std::vector<Diagnostic>& all, DiagnosticCode code)
{
    for (const Diagnostic& d : all)
        if (d.code == code)
            return &d;
    return nullptr;
}

} // namespace

class TestGroupedQuery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneGroupPerHeadIsMultiHeadAttention();
    void repeatedKeysAreCopiesOfTheirGroupsHead_data();
    void repeatedKeysAreCopiesOfTheirGroupsHead();
    void aKeyLivesInEveryQueryHeadOfItsGroup();
    void theKeyAndValueProjectionsAreNarrower();
    void badGroupsAreOneSentenceWithTheNearestValid_data();
    void badGroupsAreOneSentenceWithTheNearestValid();
    void bothNamesOfTheSettingBind_data();
    void bothNamesOfTheSettingBind();
    void aSlidingWindowHidesTheOlderKeys_data();
    void aSlidingWindowHidesTheOlderKeys();
    void badWindowsAreOneSentenceWithTheNearestValid_data();
    void badWindowsAreOneSentenceWithTheNearestValid();
};

void TestGroupedQuery::oneGroupPerHeadIsMultiHeadAttention()
{
    Config grouped = gqa(8, 4, 4);
    grouped.qkv_bias = true;
    Config mha = grouped;
    mha.kind = ModuleKind::MultiHeadAttention;
    // Constructed in the same order with the same shapes, a seed draws the same parameters.
    const StateDict wg = init_weights(grouped, 7), wm = init_weights(mha, 7);
    QCOMPARE(wg.size(), wm.size());
    for (const auto& [name, t] : wm)
        QVERIFY2(wg.at(name).to_vector() == t.to_vector(), name.c_str());
    const Tensor x = input(mha, 2, 5, 3);
    const Trace tg = trace_forward(grouped, wg, x), tm = trace_forward(mha, wm, x);
    for (const Stage& s : tm.stages) {
        const Stage* g = tg.find(s.name);
        QVERIFY2(g, s.name.c_str());
        QVERIFY2(g->tensor.contiguous().to_vector() == s.tensor.contiguous().to_vector(), s.name.c_str());
    }
    // With nothing shared, the repetition copies each head once.
    QVERIFY(tg.find(stage::keys_repeated)->tensor.to_vector() ==
            tg.find(stage::keys_heads)->tensor.contiguous().to_vector());
    QCOMPARE(tg.stages.size(), tm.stages.size() + 2);
}

void TestGroupedQuery::repeatedKeysAreCopiesOfTheirGroupsHead_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("groups");
    QTest::addColumn<qint64>("d_out");
    QTest::newRow("gqa-12-heads-4-groups") << qint64(12) << qint64(4) << qint64(24);
    QTest::newRow("mqa-4-heads") << qint64(4) << qint64(1) << qint64(8);
    QTest::newRow("head-dim-1") << qint64(6) << qint64(3) << qint64(6);
}

void TestGroupedQuery::repeatedKeysAreCopiesOfTheirGroupsHead()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, groups);
    QFETCH(qint64, d_out);
    const Config c = gqa(d_out, heads, groups);
    const Trace t = trace_forward(c, init_weights(c, 11), input(c, 2, 5, 12));
    const std::int64_t hd = d_out / heads, group = heads / groups;
    for (const char* name : {stage::keys_repeated, stage::values_repeated}) {
        const Stage* rep = t.find(name);
        const Stage* src = t.find(name == stage::keys_repeated ? stage::keys_heads : stage::values_heads);
        QVERIFY(rep && src);
        QCOMPARE(src->tensor.shape(), (Shape{2, groups, 5, hd}));
        QCOMPARE(rep->tensor.shape(), (Shape{2, heads, 5, hd}));
        QCOMPARE(rep->expected_shape, rep->tensor.shape());
        // repeat_interleave copies: a storage of its own, contiguous, not a view (expand would be stride 0).
        QVERIFY(rep->view_of.empty());
        QVERIFY(rep->tensor.is_contiguous());
        QVERIFY(!rep->tensor.shares_storage_with(src->tensor));
        for (std::int64_t b = 0; b < 2; ++b)
            for (std::int64_t h = 0; h < heads; ++h)
                for (std::int64_t i = 0; i < 5; ++i)
                    for (std::int64_t d = 0; d < hd; ++d)
                        QCOMPARE(rep->tensor.at({b, h, i, d}), src->tensor.at({b, h / group, i, d}));
    }
    QCOMPARE(t.find(stage::keys)->tensor.shape(), (Shape{2, 5, groups * hd}));
    QCOMPARE(t.find(stage::queries)->tensor.shape(), (Shape{2, 5, d_out}));
    QCOMPARE(t.find(stage::attn_weights)->tensor.shape(), (Shape{2, heads, 5, 5}));
}

void TestGroupedQuery::aKeyLivesInEveryQueryHeadOfItsGroup()
{
    const Config c = gqa(24, 12, 4); // groups of 3, head_dim 2
    const Trace t = trace_forward(c, init_weights(c, 5), input(c, 1, 4, 6));
    // Key head 2, feature 1 of token 3: column 2 * 2 + 1 of the projection.
    const ElementFollow f = follow_element(t, stage::keys, {0, 3, 5});
    std::vector<std::int64_t> heads;
    for (const ElementPlace& p : f.places)
        if (p.stage == stage::keys_repeated) {
            QCOMPARE(p.placement, Placement::Copy);
            QCOMPARE(p.index[2], std::int64_t{3});
            QCOMPARE(p.index[3], std::int64_t{1});
            heads.push_back(p.index[1]);
        }
    std::sort(heads.begin(), heads.end());
    QCOMPARE(heads, (std::vector<std::int64_t>{6, 7, 8}));
    // Back from a repeated copy to the head it was copied from, and on to the projection.
    const ElementFollow back = follow_element(t, stage::keys_repeated, {0, 7, 3, 1});
    QCOMPARE(back.computed_at, std::string(stage::keys));
    QCOMPARE(back.computed_index, (Index{0, 3, 5}));
}

void TestGroupedQuery::theKeyAndValueProjectionsAreNarrower()
{
    Config c = gqa(768, 12, 4);
    c.d_in = 768;
    std::map<std::string, Shape> shapes;
    for (const ParameterSpec& s : parameter_specs(c))
        shapes[s.name] = s.shape;
    QCOMPARE(shapes.at("W_query.weight"), (Shape{768, 768}));
    QCOMPARE(shapes.at("W_key.weight"), (Shape{256, 768})); // 4 key/value heads of head_dim 64
    QCOMPARE(shapes.at("W_value.weight"), (Shape{256, 768}));
    QCOMPARE(shapes.at("out_proj.weight"), (Shape{768, 768}));
    QCOMPARE(parameter_count(c), std::int64_t{768 * 768 + 2 * 256 * 768 + 768 * 768 + 768});
}

void TestGroupedQuery::badGroupsAreOneSentenceWithTheNearestValid_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("groups");
    QTest::addColumn<int>("code");
    QTest::addColumn<QList<qint64>>("fixes");
    QTest::addColumn<QString>("says");
    QTest::newRow("5-of-12") << qint64(12) << qint64(5) << int(DiagnosticCode::KvGroupSplit) << QList<qint64>{4, 6}
                             << "12 / 5 = 2.4";
    QTest::newRow("more-than-heads") << qint64(4) << qint64(8) << int(DiagnosticCode::KvGroupSplit) << QList<qint64>{4}
                                     << "more key/value heads than the 4 query heads";
    QTest::newRow("zero") << qint64(4) << qint64(0) << int(DiagnosticCode::NonPositive) << QList<qint64>{}
                          << "num_kv_groups = 0 must be a positive integer";
    QTest::newRow("negative") << qint64(4) << qint64(-2) << int(DiagnosticCode::NonPositive) << QList<qint64>{}
                              << "num_kv_groups = -2";
}

void TestGroupedQuery::badGroupsAreOneSentenceWithTheNearestValid()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, groups);
    QFETCH(int, code);
    QFETCH(QList<qint64>, fixes);
    QFETCH(QString, says);
    const std::vector<Diagnostic> all = validate(gqa(heads * 2, heads, groups), InputShape{1, 4});
    const Diagnostic* d = find(all, static_cast<DiagnosticCode>(code));
    QVERIFY(d);
    QCOMPARE(d->severity, Severity::Error);
    QCOMPARE(d->slot, std::optional<Slot>(Slot::num_kv_groups));
    QVERIFY2(QString::fromStdString(d->message).contains(says), d->message.c_str());
    QVERIFY(d->message.back() == '.');
    if (!fixes.isEmpty()) // what would be valid, said in the sentence
        QVERIFY2(d->message.find("so use num_kv_groups = " + std::to_string(fixes.front())) != std::string::npos,
                 d->message.c_str());
    QList<qint64> offered;
    for (const Fix& f : d->fixes) {
        QCOMPARE(f.slot, Slot::num_kv_groups);
        offered << f.value;
        QVERIFY2(!has_error(validate(gqa(heads * 2, heads, f.value))), "a fix that does not fix");
    }
    QCOMPARE(offered, fixes);
    // The engine refuses it with the same sentence.
    const Config c = gqa(heads * 2, heads, groups);
    QVERIFY_THROWS_EXCEPTION(std::exception, trace_forward(c, StateDict{}, input(gqa(8, 4, 2), 1, 4, 1)));
    // Every divisor is valid, 1 (multi-query) and num_heads (multi-head) included.
    for (std::int64_t g : divisors(heads))
        QVERIFY(!has_error(validate(gqa(heads * 2, heads, g))));
}

void TestGroupedQuery::bothNamesOfTheSettingBind_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<qint64>("groups");
    QTest::newRow("positional") << "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4)" << qint64(4);
    QTest::newRow("book-keyword") << "GroupedQueryAttention(768, 768, 1024, 0.0, 12, num_kv_groups=3)" << qint64(3);
    QTest::newRow("hugging-face-keyword")
        << "GroupedQueryAttention(768, 768, 1024, 0.0, num_heads=12, num_key_value_heads=2)" << qint64(2);
}

void TestGroupedQuery::bothNamesOfTheSettingBind()
{
    QFETCH(QString, call);
    QFETCH(qint64, groups);
    const ParsedCall p = parse_call(call.toStdString());
    QVERIFY2(p.ok(), p.error ? p.error->message.c_str() : "");
    QCOMPARE(p.config->kind, ModuleKind::GroupedQueryAttention);
    QCOMPARE(p.config->num_kv_groups, groups);
    QCOMPARE(p.config->num_heads, qint64(12));
    // Printed under the book's name, and read back to the same config.
    const std::string canonical = canonical_call(*p.config);
    QVERIFY2(canonical.find("num_kv_groups=" + std::to_string(groups)) != std::string::npos, canonical.c_str());
    QCOMPARE(*parse_call(canonical).config, *p.config);
    QCOMPARE(*parse_call(positional_call(*p.config)).config, *p.config);
    // Given twice under its two names, Python's rule: one value per argument.
    const ParsedCall twice =
        parse_call("GroupedQueryAttention(768, 768, 1024, 0.0, 12, num_kv_groups=4, num_key_value_heads=4)");
    QVERIFY(!twice.ok());
}

void TestGroupedQuery::aSlidingWindowHidesTheOlderKeys_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<qint64>("window");
    QTest::newRow("window-3") << "GroupedQueryAttention(6, 8, 8, 0.0, 4, 2, window_size=3)" << qint64(3);
    QTest::newRow("window-1-sees-itself") << "GroupedQueryAttention(6, 8, 8, 0.0, 4, 1, window_size=1)" << qint64(1);
    QTest::newRow("window-as-wide-as-the-input")
        << "GroupedQueryAttention(6, 8, 8, 0.0, 4, 4, window_size=6)" << qint64(6);
}

void TestGroupedQuery::aSlidingWindowHidesTheOlderKeys()
{
    QFETCH(QString, call);
    QFETCH(qint64, window);
    const ParsedCall p = parse_call(call.toStdString());
    QVERIFY2(p.ok(), p.error ? p.error->message.c_str() : "");
    QCOMPARE(p.config->window_size, std::optional<std::int64_t>(window));
    // Written by keyword in both forms (it follows qkv_bias, which the short form leaves out).
    QCOMPARE(*parse_call(positional_call(*p.config)).config, *p.config);
    QCOMPARE(*parse_call(canonical_call(*p.config)).config, *p.config);
    const std::int64_t T = 6;
    const Trace t = trace_forward(*p.config, init_weights(*p.config, 2), input(*p.config, 2, T, 3));
    const Stage* masked = t.find(stage::attn_scores_masked);
    const Stage* weights = t.find(stage::attn_weights);
    Config whole = *p.config;
    whole.window_size.reset();
    const Trace full = trace_forward(whole, init_weights(whole, 2), input(whole, 2, T, 3));
    for (std::int64_t b = 0; b < 2; ++b)
        for (std::int64_t h = 0; h < p.config->num_heads; ++h)
            for (std::int64_t i = 0; i < T; ++i) {
                double sum = 0;
                for (std::int64_t j = 0; j < T; ++j) {
                    const bool seen = j <= i && j > i - window;
                    const float m = masked->tensor.at({b, h, i, j}), w = weights->tensor.at({b, h, i, j});
                    QVERIFY(seen ? std::isfinite(m) : std::isinf(m) && m < 0);
                    QVERIFY(seen || w == 0.0f);
                    sum += w;
                    if (seen) // the scores themselves do not depend on the window
                        QCOMPARE(m, full.find(stage::attn_scores)->tensor.at({b, h, i, j}));
                    if (seen && i < window) // rows the window does not cut equal the whole context's
                        QCOMPARE(w, full.find(stage::attn_weights)->tensor.at({b, h, i, j}));
                }
                QVERIFY(std::fabs(sum - 1.0) < 1e-5);
            }
    // Following a masked score names the window.
    if (window < T - 1) {
        const ElementFollow f = follow_element(t, stage::attn_scores_masked, {0, 0, T - 1, 0});
        QVERIFY2(f.sources.masked_out, f.sources.explanation.c_str());
        QVERIFY2(f.sources.explanation.find("sliding window") != std::string::npos, f.sources.explanation.c_str());
    }
}

void TestGroupedQuery::badWindowsAreOneSentenceWithTheNearestValid_data()
{
    QTest::addColumn<qint64>("window");
    QTest::addColumn<qint64>("fix");
    QTest::addColumn<QString>("says");
    QTest::newRow("zero") << qint64(0) << qint64(1) << "see no token at all";
    QTest::newRow("negative") << qint64(-4) << qint64(1) << "window_size = -4";
    QTest::newRow("beyond-the-context") << qint64(9) << qint64(8) << "wider than context_length = 8";
}

void TestGroupedQuery::badWindowsAreOneSentenceWithTheNearestValid()
{
    QFETCH(qint64, window);
    QFETCH(qint64, fix);
    QFETCH(QString, says);
    Config c = gqa(8, 4, 2);
    c.window_size = window;
    const std::vector<Diagnostic> all = validate(c);
    const Diagnostic* d = find(all, DiagnosticCode::WindowRange);
    QVERIFY(d);
    QCOMPARE(d->slot, std::optional<Slot>(Slot::window_size));
    QVERIFY2(QString::fromStdString(d->message).contains(says), d->message.c_str());
    QVERIFY2(d->message.find("use a window of 1 to 8 tokens, such as " + std::to_string(fix)) != std::string::npos,
             d->message.c_str());
    QCOMPARE(d->fixes, (std::vector<Fix>{{Slot::window_size, fix}}));
    c.window_size = fix;
    QVERIFY(!has_error(validate(c)));
    // The call line reads None as no window at all.
    const ParsedCall none = parse_call("GroupedQueryAttention(6, 8, 8, 0.0, 4, 2, window_size=None)");
    QVERIFY(none.ok() && !none.config->window_size);
}

QTEST_GUILESS_MAIN(TestGroupedQuery)
#include "test_grouped_query.moc"
