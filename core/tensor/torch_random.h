#pragma once
// PyTorch's CPU random generator and the initialisations the book's modules draw from it, bit for
// bit, so that "seed S" in the app means `torch.manual_seed(S)` followed by constructing the module.
//
// Why each piece is the way it is (read from PyTorch 1.13's source, checked against Debian's
// python3-torch 1.13 by tests/core/test_torch_random.cpp):
// - The generator is plain MT19937 seeded with the low 32 bits of the 64-bit seed, so
//   manual_seed(2**32 + 5) draws what manual_seed(5) draws. std::mt19937 is specified to the bit
//   by the standard, so it is used instead of a copy of at::mt19937. A 64-bit draw is two 32-bit
//   draws, the first one the high half.
// - Every fill below is serial in PyTorch (cpu_serial_kernel), whatever the size: there is no
//   grain size or vectorised path for uniform_ or the non-MKL bernoulli_, unlike normal_.
// - A float uniform_ keeps the low 24 bits of one 32-bit draw and computes x * (to - from) + from
//   in float. PyTorch compiles that kernel once per instruction set, and the builds disagree: the
//   AVX2 one (what Debian's 1.13 picks here, also with ATEN_CPU_CAPABILITY=avx512) rounds once,
//   equal to std::fma in every case, the baseline one (ATEN_CPU_CAPABILITY=default, or a processor
//   without AVX2) rounds twice. The generator carries which build it mimics; Fused, what PyTorch
//   picks on any current x86-64, is the default. rand's [0, 1) is exact either way, Linear's
//   +-bound is not. The .cpp forces each rounding because this project builds with -march=native.
// - The Linear bounds go through Python doubles as torch/nn/init.py computes them (gain, std,
//   sqrt(3) * std): that double is not 1/sqrt(fan_in), though it has rounded to the same float for
//   every fan_in tested.
// - bernoulli_(p) with a scalar p draws one 64-bit value per element (a double uniform with 53
//   bits) and keeps the element if u < p. Dropout (training, CPU) is not the fused kernel: it
//   draws noise = bernoulli_(1 - p), divides the noise by float(1 - p) and multiplies the input
//   by it, so kept values are x * (1 / float(1 - p)); for p = 0.025 that factor is not
//   float(1 / (1 - p)), and the test has such rows.
// - pip's PyTorch is built with MKL and, on Intel processors only, replaces the scalar bernoulli_
//   with one 32-bit draw seeding MKL's MCG31 stream. The book's printed mask
//   (torch.manual_seed(123); nn.Dropout(0.5)(torch.ones(6, 6))) equals the non-MKL draw above in
//   all 36 elements, so Debian's build (no MKL) reproduces it: the book's machine evidently took
//   the default path (e.g. Apple silicon or AMD). The MKL path is not copied, as nothing here
//   could check it against MKL; pip's PyTorch on an Intel processor draws other dropout masks.
#include <cstddef>
#include <cstdint>
#include <random>

namespace attnlab {

// How PyTorch's uniform_ kernel rounds x * (to - from) + from: the AVX2/AVX-512 build (Fused) or
// the baseline build (Separate).
enum class UniformRounding { Fused, Separate };

class TorchGenerator {
public:
    explicit TorchGenerator(std::uint64_t seed, UniformRounding rounding = UniformRounding::Fused)
        : seed_(seed), rounding_(rounding), engine_(static_cast<std::uint32_t>(seed))
    {
    }
    std::uint64_t initial_seed() const { return seed_; }
    UniformRounding rounding() const { return rounding_; }
    std::uint32_t random() { return static_cast<std::uint32_t>(engine_()); }
    std::uint64_t random64()
    {
        const std::uint64_t hi = random();
        return (hi << 32) | random();
    }
    void discard(unsigned long long draws) { engine_.discard(draws); } // that many 32-bit draws

private:
    std::uint64_t seed_;
    UniformRounding rounding_;
    std::mt19937 engine_;
};

// Tensor.uniform_(from, to) on a contiguous float tensor of n elements.
void uniform_(float* out, std::size_t n, double from, double to, TorchGenerator& gen);

// The bounds nn.Linear.reset_parameters uses, as Python computes them (0 when fan_in is 0).
double kaiming_uniform_linear_bound(std::int64_t fan_in);
double linear_bias_bound(std::int64_t fan_in);

// nn.Linear's weight (out_features x in_features, row-major, fan_in = in_features) and bias.
void kaiming_uniform_linear(float* out, std::size_t n, std::int64_t fan_in, TorchGenerator& gen);
void linear_bias_uniform(float* out, std::size_t n, std::int64_t fan_in, TorchGenerator& gen);

// Tensor.bernoulli_(p) on a float tensor: each element 1.0f with probability p, else 0.0f.
void bernoulli_(float* out, std::size_t n, double p, TorchGenerator& gen);

// nn.Dropout(p) in training mode applied to data in place, drawing its mask from gen.
void dropout_(float* data, std::size_t n, double p, TorchGenerator& gen);

} // namespace attnlab
