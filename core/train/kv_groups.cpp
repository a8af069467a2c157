#include "train/kv_groups.h"

#include <algorithm>

namespace attnlab::train {

void expand_kv_groups(const KvGroups& g, const float* narrow, std::size_t n, float* wide)
{
    const std::size_t d = g.d_out, kv = g.kv_width, hd = g.head_dim, heads = d / hd, group = g.group_size();
    for (std::size_t i = 0; i < n; ++i) {
        const float* in = narrow + i * g.narrow();
        float* out = wide + i * 3 * d;
        std::copy_n(in, d, out);
        for (std::size_t part = 1; part <= 2; ++part) // keys, then values
            for (std::size_t h = 0; h < heads; ++h)   // query head h reads key/value head h / group_size
                std::copy_n(in + d + (part - 1) * kv + (h / group) * hd, hd, out + part * d + h * hd);
    }
}

void sum_kv_groups(const KvGroups& g, const float* dwide, std::size_t n, float* dnarrow)
{
    const std::size_t d = g.d_out, kv = g.kv_width, hd = g.head_dim, group = g.group_size();
    for (std::size_t i = 0; i < n; ++i) {
        const float* in = dwide + i * 3 * d;
        float* out = dnarrow + i * g.narrow();
        std::copy_n(in, d, out);
        for (std::size_t part = 1; part <= 2; ++part)
            for (std::size_t x = 0; x < kv; ++x) { // column x of head x / hd: its group's copies in order
                const std::size_t head = x / hd, col = x % hd;
                float sum = 0.0f;
                for (std::size_t m = 0; m < group; ++m)
                    sum += in[part * d + (head * group + m) * hd + col];
                out[d + (part - 1) * kv + x] = sum;
            }
    }
}

} // namespace attnlab::train
