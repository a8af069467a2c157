#include "train/train_attention.h"

#include "train/attention_lanes.h"
#include "train/simd.h"
#include "train/small_gemm.h"
#include "train/transpose.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace attnlab::train {

namespace {

using simd::kLanes;
using simd::Vec;

std::size_t padded(std::size_t T)
{
    return (T + simd::kPad - 1) / simd::kPad * simd::kPad;
}

// Every product of one head of one sequence is written as C (M x P) = A (M x K) B (K x P) with the output's
// last axis a token position, padded to P (a multiple of 16, so of every vector width) and contiguous in B and C, so
// the vectors run over positions whatever head_dim is (1 for 32 heads of 32); A is read as scalars through its two
// strides, straight from the strided q, k, v buffers. The weights are therefore kept in the "t-layout" (key j rows,
// query i lanes), where the softmax's sums over j are sums of whole rows; the module's own (query rows, key
// lanes) is made from it per head where a product needs it, and for the caller only when asked. Each product runs
// sixteen positions at a time (one vector with AVX-512, two with AVX2, which halves the calls) over the part of k the
// causal mask leaves non-zero; the vector loops between them skip the vectors that hold no position below T.
constexpr std::size_t kChunk = simd::kPad;

void chunk_product(std::size_t M, std::size_t kb, std::size_t ke, const float* a, std::size_t a_row, std::size_t a_col,
                   const float* b, std::size_t ldb, float* c, std::size_t ldc)
{
    small_gemm(M, kChunk, ke - kb, a + kb * a_col, a_row, a_col, b + kb * ldb, ldb, c, ldc);
}

// Sum of rows[j * P] over j < n as four interleaved sums (one running sum waits on itself at every row).
template <class Row> Vec column_sum(std::size_t n, Row row)
{
    Vec s[4] = {};
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4)
        for (std::size_t l = 0; l < 4; ++l)
            s[l] += row(j + l);
    for (; j < n; ++j)
        s[0] += row(j);
    return (s[0] + s[1]) + (s[2] + s[3]);
}

// softmax(scores / sqrt(head_dim)) over the keys j <= i, in place on the (j x i) scores of one head, a vector
// of queries i at a time; the masked entries and the padding lanes (T <= i < padded(T)) end as zeros. P is
// the row stride, padded(T) or more (a ragged sequence in a longer one's block).
void softmax_t(float* wt, std::size_t T, std::size_t P, Vec divisor, std::size_t window)
{
    const float tokens = static_cast<float>(T);
    // Query lanes at or beyond j + window do not see key j (a window wider than the sequence hides nothing).
    const float reach = static_cast<float>(window > 0 && window < T ? window : T);
    for (std::size_t c0 = 0; c0 < padded(T); c0 += kLanes) {
        const Vec lane = simd::lane_index(c0);
        const std::size_t rows = std::min(T, c0 + kLanes);
        const auto valid = [&](std::size_t j) {
            return (lane >= static_cast<float>(j)) & (lane < tokens) & (lane < static_cast<float>(j) + reach);
        };
        Vec top = simd::splat(-std::numeric_limits<float>::infinity());
        for (std::size_t j = 0; j < rows; ++j) {
            float* r = wt + j * P + c0;
            const Vec x = simd::load(r) / divisor;
            simd::store(r, x);
            top = simd::select(valid(j), simd::max(top, x), top);
        }
        for (std::size_t j = 0; j < rows; ++j) {
            float* r = wt + j * P + c0;
            simd::store(r, simd::select(valid(j), simd::exp(simd::load(r) - top), Vec{}));
        }
        Vec sum = column_sum(rows, [&](std::size_t j) { return simd::load(wt + j * P + c0); });
        sum = simd::select(lane < tokens, sum, simd::splat(1.0f));
        for (std::size_t j = 0; j < rows; ++j) {
            float* r = wt + j * P + c0;
            simd::store(r, simd::load(r) / sum);
        }
        for (std::size_t j = rows; j < T; ++j)
            simd::store(wt + j * P + c0, Vec{});
    }
}

void multiply(float* x, const float* y, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        x[i] *= y[i];
}

} // namespace

std::size_t attention_t_floats(const AttentionDims& dims)
{
    return dims.batch * dims.heads * dims.tokens * padded(dims.tokens);
}

namespace {

// The per-head layout's forward (the module-layout weights come after, from weights_t, when asked for).
void attention_t_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* weights_t,
                         const float* noise, float* ctx)
{
    const std::size_t T = dims.tokens, hd = dims.head_dim, D = dims.d_out(), S = dims.stride(), H = dims.heads;
    const std::size_t P = padded(T);
    const Vec divisor = simd::splat(dims.score_divisor());
    std::vector<float> qt(D * P), yt(D * P), nt(noise ? T * P : 0), used(noise ? T * P : 0);
    for (std::size_t b = 0; b < dims.batch; ++b) {
        const std::size_t n = dims.length(b), row0 = dims.first_row(b);
        transpose(q + row0 * S, S, n, D, qt.data(), P);
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t base = row0 * S + h * hd;
            float* wt = weights_t + (b * H + h) * T * P;
            // scores^T (j x i) = K Q^T, rows j <= i only
            for (std::size_t c0 = 0; c0 < n; c0 += kChunk)
                chunk_product(std::min(n, c0 + kChunk), 0, hd, k + base, S, 1, qt.data() + h * hd * P + c0, P, wt + c0,
                              P);
            softmax_t(wt, n, P, divisor, dims.window);
            const float* u = wt;
            if (noise) {
                transpose(noise + (b * H + h) * T * T, T, n, n, nt.data(), P);
                std::copy_n(wt, n * P, used.data());
                multiply(used.data(), nt.data(), n * P);
                u = used.data();
            }
            // ctx^T (d x i) = V^T weights^T, keys j <= i only
            for (std::size_t c0 = 0; c0 < n; c0 += kChunk)
                chunk_product(hd, 0, std::min(n, c0 + kChunk), v + base, 1, S, u + c0, P, yt.data() + h * hd * P + c0,
                              P);
        }
        transpose(yt.data(), P, D, n, ctx + row0 * D, D);
    }
}

} // namespace

void attention_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* weights,
                       float* weights_t, const float* noise, float* ctx)
{
    if (attention_heads_as_lanes(dims))
        attention_lanes_forward(dims, q, k, v, weights_t, noise, ctx);
    else
        attention_t_forward(dims, q, k, v, weights_t, noise, ctx);
    if (weights)
        attention_weights_from_t(dims, weights_t, weights);
}

void attention_weights_from_t(const AttentionDims& dims, const float* weights_t, float* weights)
{
    if (attention_heads_as_lanes(dims))
        return attention_lanes_weights(dims, weights_t, weights);
    const std::size_t T = dims.tokens, P = padded(T);
    for (std::size_t bh = 0; bh < dims.batch * dims.heads; ++bh)
        transpose(weights_t + bh * T * P, P, T, T, weights + bh * T * T, T);
}

void attention_backward(const AttentionDims& dims, const float* q, const float* k, const float* v,
                        const float* weights_t, const float* noise, const float* dctx, float* dq, float* dk, float* dv)
{
    if (attention_heads_as_lanes(dims))
        return attention_lanes_backward(dims, q, k, v, weights_t, noise, dctx, dq, dk, dv);
    const std::size_t T = dims.tokens, hd = dims.head_dim, D = dims.d_out(), S = dims.stride(), H = dims.heads;
    const std::size_t P = padded(T);
    const Vec divisor = simd::splat(dims.score_divisor());
    std::vector<float> gt(D * P), dqt(D * P), dkt(D * P), dvt(D * P), dw(T * P), nt(noise ? T * P : 0), used(T * P),
        dst(H * T * P), ds(H * T * P);
    for (std::size_t b = 0; b < dims.batch; ++b) {
        const std::size_t n = dims.length(b), row0 = dims.first_row(b);
        transpose(dctx + row0 * D, D, n, D, gt.data(), P);
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t base = row0 * S + h * hd;
            const float* wt = weights_t + (b * H + h) * T * P;
            float* st = dst.data() + h * T * P;
            // d(used weights)^T (j x i) = V dctx^T, rows j <= i only
            for (std::size_t c0 = 0; c0 < n; c0 += kChunk)
                chunk_product(std::min(n, c0 + kChunk), 0, hd, v + base, S, 1, gt.data() + h * hd * P + c0, P,
                              dw.data() + c0, P);
            if (noise) {
                transpose(noise + (b * H + h) * T * T, T, n, n, nt.data(), P);
                multiply(dw.data(), nt.data(), n * P);
            }
            // d(scores)^T = w (dw - sum_j w dw) / sqrt(head_dim), down each query's column
            for (std::size_t c0 = 0; c0 < n; c0 += kLanes) {
                const std::size_t rows = std::min(n, c0 + kLanes);
                const auto at = [&](const float* m, std::size_t j) { return simd::load(m + j * P + c0); };
                const Vec weighted = column_sum(rows, [&](std::size_t j) { return at(wt, j) * at(dw.data(), j); });
                for (std::size_t j = 0; j < rows; ++j)
                    simd::store(st + j * P + c0, at(wt, j) * (at(dw.data(), j) - weighted) / divisor);
                for (std::size_t j = rows; j < n; ++j)
                    simd::store(st + j * P + c0, Vec{});
            }
            // dq^T (d x i) = K^T dscores^T, keys j <= i only
            for (std::size_t c0 = 0; c0 < n; c0 += kChunk)
                chunk_product(hd, 0, std::min(n, c0 + kChunk), k + base, 1, S, st + c0, P, dqt.data() + h * hd * P + c0,
                              P);
        }
        for (std::size_t h = 0; h < H; ++h) // dscores (i x j), zero where j > i and in the padding lanes
            transpose(dst.data() + h * T * P, P, n, n, ds.data() + h * T * P, P);
        for (std::size_t h = 0; h < H; ++h) {
            const std::size_t base = row0 * S + h * hd, out = row0 * D + h * hd;
            const float* sh = ds.data() + h * T * P;
            // dk^T (d x j) = Q^T dscores, queries i >= j only
            for (std::size_t c0 = 0; c0 < n; c0 += kChunk)
                chunk_product(hd, c0, n, q + base, 1, S, sh + c0, P, dkt.data() + h * hd * P + c0, P);
            // dv^T (d x j) = dctx^T used, with used (i x j) the weights after dropout, queries i >= j only
            // (the weights (i x j) from the t-layout here, where they are in cache, not from the forward: read
            // back from a buffer of every head's they were a cache miss each; the padding columns stay zero)
            transpose(weights_t + (b * H + h) * T * P, P, n, n, used.data(), P);
            if (noise) {
                const float* mask = noise + (b * H + h) * T * T;
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t j = 0; j < n; ++j)
                        used[i * P + j] *= mask[i * T + j];
            }
            for (std::size_t c0 = 0; c0 < n; c0 += kChunk)
                chunk_product(hd, c0, n, dctx + out, 1, D, used.data() + c0, P, dvt.data() + h * hd * P + c0, P);
        }
        transpose(dqt.data(), P, D, n, dq + row0 * S, S);
        transpose(dkt.data(), P, D, n, dk + row0 * S, S);
        transpose(dvt.data(), P, D, n, dv + row0 * S, S);
    }
}

} // namespace attnlab::train
