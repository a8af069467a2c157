#include "train/small_gemm.h"

#include "train/simd.h"

#include <algorithm>

namespace attnlab::train {

namespace {

using simd::kLanes;
using simd::Vec;

// Left to itself the compiler folds each B load into every multiply-add that uses it, which makes the loads,
// not the arithmetic, the limit.
inline void keep_in_register([[maybe_unused]] Vec& v)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    asm("" : "+v"(v));
#endif
}

// MR rows x NV vectors of C over k in [k0, k1): every B vector loaded once serves MR rows, every A scalar NV
// vectors; MR * NV independent sums keep the multiply-add units busy. Never inlined: inlined into
// small_gemm's dispatch, the small tiles' sums were kept on the stack, one load and store per multiply-add.
template <int MR, int NV>
[[gnu::noinline]] void tile(std::size_t k0, std::size_t k1, const float* a, std::size_t a_row, std::size_t a_col,
                            const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate)
{
    Vec acc[MR][NV];
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v)
            acc[r][v] = accumulate ? simd::load(c + r * ldc + v * kLanes) : Vec{};
    for (std::size_t l = k0; l < k1; ++l) {
        Vec bv[NV];
        for (int v = 0; v < NV; ++v) {
            bv[v] = simd::load(b + l * ldb + v * kLanes);
            keep_in_register(bv[v]);
        }
        for (int r = 0; r < MR; ++r) {
            const float s = a[r * a_row + l * a_col];
            for (int v = 0; v < NV; ++v)
                acc[r][v] += s * bv[v];
        }
    }
    for (int r = 0; r < MR; ++r)
        for (int v = 0; v < NV; ++v)
            simd::store(c + r * ldc + v * kLanes, acc[r][v]);
}

template <int NV>
void rows_of_4(std::size_t mr, std::size_t k0, std::size_t k1, const float* a, std::size_t a_row, std::size_t a_col,
               const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate)
{
    switch (mr) {
    case 4: tile<4, NV>(k0, k1, a, a_row, a_col, b, ldb, c, ldc, accumulate); break;
    case 3: tile<3, NV>(k0, k1, a, a_row, a_col, b, ldb, c, ldc, accumulate); break;
    case 2: tile<2, NV>(k0, k1, a, a_row, a_col, b, ldb, c, ldc, accumulate); break;
    default: tile<1, NV>(k0, k1, a, a_row, a_col, b, ldb, c, ldc, accumulate); break;
    }
}

template <int MR, int NV>
void rows(std::size_t mr, std::size_t k0, std::size_t k1, const float* a, std::size_t a_row, std::size_t a_col,
          const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate)
{
    if (mr == MR)
        tile<MR, NV>(k0, k1, a, a_row, a_col, b, ldb, c, ldc, accumulate);
    else
        for (std::size_t r = 0; r < mr; r += 4)
            rows_of_4<NV>(std::min<std::size_t>(4, mr - r), k0, k1, a + r * a_row, a_row, a_col, b, ldb, c + r * ldc,
                          ldc, accumulate);
}

// Rows of B (and of A's k) per pass: a pass's slice of B stays in L2 while every row tile of C reads it.
constexpr std::size_t kDepth = 256;

// Vectors of C per tile, and rows per tile for each width, so that the sums, B's vectors and A's scalar fit
// the machine's registers: 32 with AVX-512 (6 x 4 or 8 x 2 sums), 16 with AVX2 (6 x 2 sums, 2 of B, 1 of A).
#if defined(__AVX512F__)
constexpr std::size_t kMaxVectors = 4;
#else
constexpr std::size_t kMaxVectors = 2;
#endif
constexpr bool kWideRegisters = kMaxVectors == 4;

} // namespace

void small_gemm(std::size_t m, std::size_t n, std::size_t k, const float* a, std::size_t a_row, std::size_t a_col,
                const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate)
{
    if (k == 0) {
        if (!accumulate)
            for (std::size_t i = 0; i < m; ++i)
                std::fill_n(c + i * ldc, n, 0.0f);
        return;
    }
    for (std::size_t k0 = 0; k0 < k; k0 += kDepth) {
        const std::size_t k1 = std::min(k, k0 + kDepth);
        const bool acc = accumulate || k0 > 0;
        for (std::size_t n0 = 0; n0 < n; n0 += kMaxVectors * kLanes) {
            const std::size_t nv = std::min<std::size_t>(kMaxVectors, (n - n0) / kLanes);
            // The attention's products have 8 to 32 rows, which 6-row tiles leave a remainder of; 4-row tiles
            // have none there and serve nearly as many multiply-adds per load.
            const bool few_rows = m < 64 && m % 4 == 0 && nv == 2 && !kWideRegisters;
            const std::size_t mr = few_rows ? 4 : (nv > 2 || (nv == 2 && !kWideRegisters)) ? 6 : 8;
            for (std::size_t m0 = 0; m0 < m; m0 += mr) {
                const std::size_t rows_left = std::min(mr, m - m0);
                const float* am = a + m0 * a_row;
                float* cm = c + m0 * ldc + n0;
                switch (nv) {
                case 4: rows<6, 4>(rows_left, k0, k1, am, a_row, a_col, b + n0, ldb, cm, ldc, acc); break;
                case 3: rows<6, 3>(rows_left, k0, k1, am, a_row, a_col, b + n0, ldb, cm, ldc, acc); break;
                case 2:
                    if (few_rows)
                        rows<4, 2>(rows_left, k0, k1, am, a_row, a_col, b + n0, ldb, cm, ldc, acc);
                    else if constexpr (kWideRegisters)
                        rows<8, 2>(rows_left, k0, k1, am, a_row, a_col, b + n0, ldb, cm, ldc, acc);
                    else
                        rows<6, 2>(rows_left, k0, k1, am, a_row, a_col, b + n0, ldb, cm, ldc, acc);
                    break;
                default: rows<8, 1>(rows_left, k0, k1, am, a_row, a_col, b + n0, ldb, cm, ldc, acc); break;
                }
            }
        }
    }
}

} // namespace attnlab::train
