#include "train/torch_normal.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <numbers>

// This file is compiled with -ffp-contract=off (core/CMakeLists.txt): every product and sum below is
// rounded where it is written, and the fused ones are spelled std::fma, where GCC fused PyTorch's.

namespace attnlab {

namespace {

float uniform01(TorchGenerator& gen)
{
    return static_cast<float>(gen.random() & 0xFFFFFFu) * 0x1p-24f;
}

double uniform01_double(TorchGenerator& gen)
{
    return static_cast<double>(gen.random64() & ((std::uint64_t{1} << 53) - 1)) * 0x1p-53;
}

// avx_mathfun.h's log256_ps for one positive float (the kernel's u1 is in (0, 1]).
float cephes_log(float x)
{
    constexpr float p[] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                           -1.2420140846E-1f, +1.4249322787E-1f, -1.6668057665E-1f,
                           +2.0000714765E-1f, -2.4999993993E-1f, +3.3333331174E-1f};
    x = std::fmax(x, std::bit_cast<float>(0x00800000u));
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(x);
    x = std::bit_cast<float>((bits & ~0x7f800000u) | std::bit_cast<std::uint32_t>(0.5f));
    float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 0x7f) + 1.0f;
    const bool below = x < 0.707106781186547524f;
    const float tmp = below ? x : 0.0f;
    x = x - 1.0f;
    e = e - (below ? 1.0f : 0.0f);
    x = x + tmp;
    const float z = x * x;
    float y = p[0];
    for (int i = 1; i < 9; ++i)
        y = std::fma(y, x, p[i]);
    y = y * x;
    y = std::fma(y, z, e * -2.12194440e-4f);
    y = std::fma(-z, 0.5f, y);
    return std::fma(e, 0.693359375f, x + y);
}

// avx_mathfun.h's sincos256_ps for one float in [0, 2 pi).
void cephes_sincos(float x, float& s, float& c)
{
    const std::uint32_t sign_sin = std::bit_cast<std::uint32_t>(x) & 0x80000000u;
    x = std::fabs(x);
    std::int32_t j = static_cast<std::int32_t>(x * 1.27323954473516f);
    j = (j + 1) & ~1;
    const float y0 = static_cast<float>(j);
    const std::uint32_t swap_sin = static_cast<std::uint32_t>(j & 4) << 29;
    const bool poly_sin = (j & 2) == 0;
    x = std::fma(y0, -0.78515625f, x);
    x = std::fma(y0, -2.4187564849853515625e-4f, x);
    x = std::fma(y0, -3.77489497744594108e-8f, x);
    const std::uint32_t sign_cos = static_cast<std::uint32_t>(~(j - 2) & 4) << 29;
    const float z = x * x;
    float y = std::fma(2.443315711809948E-005f, z, -1.388731625493765E-003f);
    y = std::fma(y, z, 4.166664568298827E-002f);
    y = y * z;
    y = std::fma(y, z, -(z * 0.5f));
    y = y + 1.0f;
    float y2 = std::fma(-1.9515295891E-4f, z, 8.3321608736E-3f);
    y2 = std::fma(y2, z, -1.6666654611E-1f);
    y2 = y2 * z;
    y2 = std::fma(y2, x, x);
    // The masks select whole values, the sums then add an exact zero.
    const float ysin2 = poly_sin ? y2 : 0.0f;
    const float ysin1 = poly_sin ? 0.0f : y;
    y2 = y2 - ysin2;
    y = y - ysin1;
    s = std::bit_cast<float>(std::bit_cast<std::uint32_t>(ysin1 + ysin2) ^ sign_sin ^ swap_sin);
    c = std::bit_cast<float>(std::bit_cast<std::uint32_t>(y + y2) ^ sign_cos);
}

void box_muller_16(float* data, float mean, float std_dev, UniformRounding build)
{
    const float two_pi = static_cast<float>(2.0f * std::numbers::pi);
    for (int j = 0; j < 8; ++j) {
        const float u1 = 1.0f - data[j];
        const float u2 = data[j + 8];
        if (build == UniformRounding::Fused) {
            const float radius = std::sqrt(-2.0f * cephes_log(u1));
            float s = 0.0f, c = 0.0f;
            cephes_sincos(two_pi * u2, s, c);
            data[j] = std::fma(radius * c, std_dev, mean);
            data[j + 8] = std::fma(radius * s, std_dev, mean);
        } else {
            const float radius = std::sqrt(-2.0f * std::log(u1));
            const float theta = static_cast<float>(2.0f * std::numbers::pi * u2);
            data[j] = radius * std::cos(theta) * std_dev + mean;
            data[j + 8] = radius * std::sin(theta) * std_dev + mean;
        }
    }
}

double serial_normal(double mean, double std_dev, TorchGenerator& gen, NormalCache& cache)
{
    if (cache.next_double) {
        const double z = *cache.next_double;
        cache.next_double.reset();
        return z * std_dev + mean;
    }
    const double u1 = uniform01_double(gen);
    const double u2 = uniform01_double(gen);
    const double r = std::sqrt(-2.0 * std::log1p(-u2));
    const double theta = 2.0 * std::numbers::pi * u1;
    cache.next_double = r * std::sin(theta);
    return r * std::cos(theta) * std_dev + mean;
}

} // namespace

void normal_(float* out, std::size_t n, double mean, double std_dev, TorchGenerator& gen, NormalCache& cache)
{
    if (n < 16) {
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<float>(serial_normal(mean, std_dev, gen, cache));
        return;
    }
    const float m = static_cast<float>(mean), s = static_cast<float>(std_dev);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = uniform01(gen);
    for (std::size_t i = 0; i + 16 <= n; i += 16)
        box_muller_16(out + i, m, s, gen.rounding());
    if (n % 16 != 0) {
        float* tail = out + n - 16;
        for (std::size_t i = 0; i < 16; ++i)
            tail[i] = uniform01(gen);
        box_muller_16(tail, m, s, gen.rounding());
    }
}

} // namespace attnlab
