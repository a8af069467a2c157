#include "train/attention_lanes.h"

#include "train/lanes_order.h"
#include "train/simd.h"
#include "train/transpose.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace attnlab::train {

namespace {

using simd::kLanes;

// sum over d of a[d * H + lane] * b[d * H + lane], for the vector of heads starting at `lane`.
template <class V> inline V dot(const float* a, const float* b, std::size_t H, std::size_t hd, std::size_t lane)
{
    V s{};
    for (std::size_t d = 0; d < hd; ++d)
        s += simd::load<V>(a + d * H + lane) * simd::load<V>(b + d * H + lane);
    return s;
}

// The dropout mask of one sequence, (heads, query, key) as the module draws it, as (query, key, head).
void noise_lanes(const float* noise, std::size_t T, std::size_t H, std::vector<float>& out)
{
    out.resize(T * T * H);
    transpose(noise, T * T, H, T * T, out.data(), H);
}

// One sequence's q, k and v as (position, d, head) rows and its dropout mask (when there is one) as (query,
// key, head): what the forward and the backward both start from.
template <class V> struct SequenceLanes {
    std::vector<float> q, k, v, noise;
    void load(const AttentionDims& dims, std::size_t b, const float* qs, const float* ks, const float* vs,
              const float* mask)
    {
        const std::size_t T = dims.tokens, H = dims.heads, hd = dims.head_dim, S = dims.stride();
        const std::size_t n = dims.length(b), row0 = dims.first_row(b);
        for (auto* buf : {&q, &k, &v})
            buf->resize(T * dims.d_out());
        to_lanes<V>(qs + row0 * S, S, n, H, hd, q.data());
        to_lanes<V>(ks + row0 * S, S, n, H, hd, k.data());
        to_lanes<V>(vs + row0 * S, S, n, H, hd, v.data());
        if (mask)
            noise_lanes(mask + b * H * T * T, T, H, noise);
    }
};

// The weights of one query's keys j <= i (count floats) times their dropout mask, in `used`.
const float* after_dropout(const float* weights, const float* mask, std::size_t count, std::vector<float>& used)
{
    for (std::size_t x = 0; x < count; ++x)
        used[x] = weights[x] * mask[x];
    return used.data();
}

// The lanes buffer keeps only the causal triangle, packed: query i's keys j <= i, (i + 1) x heads floats, right
// after query i - 1's, and one sequence's T (T + 1) / 2 x heads floats after the previous one's. The square
// (query, key, head) block it replaced was half unused, and the backward read its rows with a gap after each:
// at 16 heads a third of the backward waited on those loads.
std::size_t triangle(std::size_t i)
{
    return i * (i + 1) / 2;
}

// Query i's row of the triangle asked for from memory ahead of its use, for writing (Write = 1) in the forward,
// a 64-byte line (16 floats) at a time: the forward and the backward ask for the row after next.
template <int Write> void prefetch_row(const float* L, std::size_t i, std::size_t H)
{
    for (std::size_t x = 0; x < (i + 1) * H; x += 16)
        __builtin_prefetch(L + triangle(i) * H + x, Write);
}

template <class V>
void lanes_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* lanes,
                   const float* noise, float* ctx)
{
    constexpr std::size_t width = simd::lanes_of<V>;
    const std::size_t T = dims.tokens, hd = dims.head_dim, H = dims.heads, D = dims.d_out();
    const V divisor = simd::splat<V>(dims.score_divisor());
    thread_local SequenceLanes<V> seq;
    thread_local std::vector<float> cp, used;
    cp.resize(T * D);
    used.resize(T * H);
    for (std::size_t b = 0; b < dims.batch; ++b) {
        const std::size_t n = dims.length(b), row0 = dims.first_row(b);
        seq.load(dims, b, q, k, v, noise);
        const float *qp = seq.q.data(), *kp = seq.k.data(), *vp = seq.v.data(), *nl = seq.noise.data();
        float* L = lanes + b * triangle(T) * H;
        for (std::size_t i = std::min(n, dims.first_query(b)); i < n; ++i) {
            float* row = L + triangle(i) * H; // (key j, head) of query i
            if (i + 2 < n)
                prefetch_row<1>(L, i + 2, H);
            const float* qi = qp + i * D;
            // With a window, the keys before `first` get weight 0 (their row entries are zeroed once, below).
            const std::size_t first = dims.window > 0 && i + 1 > dims.window ? i + 1 - dims.window : 0;
            std::fill(row, row + first * H, 0.0f);
            for (std::size_t lane = 0; lane < H; lane += width) {
                V top = simd::splat<V>(-std::numeric_limits<float>::infinity());
                for (std::size_t j = first; j <= i; ++j) {
                    const V x = dot<V>(qi, kp + j * D, H, hd, lane) / divisor;
                    simd::store(row + j * H + lane, x);
                    top = simd::max(top, x);
                }
                V sum{};
                for (std::size_t j = first; j <= i; ++j) {
                    const V e = simd::exp(simd::load<V>(row + j * H + lane) - top);
                    simd::store(row + j * H + lane, e);
                    sum += e;
                }
                const V inv = 1.0f / sum;
                for (std::size_t j = first; j <= i; ++j)
                    simd::store(row + j * H + lane, simd::load<V>(row + j * H + lane) * inv);
            }
            const float* u = noise ? after_dropout(row, nl + i * T * H, (i + 1) * H, used) : row;
            // context (d, head) of query i = sum over keys j <= i of used weights * values, summed in a register
            for (std::size_t d = 0; d < hd; ++d)
                for (std::size_t lane = 0; lane < H; lane += width) {
                    V c{};
                    for (std::size_t j = 0; j <= i; ++j)
                        c += simd::load<V>(u + j * H + lane) * simd::load<V>(vp + j * D + d * H + lane);
                    simd::store(cp.data() + i * D + d * H + lane, c);
                }
        }
        from_lanes<V>(cp.data(), n, H, hd, ctx + row0 * D, D);
    }
}

template <class V>
void lanes_backward(const AttentionDims& dims, const float* q, const float* k, const float* v, const float* lanes,
                    const float* noise, const float* dctx, float* dq, float* dk, float* dv)
{
    const std::size_t T = dims.tokens, hd = dims.head_dim, H = dims.heads, D = dims.d_out(), S = dims.stride();
    constexpr std::size_t width = simd::lanes_of<V>;
    const V divisor = simd::splat<V>(dims.score_divisor());
    thread_local SequenceLanes<V> seq;
    thread_local std::vector<float> gp, dqp, dkp, dvp, ds, used;
    for (auto* buf : {&gp, &dqp, &dkp, &dvp})
        buf->resize(T * D);
    ds.resize(T * H);
    used.resize(T * H);
    for (std::size_t b = 0; b < dims.batch; ++b) {
        const std::size_t n = dims.length(b), row0 = dims.first_row(b);
        seq.load(dims, b, q, k, v, noise);
        const float *qp = seq.q.data(), *kp = seq.k.data(), *vp = seq.v.data(), *nl = seq.noise.data();
        to_lanes<V>(dctx + row0 * D, D, n, H, hd, gp.data());
        std::fill_n(dkp.begin(), n * D, 0.0f);
        std::fill_n(dvp.begin(), n * D, 0.0f);
        const float* L = lanes + b * triangle(T) * H;
        const std::size_t from = std::min(n, dims.first_query(b));
        std::fill_n(dqp.begin(), from * D, 0.0f); // the skipped queries' dq: their dctx is zero
        for (std::size_t i = from; i < n; ++i) {
            const float* row = L + triangle(i) * H;
            if (i + 2 < n)
                prefetch_row<0>(L, i + 2, H);
            const float* gi = gp.data() + i * D;
            const float* qi = qp + i * D;
            const float* u = noise ? after_dropout(row, nl + i * T * H, (i + 1) * H, used) : row;
            // d(scores) = w (dw - sum_j w dw) / sqrt(head_dim), dw the gradient of the weights before dropout
            for (std::size_t lane = 0; lane < H; lane += width) {
                V weighted{};
                for (std::size_t j = 0; j <= i; ++j) {
                    V dw = dot<V>(gi, vp + j * D, H, hd, lane);
                    if (noise)
                        dw *= simd::load<V>(nl + (i * T + j) * H + lane);
                    simd::store(ds.data() + j * H + lane, dw);
                    weighted += simd::load<V>(row + j * H + lane) * dw;
                }
                for (std::size_t j = 0; j <= i; ++j) {
                    const V w = simd::load<V>(row + j * H + lane);
                    simd::store(ds.data() + j * H + lane,
                                w * (simd::load<V>(ds.data() + j * H + lane) - weighted) / divisor);
                }
            }
            // dq of query i summed in a register; its parts of every key's dk and dv added to theirs
            for (std::size_t d = 0; d < hd; ++d)
                for (std::size_t lane = 0; lane < H; lane += width) {
                    const std::size_t at = d * H + lane;
                    const V qv = simd::load<V>(qi + at), gv = simd::load<V>(gi + at);
                    V dqv{};
                    for (std::size_t j = 0; j <= i; ++j) {
                        const V dsj = simd::load<V>(ds.data() + j * H + lane);
                        dqv += dsj * simd::load<V>(kp + j * D + at);
                        float* dkj = dkp.data() + j * D + at;
                        simd::store(dkj, simd::load<V>(dkj) + dsj * qv);
                        float* dvj = dvp.data() + j * D + at;
                        simd::store(dvj, simd::load<V>(dvj) + simd::load<V>(u + j * H + lane) * gv);
                    }
                    simd::store(dqp.data() + i * D + at, dqv);
                }
        }
        from_lanes<V>(dqp.data(), n, H, hd, dq + row0 * S, S);
        from_lanes<V>(dkp.data(), n, H, hd, dk + row0 * S, S);
        from_lanes<V>(dvp.data(), n, H, hd, dv + row0 * S, S);
    }
}

} // namespace

bool attention_heads_as_lanes(const AttentionDims& dims)
{
    // Whole vectors of heads; with AVX-512 also half ones (8 heads: the per-head layout's products at head_dim 4
    // cost more than an 8-lane vector's).
    return dims.heads > 0 && (dims.heads % kLanes == 0 || (kLanes == 16 && dims.heads % 8 == 0));
}

void attention_lanes_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* lanes,
                             const float* noise, float* ctx)
{
    if (dims.heads % kLanes == 0)
        lanes_forward<simd::Vec>(dims, q, k, v, lanes, noise, ctx);
    else
        lanes_forward<simd::HalfVec>(dims, q, k, v, lanes, noise, ctx);
}

void attention_lanes_weights(const AttentionDims& dims, const float* lanes, float* weights)
{
    const std::size_t T = dims.tokens, H = dims.heads;
    for (std::size_t b = 0; b < dims.batch; ++b)
        for (std::size_t i = 0; i < T; ++i) {
            float* out = weights + b * H * T * T + i * T; // row i of head 0; head h is T * T further
            transpose(lanes + (b * triangle(T) + triangle(i)) * H, H, i + 1, H, out, T * T);
            for (std::size_t h = 0; h < H; ++h)
                std::fill(out + h * T * T + i + 1, out + h * T * T + T, 0.0f);
        }
}

void attention_lanes_backward(const AttentionDims& dims, const float* q, const float* k, const float* v,
                              const float* lanes, const float* noise, const float* dctx, float* dq, float* dk,
                              float* dv)
{
    if (dims.heads % kLanes == 0)
        lanes_backward<simd::Vec>(dims, q, k, v, lanes, noise, dctx, dq, dk, dv);
    else
        lanes_backward<simd::HalfVec>(dims, q, k, v, lanes, noise, dctx, dq, dk, dv);
}

} // namespace attnlab::train
