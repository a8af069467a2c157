#pragma once
// Float storage for tensors. Large blocks come 2 MiB-aligned with transparent huge pages requested
// and go back to a bounded pool when the last tensor lets go, so the next forward pass reuses memory
// that is already mapped: a 1,024-token trace would otherwise spend more time in page faults than
// in arithmetic.
#include <cstddef>
#include <memory>

namespace attnlab {

std::shared_ptr<float[]> allocate_floats(std::size_t count);

// Bytes held in the pool right now (for tests and the memory report).
std::size_t pooled_bytes();
// Frees everything the pool holds.
void release_pooled_buffers();

} // namespace attnlab
