#include "attention_kernels.h"

#include "error.h"
#include "threads.h"

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

void attention_scores(const float* queries, const float* keys, const HeadLayout& l, float* scores)
{
    const std::int64_t T = l.tokens, blocks = l.batch * l.heads;
#pragma omp parallel for schedule(static) if (engine_threads() > 1 && blocks > 1)
    for (std::int64_t blk = 0; blk < blocks; ++blk) {
        const std::int64_t b = blk / l.heads, h = blk % l.heads;
        MapMatrix S(scores + blk * T * T, T, T, Eigen::OuterStride<>(T));
        S.noalias() = head_block(queries, l, b, h) * head_block(keys, l, b, h).transpose();
    }
}

void apply_causal_mask(const float* scores, const HeadLayout& l, float* masked)
{
    const std::int64_t T = l.tokens;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (std::int64_t blk = 0; blk < l.batch * l.heads; ++blk) {
        const float* src = scores + blk * T * T;
        float* dst = masked + blk * T * T;
        for (std::int64_t i = 0; i < T; ++i) {
            std::copy(src + i * T, src + i * T + i + 1, dst + i * T);
            std::fill(dst + i * T + i + 1, dst + (i + 1) * T, neg_inf);
        }
    }
}

void scaled_softmax(const float* scores, const HeadLayout& l, float* weights, bool causal)
{
    const std::int64_t T = l.tokens, rows = l.batch * l.heads * T;
    const float scale = 1.0f / std::sqrt(static_cast<float>(l.head_dim));
#pragma omp parallel for schedule(static) if (engine_threads() > 1 && rows > 1)
    for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t n = causal ? r % T + 1 : T; // entries that are not -inf
        Eigen::Map<const Eigen::ArrayXf> in(scores + r * T, n);
        Eigen::Map<Eigen::ArrayXf> out(weights + r * T, n);
        out = in * scale;
        const float max = out.maxCoeff();
        out = (out - max).exp();
        out /= out.sum();
        std::fill(weights + r * T + n, weights + (r + 1) * T, 0.0f);
    }
}

void attention_context(const float* weights, const float* values, const HeadLayout& l, float* context, bool causal)
{
    const std::int64_t T = l.tokens, hd = l.head_dim, blocks = l.batch * l.heads;
#pragma omp parallel for schedule(static) if (engine_threads() > 1 && blocks > 1)
    for (std::int64_t blk = 0; blk < blocks; ++blk) {
        const std::int64_t b = blk / l.heads, h = blk % l.heads;
        ConstMapMatrix A(weights + blk * T * T, T, T, Eigen::OuterStride<>(T));
        MapMatrix C(context + blk * T * hd, T, hd, Eigen::OuterStride<>(hd));
        if (causal)
            C.noalias() = A.triangularView<Eigen::Lower>() * head_block(values, l, b, h);
        else
            C.noalias() = A * head_block(values, l, b, h);
    }
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
