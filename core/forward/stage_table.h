#pragma once
// Every canonical stage declared once (tests/data/golden/README.md's vocabulary): what it is, which
// modules record it and with which axes, the layout step it takes, the line of the book's code that
// produces it, and the sentence the stepper shows under it. The traced forward, the bug lesson's
// forward, the plan, the source view, the first-divergence order and the captions all read this table.
#include "call/config.h"
#include "forward/stage_names.h"
#include "tensor/tensor.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// The symbolic axes a stage's shape is written in.
// num_kv_groups and kv_width (num_kv_groups * head_dim) are GroupedQueryAttention's narrower keys and values.
enum class Axis { b, num_tokens, d_in, d_out, num_heads, head_dim, num_heads_x_d_out, num_kv_groups, kv_width };

std::string_view axis_name(Axis axis);                // "b", "num_tokens", ..., "num_heads*d_out"
std::string axes_text(const std::vector<Axis>& axes); // "(b, num_tokens, d_out)"

// The attention matrices a stage can hold (b, H, T, T): what a heatmap shows.
enum class AttentionMatrix { Scores, MaskedScores, Weights, Dropout };

enum class StageRole { Input, Queries, Keys, Values, Scores, Weights, Context, Output };

// The layout step that makes a stage from `derived_from` without computing anything new.
enum class LayoutOp {
    None,
    SplitHeads,  // view(b, T, H, head_dim): d_out cut into heads (queries.view)
    HeadsFirst,  // transpose(1, 2) to (b, H, T, head_dim) (queries.heads)
    TokensFirst, // transpose(1, 2) back to (b, T, H, head_dim) (context.transposed)
    MergeHeads,  // contiguous().view(b, T, d_out) (context.merged)
    RepeatKv,    // repeat_interleave(group_size, dim=1): a copy (keys.repeated, values.repeated)
};

// Which forward a stage is recorded in. Single: SelfAttention_v1/v2, CausalAttention and each of the
// wrapper's heads; Wrapper: the wrapper's own stages around its heads; Grouped: GroupedQueryAttention, whose
// rows are the integrated ones except where `grouped` says otherwise.
enum class StageScope { Simple, Single, Integrated, Wrapper, Grouped };

using StageText = std::string (*)(const Config& config);

// Every member has a default ({} where nothing else), so the table's designated initialisers may leave any out
// (GCC's -Wmissing-field-initializers names the members without one).
struct StageRow {
    std::string_view base_name; // without the wrapper's "heads.{h}." prefix
    StageRole role = StageRole::Input;
    std::optional<AttentionMatrix> matrix{};
    LayoutOp layout = LayoutOp::None;
    std::string_view derived_from{}; // the base name this stage re-lays out; empty when it computes
    // The axes in each scope; empty where the stage is not recorded. The Single scope's leading b is
    // dropped for the modules that take (T, d_in). `grouped` empty: the integrated axes.
    std::vector<Axis> simple{}, single{}, integrated{}, wrapper{}, grouped{};
    bool causal_only = false;   // the mask and dropout only exist in causal modules
    bool training_only = false; // dropout: recorded only when it acts
    int statement = 0;          // position in the book's statement order (keys before queries)
    // The first text found among these names the line of the book's forward that produces the stage.
    std::vector<std::string_view> source_text{};
    StageText caption = nullptr; // one or two sentences with the config's numbers
    StageText formula = nullptr; // the one-line arithmetic; null when there is none
};

// In the golden README's order: the order a stage-by-stage comparison reads them in.
const std::vector<StageRow>& stage_table();
const StageRow* stage_row(std::string_view base_name);

StageScope stage_scope(ModuleKind kind);
const std::vector<Axis>& scope_axes(const StageRow& row, StageScope scope);
// The axes `row` has in a module of this config (wrapper heads: pass the head's CausalAttention config).
std::vector<Axis> stage_axes(const StageRow& row, const Config& config);
// Each axis's size for this config and input.
Shape axes_shape(const std::vector<Axis>& axes, const Config& config, InputShape input);

// The stepper's sentence under a stage and its one-line arithmetic ("768 = 12 × 64"), with the
// config's numbers; empty when the table has none.
std::string stage_caption(std::string_view base_name, const Config& config);
std::string stage_formula(std::string_view base_name, const Config& config);

// The heads a module of this config computes (1 for the single-head modules).
int head_count(const Config& config);

} // namespace attnlab
