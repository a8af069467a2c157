#pragma once
// The trainer's matrix products, C = A B, at the sizes its layers have (a few thousand rows by 16 to a few
// hundred columns): register tiles of 6 or 8 rows by one to four vectors, A read as scalars through two strides
// (so A^T costs nothing) and B's rows as vectors, no packing. sgemm packs both operands and clears C before
// every call, which at these sizes cost as much as its arithmetic. The sum over k runs in one fixed order,
// whatever the machine's thread count or vector width.
#include <cstddef>

namespace attnlab::train {

// Columns the tiles cover exactly; other widths go to the engine's gemm.
inline bool small_gemm_fits(std::size_t n)
{
    return n % 16 == 0;
}

// C (m x n, rows ldc) = A B, or C += A B with `accumulate`; A (m x k) has a(i, l) = a[i * a_row + l * a_col],
// B (k x n) rows of ldb. n must be a multiple of the vector width (as every n that fits is).
void small_gemm(std::size_t m, std::size_t n, std::size_t k, const float* a, std::size_t a_row, std::size_t a_col,
                const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate = false);

} // namespace attnlab::train
