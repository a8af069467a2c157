#pragma once
// One number of one stage, followed: every stage where the same number lives (the same storage element
// seen through view and transpose, or its copy after contiguous() or torch.cat), and what it was
// computed from (a query row and a key row for a score, a masked row for a weight, ...). Read from the
// trace's own tensors -- their strides and storage -- so what it says is what the engine did.
#include "forward/trace.h"
#include "io/weights.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

using Index = std::vector<std::int64_t>;

enum class Placement {
    Itself,      // the element asked about
    SameStorage, // the same float in memory: a view or transpose of the same storage
    Copy,        // an equal float in another storage: contiguous() or torch.cat copied it
};

struct ElementPlace {
    std::string stage;
    Index index;
    // Where the float sits in the stage's storage: tensor offset + Σ index × stride.
    std::int64_t storage_offset = 0;
    std::int64_t tensor_offset = 0; // the stage's own start in its storage
    Index strides;                  // the stage's strides, for showing the sum
    Placement placement = Placement::Itself;
};

// How an element comes from its operands.
enum class Combine {
    Input,      // x: given
    SameNumber, // a layout step (view, transpose, contiguous, cat): operand 0's one element
    Linear,     // Σ_k operand0[k] × operand1[k] (+ operand2, the bias): a projection
    Dot,        // scale × Σ_k operand0[k] × operand1[k]: a score or a context value
    Mask,       // operand 0's element, or -inf where the causal mask hides it
    Softmax,    // exp(scale × row[position] − max) / Σ exp(scale × row − max) over operand 0's row
    Dropout,    // operand 0's element, 0 when dropped, × 1 / (1 − p) when kept (the draw is random)
};

// What an element reads: a stage or a parameter ("W_query.weight"), and which of its elements, in order.
struct Operand {
    std::string tensor;
    bool parameter = false;
    std::vector<Index> indices;
};

struct ElementSources {
    Combine combine = Combine::Input;
    std::vector<Operand> operands;
    double scale = 1.0;        // Dot, Softmax; Dropout: 1 / (1 − p)
    std::int64_t position = 0; // Softmax: which entry of the row
    bool masked_out = false;   // Mask: above the diagonal
    std::string explanation;   // one sentence, in the book's names
};

struct ElementFollow {
    std::string stage;
    Index index;
    float value = 0;
    std::vector<ElementPlace> places; // the asked element first, then the other stages in forward order
    ElementSources sources;
    // A view, transpose, copy or torch.cat only moves the number: where it was computed (the stage and
    // the index there, e.g. queries (0, 2, 1) for queries.heads (0, 1, 2, 1)) and how. computed_at is
    // empty when the stage computes it itself (sources then says how).
    std::string computed_at;
    Index computed_index;
    ElementSources computation;
};

// Every operand the followed number reads: its own sources' and, for a layout stage, the computation's.
std::vector<Operand> followed_operands(const ElementFollow& followed);

// Throws Error (one sentence) for a stage the trace does not have or an index outside its shape.
ElementFollow follow_element(const Trace& trace, std::string_view stage, const Index& index);

// The element's value computed again from its sources alone (weights: the module's parameters); for a
// layout stage, from the computation's operands where the number was computed.
// Dropout cannot be redrawn: a kept element is recomputed from the stage value's being non-zero.
float recompute_element(const ElementFollow& followed, const Trace& trace, const StateDict& weights);

// One element an operand reads: a parameter from `weights`, else a stage of the trace.
float operand_value(const Operand& op, const Index& index, const Trace& trace, const StateDict& weights);

// "(0, 2, 1)"
std::string index_text(const Index& index);
// The storage offset as the sum it is: "9 = 0×12 + 4×2 + 1×1" (the tensor's own offset first when not 0).
std::string offset_text(const ElementPlace& place);

} // namespace attnlab
