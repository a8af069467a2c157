// Strided views as PyTorch keeps them: what view, transpose and contiguous do to shape, strides,
// storage and values.
#include "tensor/error.h"
#include "tensor/tensor.h"

#include <QtTest>

using namespace attnlab;
Q_DECLARE_METATYPE(attnlab::Shape)

namespace {
Tensor arange(const Shape& shape)
{
    std::vector<float> v(static_cast<std::size_t>(shape_numel(shape)));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(i);
    return Tensor::from_values(shape, v);
}
} // namespace

class TestTensor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void contiguous_strides_data();
    void contiguous_strides();
    void view_shares_storage();
    void transpose_is_a_strided_view();
    void contiguous_copies_only_when_needed();
    void view_of_transposed_is_refused();
    void size_one_axes_do_not_break_contiguity();
    void from_values_checks_count();
};

void TestTensor::contiguous_strides_data()
{
    QTest::addColumn<Shape>("shape");
    QTest::addColumn<Shape>("strides");
    QTest::newRow("gpt2-heads") << Shape{1, 12, 8, 64} << Shape{6144, 512, 64, 1};
    QTest::newRow("book-toy") << Shape{2, 6, 3} << Shape{18, 3, 1};
    QTest::newRow("scalar-row") << Shape{5} << Shape{1};
}

void TestTensor::contiguous_strides()
{
    QFETCH(Shape, shape);
    QFETCH(Shape, strides);
    QCOMPARE(Tensor::zeros(shape).strides(), strides);
    QVERIFY(Tensor::zeros(shape).is_contiguous());
}

void TestTensor::view_shares_storage()
{
    const Tensor q = arange({1, 4, 6});
    const Tensor v = q.view({1, 4, 2, 3});
    QVERIFY(v.shares_storage_with(q));
    QCOMPARE(v.strides(), (Shape{24, 6, 3, 1}));
    QCOMPARE(v.at({0, 2, 1, 0}), 15.0f);
}

void TestTensor::transpose_is_a_strided_view()
{
    const Tensor v = arange({1, 4, 2, 3}); // (b, T, H, hd)
    const Tensor t = v.transpose(1, 2);    // (b, H, T, hd)
    QCOMPARE(t.shape(), (Shape{1, 2, 4, 3}));
    QCOMPARE(t.strides(), (Shape{24, 3, 6, 1}));
    QVERIFY(!t.is_contiguous());
    QVERIFY(t.shares_storage_with(v));
    QCOMPARE(t.at({0, 1, 2, 0}), v.at({0, 2, 1, 0}));
    const std::vector<float> values = t.to_vector();
    QCOMPARE(values[0 * 12 + 1 * 3 + 0], 6.0f); // head 0, token 1 = row 1 of v
    QCOMPARE(values[1 * 12 + 0 * 3 + 2], 5.0f); // head 1, token 0, feature 2
}

void TestTensor::contiguous_copies_only_when_needed()
{
    const Tensor a = arange({2, 3});
    QVERIFY(a.contiguous().shares_storage_with(a));
    const Tensor t = a.transpose(0, 1);
    const Tensor c = t.contiguous();
    QVERIFY(!c.shares_storage_with(t));
    QVERIFY(c.is_contiguous());
    QCOMPARE(c.to_vector(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

void TestTensor::view_of_transposed_is_refused()
{
    const Tensor t = arange({1, 4, 2, 3}).transpose(1, 2);
    bool threw = false;
    try {
        t.view({1, 4, 6});
    } catch (const Error& e) {
        threw = true;
        QVERIFY(std::string(e.what()).find("view size is not compatible") != std::string::npos);
    }
    QVERIFY(threw);
    QVERIFY_THROWS_EXCEPTION(Error, arange({2, 3}).view({4, 2}));
}

void TestTensor::size_one_axes_do_not_break_contiguity()
{
    // One token: transpose(1, 2) of (b, 1, H, hd) is still contiguous, as in PyTorch.
    QVERIFY(arange({1, 1, 2, 3}).transpose(1, 2).is_contiguous());
    QVERIFY(!arange({1, 2, 2, 3}).transpose(1, 2).is_contiguous());
}

void TestTensor::from_values_checks_count()
{
    QVERIFY_THROWS_EXCEPTION(Error, Tensor::from_values({2, 2}, {1, 2, 3}));
}

QTEST_GUILESS_MAIN(TestTensor)
#include "test_tensor.moc"
