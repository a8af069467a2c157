#pragma once
// Matrix transposes of the trainer's float buffers, in 8 x 8 blocks (AVX shuffles where there are).
#include <algorithm>
#include <cstddef>
#if defined(__AVX__)
#include <immintrin.h>
#endif

namespace attnlab::train {

// One 8 x 8 block of a transpose: eight row loads, 24 shuffles and eight row stores with AVX, where 64
// scalar moves took most of the attention's time.
inline void transpose_8x8(const float* src, std::size_t ls, float* dst, std::size_t ld)
{
#if defined(__AVX__)
    __m256 r[8], t[8];
    for (int i = 0; i < 8; ++i)
        r[i] = _mm256_loadu_ps(src + i * ls);
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
        r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; ++i) {
        _mm256_storeu_ps(dst + i * ld, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
        _mm256_storeu_ps(dst + (i + 4) * ld, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
    }
#else
    for (std::size_t c = 0; c < 8; ++c)
        for (std::size_t r = 0; r < 8; ++r)
            dst[c * ld + r] = src[r * ls + c];
#endif
}

// (rows x cols, stride ls) -> (cols x rows, stride ld), in 8 x 8 blocks. Each sequence's operands move in
// one transpose of all its heads, long after the vector stores that wrote them (a load right after a store
// of another width to the same line waits for it).
inline void transpose(const float* src, std::size_t ls, std::size_t rows, std::size_t cols, float* dst, std::size_t ld)
{
    constexpr std::size_t B = 8;
    for (std::size_t r0 = 0; r0 < rows; r0 += B)
        for (std::size_t c0 = 0; c0 < cols; c0 += B) {
            if (r0 + B <= rows && c0 + B <= cols) {
                transpose_8x8(src + r0 * ls + c0, ls, dst + c0 * ld + r0, ld);
                continue;
            }
            for (std::size_t c = c0; c < std::min(cols, c0 + B); ++c)
                for (std::size_t r = r0; r < std::min(rows, r0 + B); ++r)
                    dst[c * ld + r] = src[r * ls + c];
        }
}

} // namespace attnlab::train
