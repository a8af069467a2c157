// The weight-transfer exercise run with PyTorch's semantics: the assignments share storage with the
// source (Parameter(weight.T) is a transposed view), and a wrongly shaped matrix fails at the matmul
// with PyTorch's message.
#include "lessons/transfer.h"

#include "text/utf8.h"
#include "lessons/transfer_detail.h"

#include "tensor/error.h"
#include "forward/experiment.h"
#include "tensor/tensor_ops.h"
#include "forward/trace.h"

#include <cmath>
#include <cstdint>
#include <sstream>

namespace attnlab {

namespace {

const char* kNames[] = {"W_query", "W_key", "W_value"};

std::string number(double v)
{
    std::ostringstream out;
    out.precision(3);
    out << v;
    return out.str();
}

// softmax(q k^T / sqrt(d_k)) v, the forward both SelfAttention versions share after the projections.
Tensor attend(const Tensor& q, const Tensor& k, const Tensor& v)
{
    const Tensor scores = ops::matmul(q, k.transpose(0, 1));
    const Tensor weights = ops::softmax(ops::divide(scores, static_cast<float>(std::sqrt(double(k.size(-1))))), -1);
    return ops::matmul(weights, v);
}

const Tensor& get(const StateDict& w, const std::string& name)
{
    auto it = w.find(name);
    if (it == w.end())
        throw Error("the weights have no tensor '" + name + "', which the transfer needs.");
    return it->second;
}

// Largest |a - b| and whether every entry is within rtol 1e-4 / atol 1e-5 of the source (b).
std::pair<double, bool> compare(const Tensor& a, const Tensor& b)
{
    const std::vector<float> x = a.to_vector(), y = b.to_vector();
    double worst = 0.0;
    bool close = true;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double d = std::fabs(double(x[i]) - y[i]);
        worst = std::max(worst, d);
        close = close && d <= 1e-5 + 1e-4 * std::fabs(double(y[i]));
    }
    return {worst, close};
}

// Why the outputs differ, one clause per faulty line; `square` says whether a missing .T can run at all.
std::string causes(const TransferSpec& spec, bool square)
{
    std::string out;
    for (TransferRole role : kTransferRoles) {
        const TransferLine& line = spec.line(role);
        const std::string name = kNames[static_cast<int>(role)];
        std::string clause;
        if (!line.written)
            clause = name + " was never assigned, so the target still uses its own random values";
        else if (!line.transpose && square)
            clause = name + " was copied without .T; the matrix is square, so nothing complains, but it applies "
                            "the transpose of what the source applied";
        if (!clause.empty())
            out += (out.empty() ? "" : "; ") + clause;
    }
    return out;
}

} // namespace

namespace detail {

TransferResult finish_transfer(TransferResult r, const TransferSpec& spec, bool square, const std::string& match_note)
{
    const auto [worst, close] = compare(r.target_output, r.source_output);
    r.max_abs_diff = worst;
    r.status = close ? TransferStatus::Match : TransferStatus::Mismatch;
    const std::string why = causes(spec, square);
    r.message = close ? "the outputs match (largest difference " + number(worst) + ")" +
                            (why.empty() ? ": " + match_note : ", although " + why) + "."
                      : "the outputs differ by up to " + number(worst) + (why.empty() ? "" : ": " + why) + ".";
    return r;
}

} // namespace detail

std::string role_name(TransferRole role)
{
    return role == TransferRole::Query ? "query" : role == TransferRole::Key ? "key" : "value";
}

std::string transfer_status_name(TransferStatus status)
{
    switch (status) {
    case TransferStatus::Match: return "match";
    case TransferStatus::Mismatch: return "mismatch";
    case TransferStatus::Error: return "error";
    }
    return "error";
}

TransferRole role_from_name(std::string_view name)
{
    for (TransferRole role : kTransferRoles)
        if (name == role_name(role))
            return role;
    throw Error("'" + printable(name, 60) + "' is not one of the three weights; use query, key or value.");
}

TransferResult run_transfer(const TransferSpec& spec, const StateDict& source, const StateDict& target_init,
                            const Tensor& x)
{
    TransferResult r;
    r.target = target_init;
    for (TransferRole role : kTransferRoles) {
        const std::string name = kNames[static_cast<int>(role)];
        const TransferLine& line = spec.line(role);
        if (line.written)
            r.target[name] =
                line.transpose ? get(source, name + ".weight").transpose(0, 1) : get(source, name + ".weight");
    }
    Tensor proj[3];
    for (int i = 0; i < 3; ++i)
        proj[i] = ops::linear(x, get(source, std::string(kNames[i]) + ".weight"), nullptr);
    r.source_output = attend(proj[0], proj[1], proj[2]);
    for (int i = 0; i < 3; ++i) {
        try {
            proj[i] = ops::matmul(x, get(r.target, kNames[i]));
        } catch (const Error& e) {
            const Shape& held = get(r.target, kNames[i]).shape();
            r.status = TransferStatus::Error;
            r.pytorch_error = e.what();
            r.message = "x @ " + std::string(kNames[i]) + " fails with '" + r.pytorch_error + "': " + kNames[i] +
                        " holds " + shape_to_string(held) +
                        ", nn.Linear's (d_out, d_in) layout copied without .T, "
                        "but SelfAttention_v1 computes x @ W and needs (d_in, d_out) = " +
                        shape_to_string({spec.d_in, spec.d_out}) + ".";
            return r;
        }
    }
    r.target_output = attend(proj[0], proj[1], proj[2]);
    return detail::finish_transfer(
        std::move(r), spec, spec.d_in == spec.d_out,
        "each nn.Linear weight (d_out, d_in) was transposed into the (d_in, d_out) that x @ W needs");
}

TransferResult run_transfer(const TransferSpec& spec, std::uint64_t seed, std::int64_t num_tokens)
{
    Config v2{ModuleKind::SelfAttentionV2, spec.d_in, spec.d_out};
    Config v1{ModuleKind::SelfAttentionV1, spec.d_in, spec.d_out};
    // Two modules' weights and activations are alive at once; refuse before allocating, as prepare() does.
    const std::uint64_t one = estimate_memory_bytes(v2, {1, num_tokens});
    const std::uint64_t budget = ExperimentSpec{}.memory_budget;
    if (one > budget / 2)
        throw Error("this transfer needs about " + format_bytes(one > UINT64_MAX / 2 ? UINT64_MAX : 2 * one) +
                    " (two modules' weights and activations), more than the " + format_bytes(budget) +
                    " memory budget; use fewer tokens or a smaller d_in and d_out.");
    return run_transfer(spec, init_weights(v2, seed), init_weights(v1, seed + 1),
                        random_input(v2, 1, num_tokens, seed + 2));
}

} // namespace attnlab
