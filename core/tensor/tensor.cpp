#include "tensor/tensor.h"

#include "tensor/buffer_pool.h"
#include "tensor/error.h"

#include <algorithm>
#include <numeric>
#include <sstream>

namespace attnlab {

std::string shape_to_string(const Shape& shape)
{
    std::ostringstream out;
    out << '(';
    for (std::size_t i = 0; i < shape.size(); ++i)
        out << (i ? ", " : "") << shape[i];
    out << ')';
    return out.str();
}

std::int64_t shape_numel(const Shape& shape)
{
    return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

Shape contiguous_strides(const Shape& shape)
{
    Shape strides(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;)
        strides[i - 1] = strides[i] * std::max<std::int64_t>(shape[i], 1);
    return strides;
}

Tensor Tensor::empty(const Shape& shape)
{
    Tensor t;
    t.storage_ = allocate_floats(static_cast<std::size_t>(shape_numel(shape)));
    t.shape_ = shape;
    t.strides_ = contiguous_strides(shape);
    return t;
}

Tensor Tensor::zeros(const Shape& shape)
{
    Tensor t = empty(shape);
    std::fill_n(t.storage_.get(), shape_numel(shape), 0.0f);
    return t;
}

Tensor Tensor::from_values(const Shape& shape, std::vector<float> values)
{
    if (static_cast<std::int64_t>(values.size()) != shape_numel(shape))
        throw Error("a tensor of shape " + shape_to_string(shape) + " needs " + std::to_string(shape_numel(shape)) +
                    " values, not " + std::to_string(values.size()) + ".");
    Tensor t = empty(shape);
    std::copy(values.begin(), values.end(), t.storage_.get());
    return t;
}

std::int64_t Tensor::size(std::int64_t axis) const
{
    if (axis < 0)
        axis += dim();
    if (axis < 0 || axis >= dim())
        throw Error("dimension out of range for a tensor with " + std::to_string(dim()) + " dimensions.");
    return shape_[static_cast<std::size_t>(axis)];
}

bool Tensor::is_contiguous() const
{
    // PyTorch's rule: axes of size 1 may have any stride.
    std::int64_t expected = 1;
    for (std::size_t i = shape_.size(); i-- > 0;) {
        if (shape_[i] == 1)
            continue;
        if (strides_[i] != expected)
            return false;
        expected *= shape_[i];
    }
    return true;
}

float Tensor::at(const std::vector<std::int64_t>& index) const
{
    std::int64_t pos = offset_;
    for (std::size_t i = 0; i < index.size(); ++i)
        pos += index[i] * strides_[i];
    return storage_[static_cast<std::size_t>(pos)];
}

Tensor Tensor::view(const Shape& shape) const
{
    if (shape_numel(shape) != numel())
        throw Error("shape '" + shape_to_string(shape) + "' is invalid for input of size " + std::to_string(numel()));
    if (!is_contiguous())
        throw Error("view size is not compatible with input tensor's size and stride (at least one dimension spans "
                    "across two contiguous subspaces). Use .reshape(...) instead.");
    Tensor t = *this;
    t.shape_ = shape;
    t.strides_ = contiguous_strides(shape);
    return t;
}

Tensor Tensor::transpose(std::int64_t a, std::int64_t b) const
{
    if (a < 0)
        a += dim();
    if (b < 0)
        b += dim();
    if (a < 0 || b < 0 || a >= dim() || b >= dim())
        throw Error("Dimension out of range in transpose for a tensor with " + std::to_string(dim()) + " dimensions.");
    Tensor t = *this;
    std::swap(t.shape_[static_cast<std::size_t>(a)], t.shape_[static_cast<std::size_t>(b)]);
    std::swap(t.strides_[static_cast<std::size_t>(a)], t.strides_[static_cast<std::size_t>(b)]);
    return t;
}

Tensor Tensor::contiguous() const
{
    return is_contiguous() ? *this : clone();
}

Tensor Tensor::clone() const
{
    return from_values(shape_, to_vector());
}

std::vector<float> Tensor::to_vector() const
{
    std::vector<float> out(static_cast<std::size_t>(numel()));
    if (out.empty())
        return out;
    if (is_contiguous()) {
        std::copy_n(storage_.get() + offset_, out.size(), out.begin());
        return out;
    }
    // Odometer walk over the logical index; the innermost axis is a strided run.
    const std::size_t nd = shape_.size();
    std::vector<std::int64_t> index(nd, 0);
    const std::int64_t inner = shape_.back(), inner_stride = strides_.back();
    std::size_t k = 0;
    while (k < out.size()) {
        std::int64_t base = offset_;
        for (std::size_t i = 0; i + 1 < nd; ++i)
            base += index[i] * strides_[i];
        const float* src = storage_.get() + base;
        for (std::int64_t j = 0; j < inner; ++j)
            out[k++] = src[j * inner_stride];
        for (std::size_t i = nd - 1; i-- > 0;) {
            if (++index[i] < shape_[i])
                break;
            index[i] = 0;
        }
    }
    return out;
}

} // namespace attnlab
