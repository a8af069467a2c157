#pragma once
// Sixteen floats as one value (GCC's and clang's vector extension): one AVX-512 register on the machines the
// trainer is tuned for, two or four narrower ones elsewhere, with no intrinsics and no per-machine code.
// Loads and stores go through memcpy, so any float pointer will do (no alignment, no aliasing rules broken).
#include "train/fast_exp.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attnlab::train::simd {

constexpr std::size_t kLanes = 16;
using Vec = float __attribute__((vector_size(64)));
using Mask = std::int32_t __attribute__((vector_size(64))); // -1 where true, 0 where false

inline Vec load(const float* p)
{
    Vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store(float* p, Vec v)
{
    std::memcpy(p, &v, sizeof v);
}
inline Vec splat(float x)
{
    return Vec{} + x;
}
inline Vec select(Mask m, Vec yes, Vec no)
{
    Mask a, b;
    std::memcpy(&a, &yes, sizeof a);
    std::memcpy(&b, &no, sizeof b);
    const Mask r = (a & m) | (b & ~m);
    Vec out;
    std::memcpy(&out, &r, sizeof out);
    return out;
}
inline Vec max(Vec a, Vec b)
{
    return select(a < b, b, a);
}
// The lanes' indices plus `first`, as floats (exact below 2^24).
inline Vec lane_index(std::size_t first)
{
    Vec v;
    for (std::size_t l = 0; l < kLanes; ++l)
        v[l] = static_cast<float>(first + l);
    return v;
}

// fast_exp lane by lane, the same operations in the same order.
inline Vec exp(Vec x)
{
    x = select(x < -87.0f, splat(-87.0f), x);
    x = select(x > 88.0f, splat(88.0f), x);
    const Vec n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    Vec r = x - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    Vec p = splat(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const Mask bits = (__builtin_convertvector(n, Mask) + 127) << 23;
    Vec scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

} // namespace attnlab::train::simd
