// The generic ops behind the debugging lessons: PyTorch's results and PyTorch's refusals, word for
// word (the messages below were taken from torch 1.13).
#include "common/errors.h"
#include "tensor/error.h"
#include "tensor/tensor_ops.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <numeric>

using namespace attnlab;
using testing::error_of;

namespace {

Tensor iota(const Shape& shape)
{
    std::vector<float> v(static_cast<std::size_t>(shape_numel(shape)));
    std::iota(v.begin(), v.end(), 0.0f);
    return Tensor::from_values(shape, std::move(v));
}

} // namespace

Q_DECLARE_METATYPE(std::function<void()>)

class TestTensorOps : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusals_data();
    void refusals();
    void matmul_broadcasts_batch_axes();
    void view_follows_pytorch_stride_rule();
    void masked_fill_broadcasts_mask();
    void softmax_over_any_axis();
};

void TestTensorOps::refusals_data()
{
    QTest::addColumn<std::function<void()>>("op");
    QTest::addColumn<QString>("message");
    QTest::newRow("linear-3d") << std::function<void()>([] {
        ops::linear(iota({2, 6, 3}), iota({3, 2}), nullptr);
    }) << "mat1 and mat2 shapes cannot be multiplied (12x3 and 2x3)";
    QTest::newRow("mm-2d") << std::function<void()>([] {
        ops::matmul(iota({6, 3}), iota({2, 3}));
    }) << "mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)";
    QTest::newRow("2d-at-3d") << std::function<void()>([] {
        ops::matmul(iota({6, 2}), iota({2, 3, 6}));
    }) << "mat1 and mat2 shapes cannot be multiplied (12x3 and 2x6)";
    QTest::newRow("bmm") << std::function<void()>([] {
        ops::matmul(iota({2, 3, 6, 2}), iota({2, 3, 3, 6}));
    }) << "Expected size for first two dimensions of batch2 tensor to be: [6, 2] but got: [6, 3].";
    QTest::newRow("batch-broadcast") << std::function<void()>([] {
        ops::matmul(iota({2, 3, 6, 2}), iota({2, 4, 2, 6}));
    })
                                     << "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                                        "dimension 1";
    QTest::newRow("view-non-contiguous")
        << std::function<void()>([] {
               ops::view(iota({2, 6, 2, 4}).transpose(1, 2), {2, 2, 24});
           })
        << "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
           "contiguous subspaces). Use .reshape(...) instead.";
    QTest::newRow("view-size") << std::function<void()>([] {
        ops::view(iota({3}), {2, 2});
    }) << "shape '[2, 2]' is invalid for input of size 3";
    QTest::newRow("masked-fill-clash") << std::function<void()>([] {
        ops::masked_fill(iota({2, 6, 3, 3}), iota({6, 6}), 0.0f);
    }) << "The size of tensor a (3) must match the size of tensor b (6) at non-singleton dimension 3";
    QTest::newRow("masked-fill-grows") << std::function<void()>([] {
        ops::masked_fill(iota({2, 6, 1, 1}), iota({6, 6}), 0.0f);
    }) << "output with shape [2, 6, 1, 1] doesn't match the broadcast shape [2, 6, 6, 6]";
}

void TestTensorOps::refusals()
{
    QFETCH(std::function<void()>, op);
    QFETCH(QString, message);
    QCOMPARE(error_of(op), message);
}

void TestTensorOps::matmul_broadcasts_batch_axes()
{
    const Tensor a = iota({1, 3, 2, 2}), b = iota({2, 1, 2, 2});
    const Tensor c = ops::matmul(a, b);
    QCOMPARE(c.shape(), (Shape{2, 3, 2, 2}));
    // c[1, 2] = a[0, 2] @ b[1, 0]: [[8, 9], [10, 11]] @ [[4, 5], [6, 7]]
    QCOMPARE(c.at({1, 2, 0, 0}), 8.0f * 4 + 9.0f * 6);
    QCOMPARE(c.at({1, 2, 1, 1}), 10.0f * 5 + 11.0f * 7);
    // A transposed (strided) operand is read in logical order.
    const Tensor t = ops::matmul(iota({2, 3}).transpose(0, 1), iota({2, 1}));
    QCOMPARE(t.to_vector(), (std::vector<float>{3, 4, 5}));
}

void TestTensorOps::view_follows_pytorch_stride_rule()
{
    // Axes of size 1 do not block the merge: (2, 1, 3, 4) transposed is still viewable as (2, 3, 4).
    const Tensor one_head = iota({2, 1, 3, 4}).transpose(1, 2);
    QCOMPARE(ops::view(one_head, {2, 3, 4}).to_vector(), one_head.to_vector());
    // head_dim 1: merging num_heads with an axis of size 1 works on the transposed strides.
    const Tensor hd1 = iota({2, 2, 6, 1}).transpose(1, 2);
    QVERIFY(!hd1.is_contiguous());
    QCOMPARE(ops::view(hd1, {2, 6, 2}).to_vector(), hd1.to_vector());
    // A contiguous tensor keeps sharing storage.
    const Tensor base = iota({2, 6});
    QVERIFY(ops::view(base, {3, 4}).shares_storage_with(base));
}

void TestTensorOps::masked_fill_broadcasts_mask()
{
    const Tensor mask = ops::slice2d(ops::triu_ones(5, 1), 3, 3);
    QCOMPARE(mask.to_vector(), (std::vector<float>{0, 1, 1, 0, 0, 1, 0, 0, 0}));
    const Tensor out = ops::masked_fill(iota({2, 3, 3}), mask, -INFINITY);
    QCOMPARE(out.at({1, 0, 1}), -INFINITY);
    QCOMPARE(out.at({1, 1, 0}), 12.0f);
    QCOMPARE(ops::triu_ones(2, 0).to_vector(), (std::vector<float>{1, 1, 0, 1}));
}

void TestTensorOps::softmax_over_any_axis()
{
    const Tensor rows = ops::softmax(iota({2, 2}), -1);
    QVERIFY(std::fabs(rows.at({0, 0}) + rows.at({0, 1}) - 1.0f) < 1e-6f);
    const Tensor cols = ops::softmax(iota({2, 2}), -2);
    QVERIFY(std::fabs(cols.at({0, 1}) + cols.at({1, 1}) - 1.0f) < 1e-6f);
    QVERIFY(std::fabs(cols.at({1, 0}) - 1.0f / (1.0f + std::exp(-2.0f))) < 1e-6f); // column [0, 2]
    // A row of only -inf is NaN, as PyTorch gives.
    const Tensor masked = ops::softmax(Tensor::from_values({1, 2}, {-INFINITY, -INFINITY}), -1);
    QVERIFY(std::isnan(masked.at({0, 0})));
}

QTEST_GUILESS_MAIN(TestTensorOps)
#include "test_tensor_ops.moc"
