#include "train/train_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab::train {

namespace {

// keys.shape[-1] ** 0.5 in Python (a double), divided into float scores as a float.
float score_divisor(std::size_t head_dim)
{
    return static_cast<float>(std::sqrt(static_cast<double>(head_dim)));
}

float dot(const float* a, const float* b, std::size_t n)
{
    float s = 0.0f;
    for (std::size_t i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

void axpy(float alpha, const float* x, float* y, std::size_t n)
{
    for (std::size_t i = 0; i < n; ++i)
        y[i] += alpha * x[i];
}

} // namespace

void attention_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* weights,
                       const float* noise, float* ctx)
{
    const std::size_t T = dims.tokens, hd = dims.head_dim, D = dims.d_out();
    const float divisor = score_divisor(hd);
    std::fill_n(ctx, dims.batch * T * D, 0.0f);
    for (std::size_t b = 0; b < dims.batch; ++b)
        for (std::size_t h = 0; h < dims.heads; ++h) {
            const std::size_t base = b * T * D + h * hd;
            float* w = weights + (b * dims.heads + h) * T * T;
            const float* n = noise ? noise + (b * dims.heads + h) * T * T : nullptr;
            for (std::size_t i = 0; i < T; ++i) {
                float* wi = w + i * T;
                const float* qi = q + base + i * D;
                float top = -std::numeric_limits<float>::infinity();
                for (std::size_t j = 0; j <= i; ++j) {
                    wi[j] = dot(qi, k + base + j * D, hd) / divisor;
                    top = std::max(top, wi[j]);
                }
                float sum = 0.0f;
                for (std::size_t j = 0; j <= i; ++j) {
                    wi[j] = std::exp(wi[j] - top);
                    sum += wi[j];
                }
                for (std::size_t j = 0; j <= i; ++j)
                    wi[j] /= sum;
                std::fill(wi + i + 1, wi + T, 0.0f);
                float* ci = ctx + base + i * D;
                for (std::size_t j = 0; j <= i; ++j)
                    axpy(n ? wi[j] * n[i * T + j] : wi[j], v + base + j * D, ci, hd);
            }
        }
}

void attention_backward(const AttentionDims& dims, const float* q, const float* k, const float* v,
                        const float* weights, const float* noise, const float* dctx, float* dq, float* dk, float* dv,
                        float* row)
{
    const std::size_t T = dims.tokens, hd = dims.head_dim, D = dims.d_out();
    const float divisor = score_divisor(hd);
    const std::size_t all = dims.batch * T * D;
    std::fill_n(dq, all, 0.0f);
    std::fill_n(dk, all, 0.0f);
    std::fill_n(dv, all, 0.0f);
    for (std::size_t b = 0; b < dims.batch; ++b)
        for (std::size_t h = 0; h < dims.heads; ++h) {
            const std::size_t base = b * T * D + h * hd;
            const float* w = weights + (b * dims.heads + h) * T * T;
            const float* n = noise ? noise + (b * dims.heads + h) * T * T : nullptr;
            for (std::size_t i = 0; i < T; ++i) {
                const float* wi = w + i * T;
                const float* gi = dctx + base + i * D;
                float weighted = 0.0f;
                for (std::size_t j = 0; j <= i; ++j) {
                    const float keep = n ? n[i * T + j] : 1.0f;
                    axpy(wi[j] * keep, gi, dv + base + j * D, hd);
                    row[j] = dot(gi, v + base + j * D, hd) * keep;
                    weighted += wi[j] * row[j];
                }
                const float* qi = q + base + i * D;
                float* dqi = dq + base + i * D;
                for (std::size_t j = 0; j <= i; ++j) {
                    const float ds = wi[j] * (row[j] - weighted) / divisor;
                    axpy(ds, k + base + j * D, dqi, hd);
                    axpy(ds, qi, dk + base + j * D, hd);
                }
            }
        }
}

} // namespace attnlab::train
