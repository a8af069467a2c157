#pragma once
// Tensor.normal_(mean, std) on a contiguous float tensor as PyTorch 1.13's CPU kernel draws it, bit for
// bit: what nn.Embedding's reset_parameters (init.normal_) puts in tok_emb and pos_emb.
//
// Why each piece is the way it is (aten/src/ATen/native/cpu/DistributionTemplates.h, checked against
// Debian's python3-torch 1.13 by tests/core/test_train_init.cpp):
// - Of 16 elements or more, every element first gets a float uniform in [0, 1) (24 bits of one 32-bit
//   draw); then each block of 16 becomes 8 Box-Muller pairs: u1 = 1 - data[j], u2 = data[j + 8],
//   data[j] = r cos(theta), data[j + 8] = r sin(theta). A tail that is not a whole block draws 16 new
//   uniforms over the last 16 elements and transforms them again, so it overwrites values already made.
// - The AVX2 build (what Debian's 1.13 picks on any current x86-64) computes log, sin and cos with
//   avx_mathfun.h's cephes polynomials in float, and GCC fuses its multiply-adds into FMAs; the baseline
//   build calls std::log, std::cos and std::sin in float. The generator's UniformRounding tells which
//   build it mimics (Fused is the AVX2 one), as it does for uniform_.
// - Under 16 elements the kernel is serial: a double normal per element, Box-Muller in double from two
//   53-bit uniforms, whose second value is cached in the generator for the next draw. NormalCache holds
//   that cached value; manual_seed clears it, so a fresh cache goes with a fresh generator.
#include "tensor/torch_random.h"

#include <cstddef>
#include <optional>

namespace attnlab {

struct NormalCache {
    std::optional<double> next_double; // the sine half of the last serial Box-Muller pair
};

void normal_(float* out, std::size_t n, double mean, double std_dev, TorchGenerator& gen, NormalCache& cache);

} // namespace attnlab
