#pragma once
// The machine's widest vector of floats as one value (GCC's and clang's vector extension): 16 lanes with
// AVX-512, 8 with AVX, 4 otherwise, with no intrinsics. A vector wider than the machine's registers is
// legal but GCC lowers it through the stack (on AVX2 a 16-lane multiply-add took four moves per
// arithmetic instruction, 9x slower than AVX-512 instead of 2x). Layouts do not depend on the width: they
// pad to kPad, a multiple of every width; every operation is lane by lane, so results do not either.
// Loads and stores go through memcpy, so any float pointer will do (no alignment, no aliasing rules broken).
#include "train/fast_exp.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attnlab::train::simd {

#if defined(__AVX512F__)
constexpr std::size_t kLanes = 16;
#elif defined(__AVX__)
constexpr std::size_t kLanes = 8;
#else
constexpr std::size_t kLanes = 4;
#endif
constexpr std::size_t kPad = 16;
static_assert(kPad % kLanes == 0);
using Vec = float __attribute__((vector_size(kLanes * sizeof(float))));
using Mask = std::int32_t __attribute__((vector_size(kLanes * sizeof(float)))); // -1 where true, 0 where false
// Half the machine's width (8 lanes with AVX-512, one AVX register): the heads-as-lanes attention at 8 heads.
// Every function below takes either; Vec is the default where the type is not deduced.
using HalfVec = float __attribute__((vector_size(kLanes / 2 * sizeof(float))));
template <class V> using MaskOf = decltype(V{} < V{});
template <class V> constexpr std::size_t lanes_of = sizeof(V) / sizeof(float);

template <class V = Vec> inline V load(const float* p)
{
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V> inline void store(float* p, V v)
{
    std::memcpy(p, &v, sizeof v);
}
template <class V = Vec> inline V splat(float x)
{
    return V{} + x;
}
template <class V> inline V select(MaskOf<V> m, V yes, V no)
{
    MaskOf<V> a, b;
    std::memcpy(&a, &yes, sizeof a);
    std::memcpy(&b, &no, sizeof b);
    const MaskOf<V> r = (a & m) | (b & ~m);
    V out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}
template <class V> inline V max(V a, V b)
{
    return select(a < b, b, a);
}
// The lanes' indices plus `first`, as floats (exact below 2^24).
template <class V = Vec> inline V lane_index(std::size_t first)
{
    V v;
    for (std::size_t l = 0; l < lanes_of<V>; ++l)
        v[l] = static_cast<float>(first + l);
    return v;
}

// fast_exp lane by lane, the same operations in the same order.
template <class V> inline V exp(V x)
{
    x = select(x < -87.0f, splat<V>(-87.0f), x);
    x = select(x > 88.0f, splat<V>(88.0f), x);
    const V n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    V r = x - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    V p = splat<V>(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const MaskOf<V> bits = (__builtin_convertvector(n, MaskOf<V>) + 127) << 23;
    V scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

} // namespace attnlab::train::simd
