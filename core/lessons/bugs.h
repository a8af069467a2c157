#pragma once
// The injected-bug lesson: a catalogue of one-line mistakes in MultiHeadAttention's forward (or its
// call), and a traced forward that runs the mistaken code with PyTorch's semantics on the same weights
// and input as the book's code. The stages keep their canonical names and hold what the mistaken code
// really has at that point -- other shapes included -- and the run stops where PyTorch would raise,
// with PyTorch's message. Compare the two traces with first_divergence() (divergence.h).
#include "call/config.h"
#include "forward/trace.h"
#include "io/weights.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class Bug {
    None,                  // the book's code
    SkipHeadTranspose,     // no transpose(1, 2) on queries, keys, values
    ViewHeadsFirst,        // view(b, num_heads, num_tokens, head_dim) and no transpose
    SkipMask,              // no masked_fill_
    MaskDiagonal0,         // triu(..., diagonal=0): the diagonal is masked too
    ScaleByDOut,           // softmax(scores / d_out**0.5) instead of head_dim**0.5
    SoftmaxWrongDim,       // softmax over dim=-2
    SkipContiguous,        // view the transposed context without contiguous()
    MergeWithoutTranspose, // view the head contexts straight to (b, num_tokens, d_out)
    SkipOutProj,           // return the merged context without out_proj
    SwapDInDOut,           // the call's d_in and d_out slots swapped; the input keeps width d_in
};

struct BugInfo {
    Bug bug = Bug::None;
    std::string name;        // "skip-head-transpose", as the CLI spells it
    std::string title;       // "No transpose(1, 2) after the head split"
    std::string book_line;   // the line as the book writes it
    std::string buggy_line;  // the same line with the mistake
    std::string explanation; // two or three sentences: what the change does and where it shows
    std::string stage;       // the canonical stage the changed line produces ("config" for the call)
};

// Every bug except Bug::None, in teaching order.
const std::vector<BugInfo>& bug_catalogue();
const BugInfo& bug_info(Bug bug); // Bug::None: name "none", empty diff
// Looks a name up ("none" included); throws Error listing every valid name when it is unknown.
Bug bug_from_name(std::string_view name);
std::string bug_names(); // "skip-head-transpose, view-heads-first, ..."

// The book's MultiHeadAttention forward (module_source) with the bug's lines changed; the line count
// stays the same, so Stage::code_line indexes both the book's source and this one.
std::vector<std::string> buggy_source(Bug bug);

// Where a run stopped: the stage PyTorch would raise at ("config" when the constructor refuses),
// and PyTorch's message.
struct StageFailure {
    std::string stage;
    std::string message;
};

struct BugTrace {
    Bug bug = Bug::None;
    Config config;                       // the module as constructed (swap-d_in-d_out: slots swapped)
    std::vector<Stage> stages;           // canonical stages computed before any failure, in order;
                                         // expected_shape and axes are the book's, tensor is what was computed
    std::optional<StageFailure> failure; // set when the run stopped
    const Stage* find(std::string_view name) const;
};

// Runs MultiHeadAttention (eval mode, no dropout) with `bug` injected on the book's config, weights and
// input x (b, num_tokens, d_in), through the generic ops of tensor_ops.h. Bug::None reproduces
// trace_forward. Throws Error when the book's own config or input is refused (nothing to compare to).
BugTrace run_with_bug(const Config& book_config, const StateDict& weights, const Tensor& x, Bug bug);

// One sentence saying why `bug` changes nothing for these settings, e.g. "with one head and one token
// the transpose swaps two axes of size 1, so nothing changes." Empty when no known reason applies.
std::string why_harmless(Bug bug, const Config& book_config, std::int64_t batch, std::int64_t num_tokens);

} // namespace attnlab
