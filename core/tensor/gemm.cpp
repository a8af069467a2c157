#include "tensor/gemm.h"

#include "tensor/eigen_types.h"

#ifdef ATTNLAB_OPENBLAS
#include <cblas.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

namespace attnlab {

namespace {

// OpenBLAS's pthread build keeps its own pool: calling it from inside an OpenMP loop would
// oversubscribe the cores, so those calls stay on Eigen, which runs single-threaded there.
bool inside_parallel_region()
{
#ifdef _OPENMP
    return omp_in_parallel();
#else
    return false;
#endif
}

void eigen_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
                std::int64_t ldb, Op op_b, float* c, std::int64_t ldc)
{
    ConstMapMatrix A(a, m, k, Eigen::OuterStride<>(lda));
    MapMatrix C(c, m, n, Eigen::OuterStride<>(ldc));
    if (op_b == Op::N)
        C.noalias() = A * ConstMapMatrix(b, k, n, Eigen::OuterStride<>(ldb));
    else
        C.noalias() = A * ConstMapMatrix(b, n, k, Eigen::OuterStride<>(ldb)).transpose();
}

} // namespace

void gemm(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
          std::int64_t ldb, Op op_b, float* c, std::int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
#ifdef ATTNLAB_OPENBLAS
    // Tiny products (the book's 6 x 3 examples) cost more in sgemm's set-up than in arithmetic.
    if (!inside_parallel_region() && m * n * k >= 32 * 32 * 32 && k > 0) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, op_b == Op::N ? CblasNoTrans : CblasTrans, static_cast<int>(m),
                    static_cast<int>(n), static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb),
                    0.0f, c, static_cast<int>(ldc));
        return;
    }
#endif
    eigen_gemm(m, n, k, a, lda, b, ldb, op_b, c, ldc);
}

void gemm_tn(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
             std::int64_t ldb, float* c, std::int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
#ifdef ATTNLAB_OPENBLAS
    if (!inside_parallel_region() && m * n * k >= 32 * 32 * 32 && k > 0) {
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                    static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), 0.0f, c,
                    static_cast<int>(ldc));
        return;
    }
#endif
    MapMatrix C(c, m, n, Eigen::OuterStride<>(ldc));
    C.noalias() = ConstMapMatrix(a, k, m, Eigen::OuterStride<>(lda)).transpose() *
                  ConstMapMatrix(b, k, n, Eigen::OuterStride<>(ldb));
}

const char* gemm_backend()
{
#ifdef ATTNLAB_OPENBLAS
    return "OpenBLAS";
#else
    return "Eigen";
#endif
}

void set_gemm_threads(int threads)
{
#ifdef ATTNLAB_OPENBLAS
    openblas_set_num_threads(threads < 1 ? 1 : threads);
#else
    (void)threads;
#endif
}

} // namespace attnlab
