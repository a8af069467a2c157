#pragma once
// A strided view onto shared float storage, the way PyTorch keeps tensors: view and transpose
// change only shape and strides, so the trace can show which stages share memory and which are
// not contiguous. Strides are counted in elements.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

using Shape = std::vector<std::int64_t>;

std::string shape_to_string(const Shape& shape); // "(2, 6, 3)"
std::int64_t shape_numel(const Shape& shape);
Shape contiguous_strides(const Shape& shape);

class Tensor {
public:
    Tensor() = default;
    static Tensor zeros(const Shape& shape);
    // Uninitialised storage, for kernels that write every element (no page-touching memset first).
    static Tensor empty(const Shape& shape);
    static Tensor from_values(const Shape& shape, std::vector<float> values);

    const Shape& shape() const { return shape_; }
    const Shape& strides() const { return strides_; }
    std::int64_t dim() const { return static_cast<std::int64_t>(shape_.size()); }
    std::int64_t size(std::int64_t axis) const; // negative axis counts from the end
    std::int64_t numel() const { return shape_numel(shape_); }
    std::int64_t offset() const { return offset_; }
    bool defined() const { return static_cast<bool>(storage_); }
    bool is_contiguous() const;
    bool shares_storage_with(const Tensor& other) const { return storage_ && storage_ == other.storage_; }

    // Raw access: valid for contiguous tensors (data() + i for logical index i).
    float* data() { return storage_.get() + offset_; }
    const float* data() const { return storage_.get() + offset_; }
    float at(const std::vector<std::int64_t>& index) const;

    // PyTorch semantics: view needs compatible strides (throws Error with PyTorch's wording
    // otherwise); transpose swaps two axes without copying; contiguous copies only when needed.
    Tensor view(const Shape& shape) const;
    Tensor transpose(std::int64_t a, std::int64_t b) const;
    Tensor contiguous() const;
    Tensor clone() const; // always a fresh contiguous copy

    std::vector<float> to_vector() const; // values in logical (row-major) order

private:
    std::shared_ptr<float[]> storage_;
    std::int64_t offset_ = 0;
    Shape shape_;
    Shape strides_;
};

} // namespace attnlab
