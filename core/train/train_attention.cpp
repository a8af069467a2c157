#include "train/train_attention.h"

#include "train/fast_exp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace attnlab::train {

namespace {

// keys.shape[-1] ** 0.5 in Python (a double), divided into float scores as a float.
float score_divisor(std::size_t head_dim)
{
    return static_cast<float>(std::sqrt(static_cast<double>(head_dim)));
}

// Every row loop below runs over all `tokens` key positions, not only the causal j <= i: the weights are 0
// past the diagonal, so the extra terms add nothing, and loops of one fixed length vectorise without the
// remainders that rows of 1, 2, 3 ... positions would cost.
// One head of one sequence with keys and values transposed to (head_dim x tokens): every inner loop then
// runs over the key position j, contiguous and as long as the causal row, which the compiler vectorises
// whatever head_dim is (1 for 32 heads of 32).
// The transposed rows are padded to P, a multiple of kChunk, with zeros that are never overwritten.
struct HeadView {
    std::size_t T, hd, S, base, P;                               // S: the row stride of q, k and v
    void gather(const float* src, std::vector<float>& dst) const // (T x S) strided -> (hd x P)
    {
        for (std::size_t j = 0; j < T; ++j)
            for (std::size_t d = 0; d < hd; ++d)
                dst[d * P + j] = src[base + j * S + d];
    }
    void scatter(const std::vector<float>& src, float* dst) const
    {
        for (std::size_t j = 0; j < T; ++j)
            for (std::size_t d = 0; d < hd; ++d)
                dst[base + j * S + d] = src[d * P + j];
    }
};

constexpr std::size_t kChunk = 16;

std::size_t padded(std::size_t T)
{
    return (T + kChunk - 1) / kChunk * kChunk;
}

// out[j] = sum_d coef[d] rows[d * P + j] for j < T, kChunk positions at a time summed in registers across
// d (a row accumulated in memory waits on its own stores at every d).
void combine(const float* coef, std::size_t hd, const float* rows, std::size_t P, std::size_t T, float* out)
{
    for (std::size_t j0 = 0; j0 < T; j0 += kChunk) {
        float acc[kChunk] = {};
        for (std::size_t d = 0; d < hd; ++d) {
            const float c = coef[d];
            const float* r = rows + d * P + j0;
            for (std::size_t l = 0; l < kChunk; ++l)
                acc[l] += c * r[l];
        }
        std::copy_n(acc, std::min(kChunk, T - j0), out + j0);
    }
}

// out[d] = sum_{j < len} coef[j] rows[j * S + d] for d < hd: eight columns at a time summed in a register
// over the key positions (no horizontal sum, no store per position); the last hd % 8 columns as dot
// products over the transposed rows (hd x P).
void weighted_rows(const float* coef, std::size_t len, const float* rows, std::size_t S, const float* transposed,
                   std::size_t P, std::size_t T, std::size_t hd, float* out);

// Sum of a[j] * b[j] in eight interleaved partial sums, which the compiler keeps in one vector register
// (a single running sum cannot be vectorised without reordering it).
float dot(const float* a, const float* b, std::size_t n)
{
    float lane[8] = {};
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (std::size_t l = 0; l < 8; ++l)
            lane[l] += a[j + l] * b[j + l];
    float s = ((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7]));
    for (; j < n; ++j)
        s += a[j] * b[j];
    return s;
}

float largest(const float* a, std::size_t n)
{
    float lane[8];
    std::fill_n(lane, 8, -std::numeric_limits<float>::infinity());
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (std::size_t l = 0; l < 8; ++l)
            lane[l] = lane[l] < a[j + l] ? a[j + l] : lane[l];
    float m = *std::max_element(lane, lane + 8);
    for (; j < n; ++j)
        m = std::max(m, a[j]);
    return m;
}

float total(const float* a, std::size_t n)
{
    float lane[8] = {};
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (std::size_t l = 0; l < 8; ++l)
            lane[l] += a[j + l];
    float s = ((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7]));
    for (; j < n; ++j)
        s += a[j];
    return s;
}

void weighted_rows(const float* coef, std::size_t len, const float* rows, std::size_t S, const float* transposed,
                   std::size_t P, std::size_t T, std::size_t hd, float* out)
{
    std::size_t d0 = 0;
    for (; d0 + 8 <= hd; d0 += 8) {
        float acc[8] = {};
        for (std::size_t j = 0; j < len; ++j) {
            const float c = coef[j];
            const float* r = rows + j * S + d0;
            for (std::size_t l = 0; l < 8; ++l)
                acc[l] += c * r[l];
        }
        std::copy_n(acc, 8, out + d0);
    }
    for (std::size_t d = d0; d < hd; ++d)
        out[d] = dot(coef, transposed + d * P, T);
}

} // namespace

void attention_forward(const AttentionDims& dims, const float* q, const float* k, const float* v, float* weights,
                       const float* noise, float* ctx)
{
    const std::size_t T = dims.tokens, hd = dims.head_dim, D = dims.d_out(), S = dims.stride();
    const float divisor = score_divisor(hd);
    const std::size_t P = padded(T);
    std::vector<float> kt(hd * P, 0.0f), vt(hd * P, 0.0f), kept(T);
    for (std::size_t b = 0; b < dims.batch; ++b)
        for (std::size_t h = 0; h < dims.heads; ++h) {
            const HeadView view{T, hd, S, b * T * S + h * hd, P};
            const std::size_t out = b * T * D + h * hd; // this head's columns of ctx
            view.gather(k, kt);
            view.gather(v, vt);
            float* w = weights + (b * dims.heads + h) * T * T;
            const float* n = noise ? noise + (b * dims.heads + h) * T * T : nullptr;
            for (std::size_t i = 0; i < T; ++i) {
                float* wi = w + i * T;
                const float* qi = q + view.base + i * S;
                const std::size_t len = i + 1;
                combine(qi, hd, kt.data(), P, T, wi);
                for (std::size_t j = 0; j < T; ++j)
                    wi[j] /= divisor;
                const float top = largest(wi, len);
                for (std::size_t j = 0; j < len; ++j)
                    wi[j] = fast_exp(wi[j] - top);
                std::fill(wi + len, wi + T, 0.0f); // the mask: exp(-inf)
                const float sum = total(wi, len);
                for (std::size_t j = 0; j < len; ++j)
                    wi[j] /= sum;
                const float* used = wi;
                if (n) {
                    for (std::size_t j = 0; j < T; ++j)
                        kept[j] = wi[j] * n[i * T + j];
                    used = kept.data();
                }
                float* ci = ctx + out + i * D;
                weighted_rows(used, i + 1, v + view.base, S, vt.data(), P, T, hd, ci); // ctx_i = sum_j w_ij v_j
            }
        }
}

void attention_backward(const AttentionDims& dims, const float* q, const float* k, const float* v, const float* weights,
                        const float* noise, const float* dctx, float* dq, float* dk, float* dv, float* row)
{
    const std::size_t T = dims.tokens, hd = dims.head_dim, D = dims.d_out(), S = dims.stride();
    const float divisor = score_divisor(hd);
    const std::size_t P = padded(T);
    std::vector<float> kt(hd * P, 0.0f), vt(hd * P, 0.0f), dkt(hd * P), dvt(hd * P), used(T), ds(T);
    for (std::size_t b = 0; b < dims.batch; ++b)
        for (std::size_t h = 0; h < dims.heads; ++h) {
            const HeadView view{T, hd, S, b * T * S + h * hd, P};
            const std::size_t out = b * T * D + h * hd; // this head's columns of ctx
            view.gather(k, kt);
            view.gather(v, vt);
            std::fill(dkt.begin(), dkt.end(), 0.0f);
            std::fill(dvt.begin(), dvt.end(), 0.0f);
            const float* w = weights + (b * dims.heads + h) * T * T;
            const float* n = noise ? noise + (b * dims.heads + h) * T * T : nullptr;
            for (std::size_t i = 0; i < T; ++i) {
                const float* wi = w + i * T;
                const float* gi = dctx + out + i * D;
                const float* qi = q + view.base + i * S;
                for (std::size_t j = 0; j < T; ++j)
                    used[j] = n ? wi[j] * n[i * T + j] : wi[j];
                combine(gi, hd, vt.data(), P, T, row);
                for (std::size_t d = 0; d < hd; ++d) {
                    const float g = gi[d];
                    float* dvd = dvt.data() + d * P;
                    for (std::size_t j = 0; j < T; ++j)
                        dvd[j] += g * used[j];
                }
                if (n)
                    for (std::size_t j = 0; j < T; ++j)
                        row[j] *= n[i * T + j];
                const float weighted = dot(wi, row, T);
                for (std::size_t j = 0; j < T; ++j)
                    ds[j] = wi[j] * (row[j] - weighted) / divisor;
                float* dqi = dq + view.base + i * S;
                for (std::size_t d = 0; d < hd; ++d) {
                    float* dkd = dkt.data() + d * P;
                    const float qd = qi[d];
                    for (std::size_t j = 0; j < T; ++j)
                        dkd[j] += qd * ds[j];
                }
                weighted_rows(ds.data(), i + 1, k + view.base, S, kt.data(), P, T, hd, dqi); // dq_i = sum_j ds_ij k_j
            }
            view.scatter(dkt, dk);
            view.scatter(dvt, dv);
        }
}

} // namespace attnlab::train
