#pragma once
// The one place the engine names its Eigen types. Row-major everywhere, so a tensor's buffer maps
// onto a matrix without a copy and strides mean what they mean in PyTorch.
// GCC 12.2's AVX-512 intrinsics fill "undefined" lanes from a variable initialised with itself
// (_mm512_undefined_ps: `__m512 __Y = __Y;`), and -Wmaybe-uninitialized reports that inside the header each
// time Eigen's packet code inlines one (GCC bug 105593; GCC 12.3 and 13 put this same pragma in the header).
// Including the header first, under the pragma, silences exactly those reports: the diagnostic is located in
// the header's lines, and the warning stays on for the engine's own code.
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif
#include <Eigen/Core>

namespace attnlab {

using MatrixRM = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using VectorF = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using RowVectorF = Eigen::Matrix<float, 1, Eigen::Dynamic>;
using MapMatrix = Eigen::Map<MatrixRM, Eigen::Unaligned, Eigen::OuterStride<>>;
using ConstMapMatrix = Eigen::Map<const MatrixRM, Eigen::Unaligned, Eigen::OuterStride<>>;

} // namespace attnlab
