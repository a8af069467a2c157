#pragma once
// Index helpers shared by the tensor_ops sources; not part of the ops API.
#include "tensor/tensor.h"

#include <cstdint>
#include <vector>

namespace attnlab::ops::detail {

// Offset of the element `index` (in `full`'s index space) inside a contiguous tensor of `shape`
// aligned to the right of `full`, with size-1 axes broadcast.
inline std::int64_t broadcast_offset(const Shape& shape, const Shape& full, const std::vector<std::int64_t>& index)
{
    std::int64_t offset = 0, stride = 1;
    const std::size_t lead = full.size() - shape.size();
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (shape[i] != 1)
            offset += index[lead + i] * stride;
        stride *= shape[i];
    }
    return offset;
}

// Odometer step over `shape`; false after the last index.
inline bool next_index(std::vector<std::int64_t>& index, const Shape& shape)
{
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (++index[i] < shape[i])
            return true;
        index[i] = 0;
    }
    return false;
}

} // namespace attnlab::ops::detail
