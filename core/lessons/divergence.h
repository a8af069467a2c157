#pragma once
// The first stage where a buggy forward parts from the book's: the habit of inspecting the forward
// pass in order and focusing on the first stage that differs. Stages are compared in the order the book's
// forward computes them (keys before queries); a stage differs by shape, by values (rtol 1e-4, atol 1e-5, non-finite
// entries exact) or because it could not be computed (PyTorch's error). "config" comes before every stage: a module
// that cannot be constructed diverges there.
#include "lessons/bugs.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

inline constexpr double kDivergenceRtol = 1e-4;
inline constexpr double kDivergenceAtol = 1e-5;

// "x", "keys", "queries", "values", "keys.view", "values.view", ..., "context.merged", "output": the
// stage table's rows MultiHeadAttention records in eval mode, in the order its forward computes them.
const std::vector<std::string>& divergence_stage_order();

// A stage's verdict. NotReached: after an error, nothing later was computed.
enum class DivergenceStatus { Same, Shape, Values, Error, NotReached };
std::string_view status_name(DivergenceStatus status); // "same", "shape", "values", "error", "not-reached"

struct FirstDivergence {
    std::string stage;                               // "config" or a canonical stage name
    DivergenceStatus kind = DivergenceStatus::Error; // Shape, Values or Error
    Shape expected_shape;                            // the book's shape at that stage (empty for "config")
    Shape observed_shape;                            // what the buggy code produced (empty for "error")
    std::string message;                             // shape/values: one sentence; error: PyTorch's message
};

// One row of the side-by-side view: every stage of the order with its verdict.
struct StageComparison {
    std::string stage;
    DivergenceStatus status = DivergenceStatus::Same;
    Shape expected_shape; // empty for "config"
    Shape observed_shape; // empty when not computed
    std::string message;  // empty for "same" and "not-reached"
};

// Every stage in divergence_stage_order(), preceded by a "config" row when the buggy module could not
// be constructed. Throws Error when `expected` (the book's run) itself failed.
std::vector<StageComparison> compare_stages(const BugTrace& expected, const BugTrace& observed);

// The first row of compare_stages that is not "same"; nothing when they all agree.
std::optional<FirstDivergence> first_divergence(const BugTrace& expected, const BugTrace& observed);

// Both runs of one lesson and what they say.
struct Diagnosis {
    BugTrace correct;
    BugTrace buggy;
    std::vector<StageComparison> stages;
    std::optional<FirstDivergence> first;
    std::string why_none; // one sentence when `first` is empty, else empty
};

// Runs the book's forward and the buggy one on the same weights and x (b, num_tokens, d_in) and
// compares them. Throws Error when the book's own config or input is refused.
Diagnosis diagnose(const Config& config, const StateDict& weights, const Tensor& x, Bug bug);

} // namespace attnlab
