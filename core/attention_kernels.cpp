#include "attention_kernels.h"

#include "error.h"
#include "threads.h"

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

ConstMapMatrix head_block(const float* base, const HeadLayout& l, std::int64_t b, std::int64_t h)
{
    return ConstMapMatrix(base + b * l.batch_stride() + h * l.head_dim, l.tokens, l.head_dim,
                          Eigen::OuterStride<>(l.row_stride()));
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
    ConstMapMatrix X(xc.data(), rows, in, Eigen::OuterStride<>(in));
    ConstMapMatrix W(wc.data(), out, in, Eigen::OuterStride<>(in));
    MapMatrix Y(y.data(), rows, out, Eigen::OuterStride<>(out));
    Y.noalias() = X * W.transpose();
    if (bias) {
        const Tensor bc = bias->contiguous();
        Y.rowwise() += Eigen::Map<const RowVectorF>(bc.data(), out);
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
    ConstMapMatrix X(xc.data(), rows, in, Eigen::OuterStride<>(in));
    ConstMapMatrix W(wc.data(), in, out, Eigen::OuterStride<>(out));
    MapMatrix Y(y.data(), rows, out, Eigen::OuterStride<>(out));
    Y.noalias() = X * W;
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
    const std::int64_t T = l.tokens;
    MapMatrix S(scores, T, T, Eigen::OuterStride<>(T));
    S.noalias() = head_block(queries, l, b, h) * head_block(keys, l, b, h).transpose();
}

void mask_block(const float* scores, std::int64_t T, float* masked)
{
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (std::int64_t i = 0; i < T; ++i) {
        std::copy(scores + i * T, scores + i * T + i + 1, masked + i * T);
        std::fill(masked + i * T + i + 1, masked + (i + 1) * T, neg_inf);
    }
}

// Row i of a causal block reads only its first i + 1 entries (the rest are -inf) and gets exact
// zeros beyond: the same numbers as a full softmax, with half the exponentials.
void softmax_block(const float* scores, std::int64_t T, float scale, bool causal, float* weights)
{
    for (std::int64_t i = 0; i < T; ++i) {
        const std::int64_t n = causal ? i + 1 : T;
        Eigen::Map<const Eigen::ArrayXf> in(scores + i * T, n);
        Eigen::Map<Eigen::ArrayXf> out(weights + i * T, n);
        out = in * scale;
        const float max = out.maxCoeff();
        out = (out - max).exp();
        out /= out.sum();
        std::fill(weights + i * T + n, weights + (i + 1) * T, 0.0f);
    }
}

void context_block(const float* weights, const float* values, const HeadLayout& l, std::int64_t b, std::int64_t h,
                   bool causal, float* context)
{
    const std::int64_t T = l.tokens, hd = l.head_dim;
    ConstMapMatrix A(weights, T, T, Eigen::OuterStride<>(T));
    MapMatrix C(context, T, hd, Eigen::OuterStride<>(hd));
    const ConstMapMatrix V = head_block(values, l, b, h);
    if (!causal) {
        C.noalias() = A * V;
        return;
    }
    // Rows [r0, r1) see keys [0, r1) only; the zeros right of the diagonal inside the block add 0.
    constexpr std::int64_t kRows = 128;
    for (std::int64_t r0 = 0; r0 < T; r0 += kRows) {
        const std::int64_t r1 = std::min(T, r0 + kRows);
        C.middleRows(r0, r1 - r0).noalias() = A.block(r0, 0, r1 - r0, r1) * V.topRows(r1);
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
        const float* softmax_input = out.scores + square;
        if (causal && out.masked) {
            mask_block(out.scores + square, T, out.masked + square);
            softmax_input = out.masked + square;
            if (times)
                times->mask += ms_since(t0);
        }
        softmax_block(softmax_input, T, scale, causal, out.weights + square);
        if (times)
            times->softmax += ms_since(t0);
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
