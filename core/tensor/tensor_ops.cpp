// Generic PyTorch-semantics operations for the debugging lessons. Every operation reads its inputs
// in logical order (to_vector), so strides only matter where PyTorch lets them matter: view.
#include "tensor/tensor_ops.h"
#include "tensor/tensor_ops_detail.h"

#include "tensor/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace attnlab::ops {

namespace {

using detail::broadcast_offset;
using detail::next_index;
using std::int64_t;

std::string dims(int64_t rows, int64_t cols)
{
    return std::to_string(rows) + "x" + std::to_string(cols);
}

std::string mm_message(int64_t r1, int64_t c1, int64_t r2, int64_t c2)
{
    return "mat1 and mat2 shapes cannot be multiplied (" + dims(r1, c1) + " and " + dims(r2, c2) + ")";
}

// PyTorch's computeStride (aten/src/ATen/TensorUtils.cpp): the strides a view would get, or nothing
// when some new axis would have to span two separate runs of memory.
std::optional<Shape> view_strides(const Shape& old_shape, const Shape& old_strides, const Shape& new_shape)
{
    if (old_shape.empty())
        return Shape(new_shape.size(), 1);
    if (shape_numel(old_shape) == 0)
        return contiguous_strides(new_shape);
    Shape new_strides(new_shape.size(), 1);
    int64_t view_d = static_cast<int64_t>(new_shape.size()) - 1;
    int64_t chunk_base_stride = old_strides.back(), tensor_numel = 1, view_numel = 1;
    for (int64_t d = static_cast<int64_t>(old_shape.size()) - 1; d >= 0; --d) {
        tensor_numel *= old_shape[static_cast<std::size_t>(d)];
        const bool chunk_ends =
            d == 0 || (old_shape[static_cast<std::size_t>(d - 1)] != 1 &&
                       old_strides[static_cast<std::size_t>(d - 1)] != tensor_numel * chunk_base_stride);
        if (!chunk_ends)
            continue;
        while (view_d >= 0 && (view_numel < tensor_numel || new_shape[static_cast<std::size_t>(view_d)] == 1)) {
            new_strides[static_cast<std::size_t>(view_d)] = view_numel * chunk_base_stride;
            view_numel *= new_shape[static_cast<std::size_t>(view_d)];
            --view_d;
        }
        if (view_numel != tensor_numel)
            return std::nullopt;
        if (d > 0) {
            chunk_base_stride = old_strides[static_cast<std::size_t>(d - 1)];
            tensor_numel = 1;
            view_numel = 1;
        }
    }
    if (view_d != -1)
        return std::nullopt;
    return new_strides;
}

} // namespace

std::string shape_list(const Shape& shape)
{
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

Shape broadcast_shapes(const Shape& a, const Shape& b)
{
    const std::size_t n = std::max(a.size(), b.size());
    Shape out(n, 1);
    for (std::size_t i = n; i-- > 0;) { // PyTorch reports the first clash from the right
        const std::size_t from_end = n - 1 - i;
        const int64_t sa = from_end < a.size() ? a[a.size() - 1 - from_end] : 1;
        const int64_t sb = from_end < b.size() ? b[b.size() - 1 - from_end] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            throw Error("The size of tensor a (" + std::to_string(sa) + ") must match the size of tensor b (" +
                        std::to_string(sb) + ") at non-singleton dimension " + std::to_string(i));
        out[i] = sa == 1 ? sb : sa;
    }
    return out;
}

Tensor matmul(const Tensor& a, const Tensor& b)
{
    if (a.dim() < 2 || b.dim() < 2)
        throw Error("matmul here takes tensors with at least 2 dimensions, got " + shape_to_string(a.shape()) +
                    " and " + shape_to_string(b.shape()) + ".");
    const int64_t n = a.size(-2), k = a.size(-1), k2 = b.size(-2), m = b.size(-1);
    const Shape batch_a(a.shape().begin(), a.shape().end() - 2), batch_b(b.shape().begin(), b.shape().end() - 2);
    // The checks follow the route torch.matmul takes, since each route words its refusal differently.
    if (a.dim() == 2 && b.dim() == 2) {
        if (k != k2)
            throw Error(mm_message(n, k, k2, m));
    } else if (b.dim() == 2) { // folded: (..., n, k) -> (prod * n, k) @ (k, m)
        if (k != k2)
            throw Error(mm_message(a.numel() / k, k, k2, m));
    } else if (a.dim() == 2) { // folded the other way: b^T (prod * m, k2) @ a^T (k, n)
        if (k != k2)
            throw Error(mm_message(b.numel() / k2, k2, k, n));
    }
    const Shape batch = broadcast_shapes(batch_a, batch_b);
    if (k != k2) {
        const int64_t count = shape_numel(batch);
        throw Error("Expected size for first two dimensions of batch2 tensor to be: " + shape_list({count, k}) +
                    " but got: " + shape_list({count, k2}) + ".");
    }
    Shape out_shape = batch;
    out_shape.insert(out_shape.end(), {n, m});
    Tensor out = Tensor::zeros(out_shape);
    const std::vector<float> av = a.to_vector(), bv = b.to_vector();
    float* dst = out.data();
    std::vector<int64_t> index(batch.size(), 0);
    for (int64_t i = 0; i < shape_numel(batch); ++i, next_index(index, batch)) {
        const float* pa = av.data() + broadcast_offset(batch_a, batch, index) * n * k;
        const float* pb = bv.data() + broadcast_offset(batch_b, batch, index) * k * m;
        float* pc = dst + i * n * m;
        for (int64_t r = 0; r < n; ++r)
            for (int64_t j = 0; j < k; ++j) {
                const float s = pa[r * k + j];
                for (int64_t c = 0; c < m; ++c)
                    pc[r * m + c] += s * pb[j * m + c];
            }
    }
    return out;
}

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias)
{
    Tensor y = matmul(x, weight.transpose(0, 1));
    return bias ? add_bias(y, *bias) : y;
}

Tensor view(const Tensor& t, const Shape& shape)
{
    if (shape_numel(shape) != t.numel())
        throw Error("shape '" + shape_list(shape) + "' is invalid for input of size " + std::to_string(t.numel()));
    if (t.is_contiguous())
        return t.view(shape);
    if (!view_strides(t.shape(), t.strides(), shape))
        throw Error("view size is not compatible with input tensor's size and stride (at least one dimension spans "
                    "across two contiguous subspaces). Use .reshape(...) instead.");
    return t.clone().view(shape);
}

} // namespace attnlab::ops
