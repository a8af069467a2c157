#include "tensor/torch_random.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab {

namespace {

float uniform_float(std::uint32_t bits, float from, float range, UniformRounding rounding)
{
    // 24 random bits over 2^24: exact in float, as in PyTorch's transformation.
    const float x = static_cast<float>(bits & 0xFFFFFFu) * 0x1p-24f;
    if (rounding == UniformRounding::Fused)
        return std::fma(x, range, from);
    // Two roundings. The store through volatile is what keeps them two: with -march=native GCC
    // fuses a float multiply and add into an FMA even across statements, and it also narrows a
    // double product of floats back to a float one, so no ordinary spelling survives.
    volatile float product = x * range;
    return product + from;
}

void check_probability(double p, const char* what)
{
    if (!(p >= 0.0 && p <= 1.0))
        throw std::invalid_argument(std::string(what) + " probability has to be between 0 and 1");
}

} // namespace

void uniform_(float* out, std::size_t n, double from, double to, TorchGenerator& gen)
{
    const float lo = static_cast<float>(from);
    const float range = static_cast<float>(to) - lo;
    for (std::size_t i = 0; i < n; ++i)
        out[i] = uniform_float(gen.random(), lo, range, gen.rounding());
}

double kaiming_uniform_linear_bound(std::int64_t fan_in)
{
    if (fan_in <= 0)
        return 0.0;
    // torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5)), leaky_relu gain, step by step in double.
    const double a = std::sqrt(5.0);
    const double gain = std::sqrt(2.0 / (1.0 + a * a));
    const double std_dev = gain / std::sqrt(static_cast<double>(fan_in));
    return std::sqrt(3.0) * std_dev;
}

double linear_bias_bound(std::int64_t fan_in)
{
    return fan_in > 0 ? 1.0 / std::sqrt(static_cast<double>(fan_in)) : 0.0;
}

void kaiming_uniform_linear(float* out, std::size_t n, std::int64_t fan_in, TorchGenerator& gen)
{
    // init.kaiming_uniform_ returns before drawing on a zero-element tensor.
    if (n == 0)
        return;
    const double bound = kaiming_uniform_linear_bound(fan_in);
    uniform_(out, n, -bound, bound, gen);
}

void linear_bias_uniform(float* out, std::size_t n, std::int64_t fan_in, TorchGenerator& gen)
{
    const double bound = linear_bias_bound(fan_in);
    uniform_(out, n, -bound, bound, gen);
}

void bernoulli_(float* out, std::size_t n, double p, TorchGenerator& gen)
{
    check_probability(p, "bernoulli_");
    for (std::size_t i = 0; i < n; ++i) {
        const double u = static_cast<double>(gen.random64() & ((std::uint64_t{1} << 53) - 1)) * 0x1p-53;
        out[i] = u < p ? 1.0f : 0.0f;
    }
}

void dropout_(float* data, std::size_t n, double p, TorchGenerator& gen)
{
    check_probability(p, "dropout");
    if (p == 0.0 || n == 0)
        return;
    if (p == 1.0) {
        // input * zeros: keeps IEEE signs and NaNs rather than writing +0.
        for (std::size_t i = 0; i < n; ++i)
            data[i] *= 0.0f;
        return;
    }
    // noise = empty_like(x).bernoulli_(1 - p); noise.div_(1 - p); x * noise. The divisor is the
    // scalar 1 - p rounded to float, and each kept value is rounded once in the final product.
    const double keep = 1.0 - p;
    const float keep_f = static_cast<float>(keep);
    std::vector<float> noise(n);
    bernoulli_(noise.data(), n, keep, gen);
    for (std::size_t i = 0; i < n; ++i)
        data[i] *= noise[i] / keep_f;
}

} // namespace attnlab
