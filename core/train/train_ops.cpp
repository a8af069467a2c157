#include "train/train_ops.h"

#include "tensor/gemm.h"
#include "train/fast_exp.h"
#include "train/simd.h"
#include "train/small_gemm.h"

#include <algorithm>
#include <cmath>
#include <bit>

namespace attnlab::train {

namespace {
using I = std::int64_t;
I i64(std::size_t v)
{
    return static_cast<I>(v);
}
} // namespace

void linear_forward(const float* x, std::size_t n, std::size_t in, const float* w, const float* b, std::size_t out,
                    float* y)
{
    if (small_gemm_fits(out)) {
        thread_local std::vector<float> wt; // W^T, rows of `out`: the tiles read B by rows
        wt.resize(in * out);
        for (std::size_t o = 0; o < out; ++o)
            for (std::size_t i = 0; i < in; ++i)
                wt[i * out + o] = w[o * in + i];
        small_gemm(n, out, in, x, in, 1, wt.data(), out, y, out);
    } else {
        gemm(i64(n), i64(out), i64(in), x, i64(in), w, i64(in), Op::T, y, i64(out));
    }
    if (b)
        for (std::size_t r = 0; r < n; ++r)
            for (std::size_t c = 0; c < out; ++c)
                y[r * out + c] += b[c];
}

void linear_backward(const float* x, std::size_t n, std::size_t in, const float* w, std::size_t out, const float* dy,
                     float* dx, float* dw, float* db)
{
    if (small_gemm_fits(in)) {
        if (dx)
            small_gemm(n, in, out, dy, out, 1, w, in, dx, in);
        small_gemm(out, in, n, dy, 1, out, x, in, dw, in);
    } else {
        if (dx)
            gemm(i64(n), i64(in), i64(out), dy, i64(out), w, i64(in), Op::N, dx, i64(in));
        gemm_tn(i64(out), i64(in), i64(n), dy, i64(out), x, i64(in), dw, i64(in));
    }
    if (db) {
        std::fill_n(db, out, 0.0f);
        for (std::size_t r = 0; r < n; ++r)
            for (std::size_t c = 0; c < out; ++c)
                db[c] += dy[r * out + c];
    }
}

namespace {

// Sums over a row in eight interleaved partial sums, which the compiler keeps in one vector register (a single
// running sum cannot be vectorised without reordering it). f(c) gives the c-th term.
template <class F> float lane_sum(std::size_t n, F f)
{
    float lane[8] = {};
    std::size_t c = 0;
    for (; c + 8 <= n; c += 8)
        for (std::size_t l = 0; l < 8; ++l)
            lane[l] += f(c + l);
    float s = ((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7]));
    for (; c < n; ++c)
        s += f(c);
    return s;
}

} // namespace

void layer_norm_forward(const float* x, std::size_t n, std::size_t d, const float* scale, const float* shift, float* y,
                        float* xhat, float* rstd)
{
    for (std::size_t r = 0; r < n; ++r) {
        const float* xr = x + r * d;
        const float mean = lane_sum(d, [&](std::size_t c) { return xr[c]; }) / static_cast<float>(d);
        const float sq = lane_sum(d, [&](std::size_t c) { return (xr[c] - mean) * (xr[c] - mean); });
        const float inv = 1.0f / std::sqrt(sq / static_cast<float>(d) + 1e-5f);
        rstd[r] = inv;
        for (std::size_t c = 0; c < d; ++c) {
            const float h = (xr[c] - mean) * inv;
            xhat[r * d + c] = h;
            y[r * d + c] = scale[c] * h + shift[c];
        }
    }
}

void layer_norm_backward(const float* dy, const float* xhat, const float* rstd, const float* scale, std::size_t n,
                         std::size_t d, float* dx, float* dscale, float* dshift)
{
    std::fill_n(dscale, d, 0.0f);
    std::fill_n(dshift, d, 0.0f);
    for (std::size_t r = 0; r < n; ++r) {
        const float* g = dy + r * d;
        const float* h = xhat + r * d;
        for (std::size_t c = 0; c < d; ++c) {
            dscale[c] += g[c] * h[c];
            dshift[c] += g[c];
        }
        const float mean_g = lane_sum(d, [&](std::size_t c) { return g[c] * scale[c]; }) / static_cast<float>(d);
        const float mean_gh =
            lane_sum(d, [&](std::size_t c) { return g[c] * scale[c] * h[c]; }) / static_cast<float>(d);
        for (std::size_t c = 0; c < d; ++c)
            dx[r * d + c] = rstd[r] * (g[c] * scale[c] - mean_g - h[c] * mean_gh);
    }
}

namespace {

// torch.sqrt(torch.tensor(2.0 / torch.pi)): the constant rounded to float, as the book's module computes it.
const float kGeluC = std::sqrt(static_cast<float>(2.0 / 3.14159265358979323846));

inline float exp_of(float x)
{
    return fast_exp(x);
}
inline simd::Vec exp_of(simd::Vec x)
{
    return simd::exp(x);
}

// The GELU's tanh(sqrt(2 / pi) (x + 0.044715 x^3)), for a float or a vector of them, with tanh(u) =
// 1 - 2 / (exp(2u) + 1): exact at the ends (+-1), absolute error about 1e-7 near 0, where the GELU
// multiplies it by 0.5 x and adds it to 1.
template <class V> V gelu_tanh(V x)
{
    return 1.0f - 2.0f / (exp_of(2.0f * (kGeluC * (x + 0.044715f * x * x * x))) + 1.0f);
}

// d(GELU)/dx times dy, from x and the forward's tanh th.
template <class V> V gelu_grad(V x, V th, V dy)
{
    const V inner = kGeluC * (1.0f + 3.0f * 0.044715f * x * x);
    return dy * (0.5f * (1.0f + th) + 0.5f * x * (1.0f - th * th) * inner);
}

} // namespace

// A vector at a time (the compiler left the loops scalar, the outputs being able to overlap the inputs for
// all it knows), then the same operations on the rest one at a time.
void gelu_forward(const float* x, std::size_t count, float* y, float* t)
{
    std::size_t i = 0;
    for (; i + simd::kLanes <= count; i += simd::kLanes) {
        const simd::Vec v = simd::load(x + i), th = gelu_tanh(v);
        simd::store(t + i, th);
        simd::store(y + i, 0.5f * v * (1.0f + th));
    }
    for (; i < count; ++i) {
        t[i] = gelu_tanh(x[i]);
        y[i] = 0.5f * x[i] * (1.0f + t[i]);
    }
}

void gelu_backward(const float* x, const float* t, const float* dy, std::size_t count, float* dx)
{
    std::size_t i = 0;
    for (; i + simd::kLanes <= count; i += simd::kLanes)
        simd::store(dx + i, gelu_grad(simd::load(x + i), simd::load(t + i), simd::load(dy + i)));
    for (; i < count; ++i)
        dx[i] = gelu_grad(x[i], t[i], dy[i]);
}

void embedding_forward(const std::int64_t* ids, std::size_t batch, std::size_t tokens, const float* tok,
                       const float* pos, std::size_t d, float* x, const std::size_t* starts)
{
    for (std::size_t b = 0; b < batch; ++b) {
        const auto [row0, n] = sequence_rows(starts, tokens, b);
        for (std::size_t t = 0; t < n; ++t) {
            const float* e = tok + static_cast<std::size_t>(ids[b * tokens + t]) * d;
            float* out = x + (row0 + t) * d;
            for (std::size_t c = 0; c < d; ++c)
                out[c] = e[c] + pos[t * d + c];
        }
    }
}

void embedding_backward(const std::int64_t* ids, std::size_t batch, std::size_t tokens, const float* dx,
                        std::size_t vocab, std::size_t d, float* dtok, float* dpos, const std::size_t* starts)
{
    std::fill_n(dtok, vocab * d, 0.0f);
    std::fill_n(dpos, tokens * d, 0.0f);
    for (std::size_t b = 0; b < batch; ++b) {
        const auto [row0, n] = sequence_rows(starts, tokens, b);
        for (std::size_t t = 0; t < n; ++t) {
            const float* g = dx + (row0 + t) * d;
            float* e = dtok + static_cast<std::size_t>(ids[b * tokens + t]) * d;
            for (std::size_t c = 0; c < d; ++c) {
                e[c] += g[c];
                dpos[t * d + c] += g[c];
            }
        }
    }
}

LossStats cross_entropy(const float* logits, const std::int64_t* targets, std::size_t n, std::size_t vocab,
                        float* dlogits)
{
    LossStats stats;
    for (std::size_t r = 0; r < n; ++r)
        stats.scored += targets[r] != kIgnoreIndex;
    const float inv = stats.scored ? 1.0f / static_cast<float>(stats.scored) : 0.0f;
    double total = 0.0;
    for (std::size_t r = 0; r < n; ++r) {
        const float* z = logits + r * vocab;
        float* g = dlogits ? dlogits + r * vocab : nullptr;
        if (targets[r] == kIgnoreIndex) {
            if (g)
                std::fill_n(g, vocab, 0.0f);
            continue;
        }
        const std::size_t target = static_cast<std::size_t>(targets[r]);
        const std::size_t best = static_cast<std::size_t>(std::max_element(z, z + vocab) - z);
        const float top = z[best];
        float sum = 0.0f;
        for (std::size_t c = 0; c < vocab; ++c)
            sum += std::exp(z[c] - top);
        const float log_sum = std::log(sum);
        total += static_cast<double>(log_sum - (z[target] - top));
        stats.correct += best == target;
        if (g) {
            for (std::size_t c = 0; c < vocab; ++c)
                g[c] = std::exp(z[c] - top - log_sum) * inv;
            g[target] -= inv;
        }
    }
    stats.loss = stats.scored ? total / static_cast<double>(stats.scored) : 0.0;
    return stats;
}

} // namespace attnlab::train
