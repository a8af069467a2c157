// Rows for the trade-off explorer, computed from the shapes alone (nothing is allocated or run).
#include "designs/tradeoffs.h"

#include "tensor/error.h"

#include <string>

namespace attnlab {

namespace {

void require_positive(const char* what, std::int64_t value)
{
    if (value < 1)
        throw Error(std::string(what) + " = " + std::to_string(value) + " must be at least 1.");
}

std::int64_t mul(std::int64_t a, std::int64_t b, std::int64_t d_in, std::int64_t d_out)
{
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        throw Error("the parameter count for d_in = " + std::to_string(d_in) + " and d_out = " + std::to_string(d_out) +
                    " exceeds a 64-bit integer; use smaller widths.");
    return out;
}

std::int64_t add(std::int64_t a, std::int64_t b, std::int64_t d_in, std::int64_t d_out)
{
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out))
        throw Error("the parameter count for d_in = " + std::to_string(d_in) + " and d_out = " + std::to_string(d_out) +
                    " exceeds a 64-bit integer; use smaller widths.");
    return out;
}

} // namespace

std::int64_t integrated_parameter_count(std::int64_t d_in, std::int64_t d_out, bool qkv_bias)
{
    require_positive("d_out", d_out); // first: d_in defaults to d_out, so its message would mislead
    require_positive("d_in", d_in);
    const std::int64_t qkv = mul(3, add(mul(d_out, d_in, d_in, d_out), qkv_bias ? d_out : 0, d_in, d_out), d_in, d_out);
    const std::int64_t out_proj = add(mul(d_out, d_out, d_in, d_out), d_out, d_in, d_out);
    return add(qkv, out_proj, d_in, d_out);
}

HeadTradeoffs head_tradeoffs(const HeadTradeoffQuery& q)
{
    HeadTradeoffs out;
    out.d_out = q.d_out;
    out.d_in = q.d_in.value_or(q.d_out);
    out.num_tokens = q.num_tokens;
    out.batch = q.batch;
    out.qkv_bias = q.qkv_bias;
    require_positive("tokens", q.num_tokens);
    require_positive("batch", q.batch);
    const std::int64_t parameters = integrated_parameter_count(out.d_in, out.d_out, q.qkv_bias);

    Config c;
    c.kind = ModuleKind::MultiHeadAttention;
    c.d_in = out.d_in;
    c.d_out = out.d_out;
    c.qkv_bias = q.qkv_bias;
    const InputShape input{q.batch, q.num_tokens};
    const double tokens = static_cast<double>(q.num_tokens);
    for (std::int64_t heads : divisors(q.d_out)) {
        c.num_heads = heads;
        const double score_bytes = 4.0 * static_cast<double>(q.batch) * static_cast<double>(heads) * tokens * tokens;
        out.rows.push_back({heads, q.d_out / heads, parameters, forward_cost(c, input), score_bytes});
    }
    return out;
}

std::vector<WidthOption> width_options(const WidthQuery& q)
{
    require_positive("num_heads", q.num_heads);
    require_positive("the smallest d_out", q.d_out_min);
    if (q.d_in)
        require_positive("d_in", *q.d_in);
    std::int64_t hi = 0;
    if (q.d_out_max)
        hi = *q.d_out_max;
    else if (__builtin_mul_overflow(q.num_heads, 64, &hi))
        hi = INT64_MAX;
    if (hi < q.d_out_min)
        throw Error("the d_out range [" + std::to_string(q.d_out_min) + ", " + std::to_string(hi) +
                    "] is empty; give a largest d_out of at least " + std::to_string(q.d_out_min) + ".");
    // Multiples of num_heads in [lo, hi], counted without stepping through them.
    const std::int64_t first = q.d_out_min / q.num_heads + (q.d_out_min % q.num_heads != 0 ? 1 : 0);
    const std::int64_t last = hi / q.num_heads;
    if (last - first + 1 > kMaxWidthOptions)
        throw Error("the range [" + std::to_string(q.d_out_min) + ", " + std::to_string(hi) + "] holds " +
                    std::to_string(last - first + 1) + " multiples of num_heads = " + std::to_string(q.num_heads) +
                    ", more than the " + std::to_string(kMaxWidthOptions) + " rows listed; narrow the range.");
    std::vector<WidthOption> out;
    for (std::int64_t k = first; k <= last; ++k) {
        const std::int64_t d_out = k * q.num_heads;
        out.push_back({d_out, k, integrated_parameter_count(q.d_in.value_or(d_out), d_out, q.qkv_bias)});
    }
    return out;
}

} // namespace attnlab
