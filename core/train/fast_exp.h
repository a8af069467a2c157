#pragma once
// A float exp whose loops vectorise (libm's expf and tanhf are calls, and they were most of a training
// step): cephes' expf polynomial after range reduction by ln 2 in two parts, within 2 ulp of expf for
// x in [-87, 88] (clamped outside, where the trainer never goes).
#include <bit>
#include <cstdint>

namespace attnlab::train {

inline float fast_exp(float x)
{
    x = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
    // Round to nearest by adding and subtracting 1.5 * 2^23 (floor does not vectorise here).
    const float n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
    float r = x - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23;
    return p * std::bit_cast<float>(bits);
}

} // namespace attnlab::train
