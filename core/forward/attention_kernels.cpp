#include "forward/attention_kernels.h"

#include "tensor/error.h"
#include "tensor/gemm.h"
#include "tensor/threads.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

std::string mat_shapes(std::int64_t r1, std::int64_t c1, std::int64_t r2, std::int64_t c2)
{
    return "(" + std::to_string(r1) + "x" + std::to_string(c1) + " and " + std::to_string(r2) + "x" +
           std::to_string(c2) + ")";
}

} // namespace

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor* bias)
{
    const std::int64_t in = x.size(-1), rows = x.numel() / std::max<std::int64_t>(in, 1);
    const std::int64_t out = weight.size(0);
    if (weight.size(1) != in)
        throw Error("mat1 and mat2 shapes cannot be multiplied " + mat_shapes(rows, in, weight.size(1), out) + ".");
    Shape shape = x.shape();
    shape.back() = out;
    Tensor y = Tensor::empty(shape);
    const Tensor xc = x.contiguous(), wc = weight.contiguous();
    gemm(rows, out, in, xc.data(), in, wc.data(), in, Op::T, y.data(), out);
    if (bias) {
        const Tensor bc = bias->contiguous();
        MapMatrix(y.data(), rows, out, Eigen::OuterStride<>(out)).rowwise() +=
            Eigen::Map<const RowVectorF>(bc.data(), out);
    }
    return y;
}

Tensor matmul_right(const Tensor& x, const Tensor& weight)
{
    const std::int64_t in = x.size(-1), rows = x.numel() / std::max<std::int64_t>(in, 1);
    const std::int64_t out = weight.size(1);
    if (weight.size(0) != in)
        throw Error("mat1 and mat2 shapes cannot be multiplied " + mat_shapes(rows, in, weight.size(0), out) + ".");
    Shape shape = x.shape();
    shape.back() = out;
    Tensor y = Tensor::empty(shape);
    const Tensor xc = x.contiguous(), wc = weight.contiguous();
    gemm(rows, out, in, xc.data(), in, wc.data(), out, Op::N, y.data(), out);
    return y;
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point& t0)
{
    const auto now = Clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t0).count();
    t0 = now;
    return ms;
}

void scores_block(const float* queries, const float* keys, const HeadLayout& l, std::int64_t b, std::int64_t h,
                  float* scores)
{
    const std::int64_t offset = b * l.batch_stride() + h * l.head_dim;
    gemm(l.tokens, l.tokens, l.head_dim, queries + offset, l.row_stride(), keys + l.kv_offset(b, h), l.kv_row_stride(),
         Op::T, scores, l.tokens);
}

// One row at a time while it sits in L1: the masked copy and the softmax read the scores row once.
// Row i of a causal block reads only its first i + 1 entries (the rest are -inf) and gets exact
// zeros beyond: the same numbers as a full softmax, with half the exponentials. Like PyTorch's
// kernel: max, exp(x - max) and its sum, then one multiply by the reciprocal.
// A sliding window of w keys also hides keys before i - w + 1: they are -inf and weigh exactly 0 too.
void mask_softmax_block(const float* scores, std::int64_t T, float scale, bool causal, std::int64_t window,
                        float* masked, float* weights)
{
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (std::int64_t i = 0; i < T; ++i) {
        const std::int64_t n = causal ? i + 1 : T,
                           first = causal && window > 0 ? std::max<std::int64_t>(0, n - window) : 0;
        const float* row = scores + i * T;
        if (masked) {
            std::fill(masked + i * T, masked + i * T + first, neg_inf);
            std::copy(row + first, row + n, masked + i * T + first);
            std::fill(masked + i * T + n, masked + (i + 1) * T, neg_inf);
        }
        softmax_scaled(row + first, n - first, scale, weights + i * T + first);
        std::fill(weights + i * T, weights + i * T + first, 0.0f);
        std::fill(weights + i * T + n, weights + (i + 1) * T, 0.0f);
    }
}

void context_block(const float* weights, const float* values, const HeadLayout& l, std::int64_t b, std::int64_t h,
                   bool causal, float* context)
{
    const std::int64_t T = l.tokens, hd = l.head_dim;
    const float* v = values + l.kv_offset(b, h);
    if (!causal) {
        gemm(T, hd, T, weights, T, v, l.kv_row_stride(), Op::N, context, hd);
        return;
    }
    // Rows [r0, r1) see keys [0, r1) only; the zeros right of the diagonal inside the block add 0.
    constexpr std::int64_t kRows = 128;
    for (std::int64_t r0 = 0; r0 < T; r0 += kRows) {
        const std::int64_t r1 = std::min(T, r0 + kRows);
        gemm(r1 - r0, hd, r1, weights + r0 * T, T, v, l.kv_row_stride(), Op::N, context + r0 * hd, hd);
    }
}

} // namespace

void attention_heads(const float* queries, const float* keys, const float* values, const HeadLayout& l, bool causal,
                     const AttentionBuffers& out, AttentionTimes* times)
{
    const std::int64_t T = l.tokens, hd = l.head_dim, blocks = l.batch * l.heads;
    const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
    const bool parallel = engine_threads() > 1 && blocks > 1;
    if (parallel)
        times = nullptr;
#pragma omp parallel for schedule(dynamic) if (parallel)
    for (std::int64_t blk = 0; blk < blocks; ++blk) {
        const std::int64_t b = blk / l.heads, h = blk % l.heads, square = blk * T * T;
        auto t0 = Clock::now();
        scores_block(queries, keys, l, b, h, out.scores + square);
        if (times)
            times->scores += ms_since(t0);
        mask_softmax_block(out.scores + square, T, scale, causal, l.window,
                           causal && out.masked ? out.masked + square : nullptr, out.weights + square);
        if (times)
            times->softmax += ms_since(t0); // the mask's copy is fused into this pass
        if (out.context) {
            context_block(out.weights + square, values, l, b, h, causal, out.context + blk * T * hd);
            if (times)
                times->context += ms_since(t0);
        }
    }
}

void attention_context(const float* weights, const float* values, const HeadLayout& l, float* context, bool causal)
{
    const std::int64_t T = l.tokens, hd = l.head_dim, blocks = l.batch * l.heads;
#pragma omp parallel for schedule(dynamic) if (engine_threads() > 1 && blocks > 1)
    for (std::int64_t blk = 0; blk < blocks; ++blk)
        context_block(weights + blk * T * T, values, l, blk / l.heads, blk % l.heads, causal, context + blk * T * hd);
}

void merge_heads(const float* context, const HeadLayout& l, float* merged)
{
    const std::int64_t T = l.tokens, hd = l.head_dim;
    for (std::int64_t b = 0; b < l.batch; ++b)
        for (std::int64_t h = 0; h < l.heads; ++h) {
            ConstMapMatrix C(context + (b * l.heads + h) * T * hd, T, hd, Eigen::OuterStride<>(hd));
            MapMatrix M(merged + b * l.batch_stride() + h * hd, T, hd, Eigen::OuterStride<>(l.row_stride()));
            M = C;
        }
}

} // namespace attnlab
