// The trade-off rows: every divisor of d_out as num_heads, constant parameters and multiply-adds,
// score memory growing with the heads; and the valid widths for a fixed head count.
#include "common/errors.h"
#include "tensor/error.h"
#include "designs/tradeoffs.h"
#include "io/weights.h"

#include <QtTest>

#include <functional>

using namespace attnlab;
using testing::error_of;

namespace {

Config mha(std::int64_t d_in, std::int64_t d_out, std::int64_t heads, bool bias)
{
    Config c;
    c.kind = ModuleKind::MultiHeadAttention;
    c.d_in = d_in;
    c.d_out = d_out;
    c.num_heads = heads;
    c.qkv_bias = bias;
    return c;
}

} // namespace

class TestTradeoffs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rows_per_width_data();
    void rows_per_width();
    void widths_per_head_count_data();
    void widths_per_head_count();
    void refusals_data();
    void refusals();
};

void TestTradeoffs::rows_per_width_data()
{
    QTest::addColumn<qint64>("d_out");
    QTest::addColumn<qint64>("d_in");
    QTest::addColumn<bool>("bias");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<QList<qint64>>("heads");
    QTest::newRow("gpt2-small") << 768ll << 0ll << false << 1ll << 1024ll
                                << QList<qint64>{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 768};
    QTest::newRow("odd-6-bias") << 6ll << 5ll << true << 2ll << 7ll << QList<qint64>{1, 2, 3, 6};
    QTest::newRow("prime-7") << 7ll << 3ll << false << 3ll << 4ll << QList<qint64>{1, 7};
    QTest::newRow("width-1") << 1ll << 0ll << true << 1ll << 1ll << QList<qint64>{1};
}

void TestTradeoffs::rows_per_width()
{
    QFETCH(qint64, d_out);
    QFETCH(qint64, d_in);
    QFETCH(bool, bias);
    QFETCH(qint64, batch);
    QFETCH(qint64, tokens);
    QFETCH(QList<qint64>, heads);
    HeadTradeoffQuery q{d_out, d_in ? std::optional<std::int64_t>(d_in) : std::nullopt, tokens, batch, bias};
    const HeadTradeoffs t = head_tradeoffs(q);
    const std::int64_t din = d_in ? d_in : d_out;
    QCOMPARE(t.d_in, din);
    QCOMPARE(qsizetype(t.rows.size()), heads.size());
    for (qsizetype i = 0; i < heads.size(); ++i) {
        const HeadOption& r = t.rows[std::size_t(i)];
        const Config c = mha(din, d_out, heads[i], bias);
        QCOMPARE(r.num_heads, heads[i]);
        QCOMPARE(r.head_dim * r.num_heads, d_out);
        QCOMPARE(r.parameters, parameter_count(c)); // the same count weights.h registers
        QCOMPARE(r.parameters, t.rows.front().parameters);
        const ForwardCost cost = forward_cost(c, {batch, tokens});
        QCOMPARE(r.cost.projections, cost.projections);
        QCOMPARE(r.cost.scores, cost.scores);
        QCOMPARE(r.cost.context, cost.context);
        QCOMPARE(r.cost.out_proj, cost.out_proj);
        QCOMPARE(r.cost.total(), t.rows.front().cost.total()); // H * head_dim = d_out: same work
        QCOMPARE(r.score_bytes, 4.0 * double(batch * heads[i] * tokens * tokens));
    }
}

void TestTradeoffs::widths_per_head_count_data()
{
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("lo");
    QTest::addColumn<qint64>("hi"); // 0: the default, 64 * heads
    QTest::addColumn<qint64>("d_in");
    QTest::addColumn<QList<qint64>>("widths");
    QTest::newRow("12-up-to-100") << 12ll << 1ll << 100ll << 0ll << QList<qint64>{12, 24, 36, 48, 60, 72, 84, 96};
    QTest::newRow("3-from-5-to-12") << 3ll << 5ll << 12ll << 5ll << QList<qint64>{6, 9, 12};
    QTest::newRow("one-head") << 1ll << 3ll << 5ll << 0ll << QList<qint64>{3, 4, 5};
    QTest::newRow("none-in-range") << 10ll << 11ll << 19ll << 0ll << QList<qint64>{};
    QList<qint64> gpt2;
    for (qint64 k = 1; k <= 64; ++k)
        gpt2 << 12 * k;
    QTest::newRow("default-max") << 12ll << 1ll << 0ll << 0ll << gpt2;
}

void TestTradeoffs::widths_per_head_count()
{
    QFETCH(qint64, heads);
    QFETCH(qint64, lo);
    QFETCH(qint64, hi);
    QFETCH(qint64, d_in);
    QFETCH(QList<qint64>, widths);
    WidthQuery q;
    q.num_heads = heads;
    q.d_out_min = lo;
    if (hi)
        q.d_out_max = hi;
    if (d_in)
        q.d_in = d_in;
    q.qkv_bias = true;
    const std::vector<WidthOption> rows = width_options(q);
    QCOMPARE(qsizetype(rows.size()), widths.size());
    for (qsizetype i = 0; i < widths.size(); ++i) {
        const WidthOption& r = rows[std::size_t(i)];
        QCOMPARE(r.d_out, widths[i]);
        QCOMPARE(r.head_dim, widths[i] / heads);
        QCOMPARE(r.parameters, parameter_count(mha(d_in ? d_in : r.d_out, r.d_out, heads, true)));
    }
}

void TestTradeoffs::refusals_data()
{
    QTest::addColumn<QString>("which");
    QTest::addColumn<QString>("message_has");
    QTest::newRow("zero-d-out") << "d_out=0"
                                << "d_out = 0";
    QTest::newRow("zero-tokens") << "tokens=0"
                                 << "tokens = 0";
    QTest::newRow("huge-widths") << "d_out=2^40"
                                 << "64-bit";
    QTest::newRow("zero-heads") << "heads=0"
                                << "num_heads = 0";
    QTest::newRow("backwards-range") << "range=10..5"
                                     << "is empty";
    QTest::newRow("too-many-widths") << "range=1..10^9"
                                     << "narrow the range";
}

void TestTradeoffs::refusals()
{
    QFETCH(QString, which);
    QFETCH(QString, message_has);
    const QString message = error_of([&] {
        HeadTradeoffQuery h;
        WidthQuery w;
        w.num_heads = 1;
        if (which == "d_out=0")
            h.d_out = 0;
        if (which == "tokens=0")
            h.num_tokens = 0;
        if (which == "d_out=2^40")
            h.d_out = std::int64_t{1} << 40;
        if (which.startsWith("d_out") || which.startsWith("tokens"))
            head_tradeoffs(h);
        if (which == "heads=0")
            w.num_heads = 0;
        if (which == "range=10..5")
            w.d_out_min = 10, w.d_out_max = 5;
        if (which == "range=1..10^9")
            w.d_out_max = 1000000000;
        width_options(w);
    });
    QVERIFY2(message.contains(message_has), qPrintable(message));
}

QTEST_GUILESS_MAIN(TestTradeoffs)
#include "test_tradeoffs.moc"
