// The elementwise and axis-wise ops of tensor_ops.h: masked_fill_, softmax, division, bias, the mask.
#include "tensor/tensor_ops.h"
#include "tensor/tensor_ops_detail.h"

#include "tensor/error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab::ops {

using detail::broadcast_offset;
using detail::next_index;
using std::int64_t;

Tensor add_bias(const Tensor& t, const Tensor& bias)
{
    Tensor out = t.clone();
    const int64_t width = t.size(-1);
    const std::vector<float> bv = bias.to_vector();
    for (int64_t i = 0; i < out.numel(); ++i)
        out.data()[i] += bv[static_cast<std::size_t>(i % width)];
    return out;
}

Tensor masked_fill(const Tensor& t, const Tensor& mask, float value)
{
    const Shape full = broadcast_shapes(t.shape(), mask.shape()); // a = self, b = mask, as in-place PyTorch says
    if (full != t.shape())
        throw Error("output with shape " + shape_list(t.shape()) + " doesn't match the broadcast shape " +
                    shape_list(full));
    Tensor out = t.clone();
    const std::vector<float> mv = mask.to_vector();
    std::vector<int64_t> index(full.size(), 0);
    for (int64_t i = 0; i < out.numel(); ++i, next_index(index, full))
        if (mv[static_cast<std::size_t>(broadcast_offset(mask.shape(), full, index))] != 0.0f)
            out.data()[i] = value;
    return out;
}

Tensor softmax(const Tensor& t, std::int64_t dim)
{
    if (dim < 0)
        dim += t.dim();
    if (dim < 0 || dim >= t.dim())
        throw Error("Dimension out of range (expected to be in range of [" + std::to_string(-t.dim()) + ", " +
                    std::to_string(t.dim() - 1) + "], but got " + std::to_string(dim) + ")");
    Tensor out = t.clone();
    const auto d = static_cast<std::size_t>(dim);
    const int64_t size = t.shape()[d];
    const int64_t inner = shape_numel(Shape(t.shape().begin() + dim + 1, t.shape().end()));
    const int64_t outer = shape_numel(Shape(t.shape().begin(), t.shape().begin() + dim));
    float* p = out.data();
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            float* row = p + o * size * inner + i;
            float max = -std::numeric_limits<float>::infinity();
            for (int64_t s = 0; s < size; ++s)
                max = std::max(max, row[s * inner]);
            float sum = 0.0f;
            for (int64_t s = 0; s < size; ++s)
                sum += (row[s * inner] = std::exp(row[s * inner] - max)); // -inf - -inf is NaN, as in PyTorch
            for (int64_t s = 0; s < size; ++s)
                row[s * inner] /= sum;
        }
    return out;
}

Tensor divide(const Tensor& t, float divisor)
{
    Tensor out = t.clone();
    for (int64_t i = 0; i < out.numel(); ++i)
        out.data()[i] /= divisor;
    return out;
}

Tensor triu_ones(std::int64_t n, std::int64_t diagonal)
{
    Tensor out = Tensor::zeros({n, n});
    for (int64_t r = 0; r < n; ++r)
        for (int64_t c = 0; c < n; ++c)
            out.data()[r * n + c] = c - r >= diagonal ? 1.0f : 0.0f;
    return out;
}

Tensor slice2d(const Tensor& t, std::int64_t rows, std::int64_t cols)
{
    rows = std::min(rows, t.size(0));
    cols = std::min(cols, t.size(1));
    std::vector<float> values;
    values.reserve(static_cast<std::size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
            values.push_back(t.at({r, c}));
    return Tensor::from_values({rows, cols}, std::move(values));
}

} // namespace attnlab::ops
