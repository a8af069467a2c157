#pragma once
// GroupedQueryAttention's keys.repeat_interleave(group_size, dim=1) on the trainer's fused q | k | v rows, and
// its backward. The projections give rows of d_out + 2 kv_width (q, then num_kv_groups key heads, then as
// many value heads); the attention (train_attention.h) reads rows of 3 d_out with a key and a value head per
// query head, so each key/value head is copied to the group_size query heads that share it. The gradient of a
// shared head is the sum of its copies' gradients.
#include <cstddef>

namespace attnlab::train {

struct KvGroups {
    std::size_t d_out = 0, kv_width = 0, head_dim = 0;
    std::size_t narrow() const { return d_out + 2 * kv_width; } // a projection row
    std::size_t group_size() const { return d_out / kv_width; }
};

// narrow: n rows of narrow(); wide: n rows of 3 d_out.
void expand_kv_groups(const KvGroups& g, const float* narrow, std::size_t n, float* wide);
// d(wide) (n rows of 3 d_out) to d(narrow) (n rows of narrow()): dq copied, each shared head's copies summed.
void sum_kv_groups(const KvGroups& g, const float* dwide, std::size_t n, float* dnarrow);

} // namespace attnlab::train
