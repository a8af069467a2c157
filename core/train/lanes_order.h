#pragma once
// One sequence's q, k, v (and their gradients) between the module's column order, head h's d-th value in
// column h * head_dim + d, and the heads-as-lanes order of attention_lanes.h, column d * heads + h, a vector
// of heads at a time. Head_dim 1 is a row copy. A power of two up to 8 is log2(head_dim) rounds of even/odd
// shuffles over the head_dim vectors that hold a vector's worth of heads: one round moves an element from
// index p to (p & 1) * n/2 + p/2, so log2(head_dim) rounds take h * head_dim + d to d * lanes + h. The scalar
// loop they replace was a fifth of a 16-head training step. Any other head_dim goes value by value.
#include "train/simd.h"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace attnlab::train {

namespace lanes_order_detail {

// Lanes of the pair a|b (lanes 0 .. L-1 of a, then L .. 2L-1 of b): its even or odd lanes, and the inverse,
// the first or the second halves of a and b interleaved. __builtin_shufflevector (GCC 12 and clang) takes
// its lane indices as constants, spelled out here for V's width.
template <class V, std::size_t... I> V evens(V a, V b, std::index_sequence<I...>)
{
    return __builtin_shufflevector(a, b, (2 * I)...);
}
template <class V, std::size_t... I> V odds(V a, V b, std::index_sequence<I...>)
{
    return __builtin_shufflevector(a, b, (2 * I + 1)...);
}
template <class V, std::size_t... I> V first_halves(V a, V b, std::index_sequence<I...>)
{
    return __builtin_shufflevector(a, b, (I / 2 + (I % 2) * sizeof...(I))...);
}
template <class V, std::size_t... I> V second_halves(V a, V b, std::index_sequence<I...>)
{
    return __builtin_shufflevector(a, b, (sizeof...(I) / 2 + I / 2 + (I % 2) * sizeof...(I))...);
}
template <class V> using LaneIndices = std::make_index_sequence<simd::lanes_of<V>>;

// to_lanes and from_lanes at head_dim HD (2, 4 or 8): a row's vectors of heads, HD vectors each.
template <class V, std::size_t HD>
void shuffle_to_lanes(const float* src, std::size_t stride, std::size_t count, std::size_t H, float* dst)
{
    constexpr std::size_t L = simd::lanes_of<V>;
    for (std::size_t i = 0; i < count; ++i) {
        const float* s = src + i * stride;
        float* t = dst + i * H * HD;
        for (std::size_t lane = 0; lane < H; lane += L) {
            V x[HD], y[HD];
            for (std::size_t m = 0; m < HD; ++m)
                x[m] = simd::load<V>(s + lane * HD + m * L);
            for (std::size_t round = 1; round < HD; round *= 2) {
                for (std::size_t m = 0; m < HD / 2; ++m) {
                    y[m] = evens(x[2 * m], x[2 * m + 1], LaneIndices<V>{});
                    y[HD / 2 + m] = odds(x[2 * m], x[2 * m + 1], LaneIndices<V>{});
                }
                for (std::size_t m = 0; m < HD; ++m)
                    x[m] = y[m];
            }
            for (std::size_t d = 0; d < HD; ++d)
                simd::store(t + d * H + lane, x[d]);
        }
    }
}

template <class V, std::size_t HD>
void shuffle_from_lanes(const float* src, std::size_t count, std::size_t H, float* dst, std::size_t stride)
{
    constexpr std::size_t L = simd::lanes_of<V>;
    for (std::size_t i = 0; i < count; ++i) {
        const float* s = src + i * H * HD;
        float* t = dst + i * stride;
        for (std::size_t lane = 0; lane < H; lane += L) {
            V x[HD], y[HD];
            for (std::size_t d = 0; d < HD; ++d)
                x[d] = simd::load<V>(s + d * H + lane);
            for (std::size_t round = 1; round < HD; round *= 2) {
                for (std::size_t m = 0; m < HD / 2; ++m) {
                    y[2 * m] = first_halves(x[m], x[HD / 2 + m], LaneIndices<V>{});
                    y[2 * m + 1] = second_halves(x[m], x[HD / 2 + m], LaneIndices<V>{});
                }
                for (std::size_t m = 0; m < HD; ++m)
                    x[m] = y[m];
            }
            for (std::size_t m = 0; m < HD; ++m)
                simd::store(t + lane * HD + m * L, x[m]);
        }
    }
}

// Any other head_dim: (h, d) to (d, h) order when `into_lanes`, else back; head_dim 1 is a row copy either way.
inline void permute_by_value(const float* src, std::size_t src_row, float* dst, std::size_t dst_row, std::size_t count,
                             std::size_t H, std::size_t hd, bool into_lanes)
{
    for (std::size_t i = 0; i < count; ++i) {
        const float* s = src + i * src_row;
        float* t = dst + i * dst_row;
        if (hd == 1)
            std::copy_n(s, H, t);
        else
            for (std::size_t h = 0; h < H; ++h)
                for (std::size_t d = 0; d < hd; ++d) {
                    const std::size_t module = h * hd + d, lanes = d * H + h;
                    t[into_lanes ? lanes : module] = s[into_lanes ? module : lanes];
                }
    }
}

} // namespace lanes_order_detail

// `count` rows of H x hd values, row stride `stride`, to rows of H x hd in (d, h) order. H is a multiple of V's
// lanes.
template <class V>
void to_lanes(const float* src, std::size_t stride, std::size_t count, std::size_t H, std::size_t hd, float* dst)
{
    using namespace lanes_order_detail;
    switch (hd) {
    case 2: return shuffle_to_lanes<V, 2>(src, stride, count, H, dst);
    case 4: return shuffle_to_lanes<V, 4>(src, stride, count, H, dst);
    case 8: return shuffle_to_lanes<V, 8>(src, stride, count, H, dst);
    }
    permute_by_value(src, stride, dst, H * hd, count, H, hd, true);
}

// The inverse: `count` rows in (d, h) order to rows of stride `stride` in (h, d) order.
template <class V>
void from_lanes(const float* src, std::size_t count, std::size_t H, std::size_t hd, float* dst, std::size_t stride)
{
    using namespace lanes_order_detail;
    switch (hd) {
    case 2: return shuffle_from_lanes<V, 2>(src, count, H, dst, stride);
    case 4: return shuffle_from_lanes<V, 4>(src, count, H, dst, stride);
    case 8: return shuffle_from_lanes<V, 8>(src, count, H, dst, stride);
    }
    permute_by_value(src, H * hd, dst, stride, count, H, hd, false);
}

} // namespace attnlab::train
