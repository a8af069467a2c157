#pragma once
// Where the parameters live in the two multi-head designs, for one MultiHeadAttention call: the
// integrated module (one wide projection per role, split into heads by view), the wrapper built from
// the same call (num_heads complete heads of width d_out: the output is num_heads*d_out wide -- the
// book's trap) and the wrapper with matched width (d_out/num_heads per head). The comparison view draws
// these blocks to scale and the CLI's `layout` prints them; names, shapes and counts are PyTorch's
// (tests/data/layout_cases.json holds what torch itself reports).
#include "call/config.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// Grouped: GroupedQueryAttention from the same call, compared only when the call is one (beside the
// integrated column, which is then MultiHeadAttention with num_kv_groups = num_heads).
enum class Design { Integrated, WrapperSameCall, WrapperMatchedWidth, Grouped };
const std::vector<Design>& all_designs(); // in column order: integrated, same call, matched width
std::string design_key(Design design);    // "integrated", "wrapper_same_call", "wrapper_matched_width", "grouped"
std::string design_title(Design design);  // "MultiHeadAttention", "Wrapper, same call", "Wrapper, matched width"

enum class Role { Query, Key, Value, OutProj, Mask };
std::string role_name(Role role); // "query", "key", "value", "out_proj", "mask"

// The part of a shared block that one head owns. Integrated W_query/W_key/W_value weights and biases:
// rows [begin, end) = [h*head_dim, (h+1)*head_dim) of axis 0 (what `view` hands head h). out_proj.weight:
// columns [begin, end) of axis 1, the inputs that read head h's merged context.
struct HeadSlice {
    std::int64_t head = 0;
    int axis = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
};

struct Block {
    std::string name;            // state_dict name: "W_query.weight", "heads.0.W_key.bias", "mask", ...
    Shape shape;                 // (out, in) for weights, (out) for biases, (context_length, context_length) for masks
    std::int64_t parameters = 0; // elements; 0 for a buffer, which is state but not a parameter
    Role role = Role::Query;
    std::int64_t head = -1; // the wrapper head that owns it; -1 when shared (integrated blocks)
    bool is_bias = false;
    bool is_buffer = false;
    std::vector<HeadSlice> head_slices; // integrated q/k/v and out_proj.weight only; empty otherwise
};

struct DesignLayout {
    Design design = Design::Integrated;
    bool exists = false;
    std::string why_not; // when !exists: one sentence saying why PyTorch could not build it
    Config config;       // the module this design constructs (kind MultiHeadAttention or Wrapper)
    std::string call;    // canonical_call(config)
    std::int64_t num_heads = 0;
    std::int64_t head_width = 0;   // features per head: head_dim (integrated) or each head's d_out (wrapper)
    std::int64_t output_width = 0; // the last axis of the module's output
    std::int64_t parameters = 0;   // sum over blocks, as sum(p.numel() for p in module.parameters())
    std::int64_t buffer_elements = 0;
    std::vector<Block> blocks;  // parameters in named_parameters() order
    std::vector<Block> buffers; // causal masks in named_buffers() order: "mask" or "heads.{h}.mask"
};

struct DesignComparison {
    Config call;      // the MultiHeadAttention call the three designs come from
    std::string note; // set when a wrapper call was given and read as this call
    // One per all_designs(), in that order, every entry present; a GroupedQueryAttention call adds the
    // Grouped design second, after the integrated one.
    std::vector<DesignLayout> designs;
    const DesignLayout& get(Design design) const;
};

// Layouts stop listing blocks beyond this many heads (a wrapper lists 3-6 blocks per head).
constexpr std::int64_t kMaxLayoutHeads = 4096;

// Takes a MultiHeadAttention call; a MultiHeadAttentionWrapper call is read as the same arguments given
// to MultiHeadAttention, so its own module is the wrapper_same_call column (the note says so). A call
// whose d_out does not divide by num_heads still has the same-call wrapper; the other two say why not.
// Throws Error for other classes, invalid slots (non-positive, dropout range), more than kMaxLayoutHeads
// heads, or counts beyond int64.
DesignComparison compare_designs(const Config& call);
DesignLayout design_layout(const Config& call, Design design);

// PyTorch's state_dict order: each module's own buffers come before its children's parameters, so
// "mask" precedes "W_query.weight" and "heads.0.mask" precedes "heads.0.W_query.weight".
std::vector<std::string> state_dict_names(const DesignLayout& layout);

} // namespace attnlab
