// The overview's head measures on hand-made attention: the induction score (the weight on the token right
// after an earlier occurrence of the query's token) and the thumbnails that keep one-token-wide patterns.
#include "common/errors.h"
#include "gpt/head_measures.h"

#include <QtTest>

#include <cmath>
#include <optional>

using namespace attnlab;

Q_DECLARE_METATYPE(std::vector<std::int64_t>)
Q_DECLARE_METATYPE(std::vector<float>)
Q_DECLARE_METATYPE(std::optional<double>)

namespace {

// One head, T x T: row i puts all its weight on key pick(i).
std::vector<float> one_hot_rows(std::int64_t t, const std::function<std::int64_t(std::int64_t)>& pick)
{
    std::vector<float> w(static_cast<std::size_t>(t * t), 0.0f);
    for (std::int64_t i = 0; i < t; ++i)
        w[static_cast<std::size_t>(i * t + pick(i))] = 1.0f;
    return w;
}

std::vector<float> uniform_rows(std::int64_t t)
{
    std::vector<float> w(static_cast<std::size_t>(t * t), 0.0f);
    for (std::int64_t i = 0; i < t; ++i)
        for (std::int64_t j = 0; j <= i; ++j)
            w[static_cast<std::size_t>(i * t + j)] = 1.0f / static_cast<float>(i + 1);
    return w;
}

} // namespace

class TestHeadMeasures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void induction_score_data();
    void induction_score();
    void induction_refuses_mismatched_ids();
    void thumbnail_keeps_thin_patterns();
};

void TestHeadMeasures::induction_score_data()
{
    QTest::addColumn<std::vector<std::int64_t>>("ids");
    QTest::addColumn<std::vector<float>>("weights");
    QTest::addColumn<std::optional<double>>("expected");
    const std::vector<std::int64_t> repeated{5, 6, 7, 5, 6, 7};
    // Each repeated token looks at what followed its first occurrence: 3 -> 1, 4 -> 2, 5 -> 3.
    QTest::newRow("induction-head") << repeated << one_hot_rows(6, [](auto i) { return i < 3 ? i : i - 2; })
                                    << std::optional<double>(1.0);
    QTest::newRow("previous-token-head") << repeated << one_hot_rows(6, [](auto i) { return i > 0 ? i - 1 : 0; })
                                         << std::optional<double>(0.0);
    QTest::newRow("first-token-head") << repeated << one_hot_rows(6, [](auto) { return 0; })
                                      << std::optional<double>(0.0);
    // [1, 1, 1]: query 1 scores w[1,1] = 1/2, query 2 scores w[2,1] + w[2,2] = 2/3.
    QTest::newRow("uniform-on-one-token")
        << std::vector<std::int64_t>{1, 1, 1} << uniform_rows(3) << std::optional<double>((0.5 + 2.0 / 3.0) / 2);
    QTest::newRow("nothing-repeats") << std::vector<std::int64_t>{1, 2, 3, 4} << uniform_rows(4)
                                     << std::optional<double>();
}

void TestHeadMeasures::induction_score()
{
    QFETCH(std::vector<std::int64_t>, ids);
    QFETCH(std::vector<float>, weights);
    QFETCH(std::optional<double>, expected);
    const auto t = static_cast<std::int64_t>(ids.size());
    const auto scores = induction_scores(Tensor::from_values({1, 1, t, t}, weights), ids);
    QCOMPARE(scores.size(), std::size_t(1));
    QCOMPARE(scores[0].has_value(), expected.has_value());
    if (expected)
        QVERIFY2(std::abs(*scores[0] - *expected) < 1e-6, qPrintable(QString::number(*scores[0])));
}

void TestHeadMeasures::induction_refuses_mismatched_ids()
{
    const Tensor w = Tensor::from_values({1, 1, 3, 3}, uniform_rows(3));
    const QString e = testing::error_of([&] { induction_scores(w, {1, 2}); });
    QVERIFY2(e.contains("2 ids for 3 positions"), qPrintable(e));
    QVERIFY(!testing::error_of([&] { induction_scores(Tensor::zeros({3, 3}), {1, 2, 3}); }).isEmpty());
}

void TestHeadMeasures::thumbnail_keeps_thin_patterns()
{
    // A previous-token diagonal at 8 tokens, shrunk to 4 x 4: each cell is its block's largest weight, so
    // the diagonal stays at full strength instead of fading to a quarter.
    const Tensor w = Tensor::from_values({1, 2, 8, 8}, [] {
        auto a = one_hot_rows(8, [](auto i) { return i > 0 ? i - 1 : 0; });
        auto b = uniform_rows(8);
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }());
    const Tensor small = attention_thumbnail(w, 0, 0, 4);
    QCOMPARE(small.shape(), (Shape{4, 4}));
    const std::vector<float> v = small.to_vector();
    for (int r = 0; r < 4; ++r)
        QCOMPARE(v[static_cast<std::size_t>(r * 4 + r)], 1.0f);
    QCOMPARE(v[1], 0.0f); // above the diagonal: causal, nothing
    // At or below the size, the head itself.
    const Tensor same = attention_thumbnail(w, 0, 1, 8);
    QCOMPARE(same.shape(), (Shape{8, 8}));
    QCOMPARE(same.to_vector(), uniform_rows(8));
    QVERIFY(testing::error_of([&] { attention_thumbnail(w, 0, 2, 4); }).contains("head 2"));
    QVERIFY(!testing::error_of([&] { attention_thumbnail(w, 0, 0, 0); }).isEmpty());
}

QTEST_GUILESS_MAIN(TestHeadMeasures)
#include "test_head_measures.moc"
