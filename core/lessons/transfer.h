#pragma once
// The weight-transfer lesson. The book copies a SelfAttention_v2 (nn.Linear weights, stored (d_out, d_in)
// and applied as x @ weight.T) into a SelfAttention_v1 (plain parameters (d_in, d_out), applied as x @ W)
// with three assignments, each `sa_v1.W_x = torch.nn.Parameter(sa_v2.W_x.weight.T)`. A line left out
// keeps the target's own random values; a line without .T holds the matrix the wrong way round, which
// only fails loudly when d_in != d_out. Both modules then run on the same input and are compared.
// The GPT-2 variant: a checkpoint's fused c_attn (d, 3d), Conv1D layout (in, out), is split into three
// and each part transposed into nn.Linear's (out, in).
#include "tensor/tensor.h"
#include "io/weights.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class TransferRole { Query, Key, Value };
inline constexpr std::array<TransferRole, 3> kTransferRoles = {TransferRole::Query, TransferRole::Key,
                                                               TransferRole::Value};
std::string role_name(TransferRole role);           // "query", "key", "value"
TransferRole role_from_name(std::string_view name); // throws Error naming the valid ones

struct TransferLine {
    bool written = true;   // false: the assignment is missing
    bool transpose = true; // false: written without .T
    bool operator==(const TransferLine&) const = default;
};

struct TransferSpec {
    std::int64_t d_in = 3;
    std::int64_t d_out = 2;
    std::array<TransferLine, 3> lines; // query, key, value
    TransferLine& line(TransferRole role) { return lines[static_cast<std::size_t>(role)]; }
    const TransferLine& line(TransferRole role) const { return lines[static_cast<std::size_t>(role)]; }
    bool operator==(const TransferSpec&) const = default;
};

// The three assignments as the lines say, e.g. "sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)",
// .T only where transposed and a missing one as a comment ending "<- missing", so the GUI and the CLI show
// the student's version beside the book's. TransferSpec{} gives the book's lines.
std::vector<std::string> transfer_code(const TransferSpec& spec);
// The checkpoint variant's lines for the same choices: the split of c_attn, then one assignment per part,
// e.g. "mha.W_key.weight = torch.nn.Parameter(k_w.T)".
std::vector<std::string> gpt2_transfer_code(const TransferSpec& spec);

// Error: a matrix held the wrong way round made the target's forward fail, as PyTorch would.
enum class TransferStatus { Match, Mismatch, Error };
inline constexpr std::array<TransferStatus, 3> kTransferStatuses = {TransferStatus::Match, TransferStatus::Mismatch,
                                                                    TransferStatus::Error};
std::string transfer_status_name(TransferStatus status); // "match", "mismatch", "error"

struct TransferResult {
    TransferStatus status = TransferStatus::Error;
    std::optional<double> max_abs_diff; // between the outputs, when both ran
    std::string message;                // one or two sentences: what happened and why
    std::string pytorch_error;          // PyTorch's message when status is Error
    StateDict target;                   // the target's parameters after the assignments
    Tensor source_output;               // SelfAttention_v2's context (num_tokens, d_out)
    Tensor target_output;               // SelfAttention_v1's; undefined on error
};

// Runs the exercise on given modules: `source` holds SelfAttention_v2's W_query.weight, W_key.weight,
// W_value.weight (d_out, d_in); `target_init` SelfAttention_v1's W_query, W_key, W_value (d_in, d_out)
// before the copy; x is (num_tokens, d_in). Outputs match within rtol 1e-4, atol 1e-5.
TransferResult run_transfer(const TransferSpec& spec, const StateDict& source, const StateDict& target_init,
                            const Tensor& x);
// The same with seeded modules (init_weights) and a seeded input (random_input).
TransferResult run_transfer(const TransferSpec& spec, std::uint64_t seed, std::int64_t num_tokens = 6);

// GPT-2's fused attention weight split for nn.Linear: c_attn (d, 3d) -> three (d, d) column blocks in
// query, key, value order (Conv1D's (in, out)), and each transposed to (out, in).
// gpt2_transfer_code(TransferSpec{}) is the Python that does it.
struct Gpt2Split {
    std::array<Tensor, 3> parts;   // as split: (d, d) each, (in, out)
    std::array<Tensor, 3> weights; // transposed copies: what W_query.weight etc. must hold
};
Gpt2Split split_c_attn(const Tensor& c_attn_weight); // throws Error unless the shape is (d, 3d)

// The checkpoint variant of the exercise: a seeded c_attn (d, 3d) applied as GPT-2 does (x @ part)
// against a SelfAttention_v2(d, d) loaded from the split, with `spec.lines` saying which parts were
// assigned and transposed (spec.d_in and d_out are ignored: both are d). Square parts never fail
// without .T -- they silently compute something else.
TransferResult run_gpt2_transfer(const TransferSpec& spec, std::int64_t d, std::uint64_t seed,
                                 std::int64_t num_tokens = 6);

} // namespace attnlab
