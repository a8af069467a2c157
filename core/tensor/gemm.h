#pragma once
// The engine's one matrix-multiply entry point, on row-major buffers with leading dimensions.
// Builds with OpenBLAS (ATTNLAB_OPENBLAS) hand the big products to its sgemm, which runs the
// projections about a third faster than Eigen's own kernel on AVX2 machines; other builds, and
// calls made inside the engine's own parallel loops, use Eigen.
#include <cstdint>

namespace attnlab {

enum class Op { N, T }; // the right-hand operand as stored (N) or transposed (T)

// C (m x n, ldc) = A (m x k, lda) * op(B). B is (k x n, ldb) for Op::N and (n x k, ldb) for Op::T.
// Operands must not overlap C.
void gemm(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
          std::int64_t ldb, Op op_b, float* c, std::int64_t ldc);

// C (m x n, ldc) = A^T * B with A stored (k x m, lda) and B (k x n, ldb): products that sum over the rows
// of both operands, such as a linear layer's weight gradient dY^T X, without copying a transpose first.
void gemm_tn(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
             std::int64_t ldb, float* c, std::int64_t ldc);

// Which kernel the build uses, for `bench` and the README: "OpenBLAS 0.3.21" or "Eigen 3.4.0".
const char* gemm_backend();

// Tells OpenBLAS how many threads its own products may use (no-op without it).
void set_gemm_threads(int threads);

} // namespace attnlab
