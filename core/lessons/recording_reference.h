#pragma once
// The book's canonical stages for a recording (port of tests/reference/book_stages.py): which of the
// book's five modules the recorded parameters fit, and what each stage holds when the book's forward
// (trace_forward) runs on those weights and the recorded input.
#include "call/config.h"
#include "forward/trace.h"
#include "lessons/recording.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// A tensor's values in logical (row-major) order with its shape: what matching compares.
struct Values {
    Shape shape;
    std::vector<float> data;
    static Values of(const Tensor& tensor) { return {tensor.shape(), tensor.to_vector()}; }
};

struct ReferenceStage {
    std::string name;               // canonical ("queries.view", "heads.1.attn_weights", "output")
    Shape shape;                    // the book's shape, also when it cannot compute the stage
    std::optional<Values> value;    // empty when the book cannot compute it (output without out_proj)
    std::vector<Values> forms;      // value first, then the other accepted forms (scores pre-scaled)
    std::vector<std::string> feeds; // the stages computed directly from this one
    int code_line = -1;             // index into module_source(kind)
};

struct BookReference {
    ModuleKind kind = ModuleKind::MultiHeadAttention;
    Config config;
    StateDict weights; // the recorded parameters (MultiHeadAttention without out_proj: zeros there)
    bool has_out_proj = true;
    Tensor x;
    std::string problem;                // non-empty: the weights or input fit no module; the divergence is "config"
    std::vector<ReferenceStage> stages; // in the book's order
    std::vector<std::vector<std::string>> chains; // runs derived by layout operations only
    std::map<std::string, Values> extras;         // right values that are no stage: keys transposed, x

    const ReferenceStage* find(const std::string& name) const;
};

// Thrown when the recording is a MultiHeadAttention that stores neither num_heads nor head_dim and
// none was given: the weights cannot say it (a reshape has no parameters), so the caller must ask.
struct NumHeadsNeeded : Error {
    std::int64_t d_out;
    NumHeadsNeeded(const std::string& what, std::int64_t d) : Error(what), d_out(d) {}
};

// The book's module from the parameter names (book_stages.py's which_module); nothing when they fit none.
std::optional<ModuleKind> recorded_module_kind(const Recording& rec);

// Throws Error (one sentence) when the parameters fit none of the five modules; NumHeadsNeeded as above.
// `num_heads`, when given (> 0), overrides the recorded attributes.
BookReference book_reference(const Recording& rec, std::int64_t num_heads = 0);

} // namespace attnlab
