#pragma once
// What a canonical stage name says, read in one place (see tests/data/golden/README.md): which role's
// tensor it is, which wrapper head it belongs to, which attention matrix it holds, and which stage it
// only re-lays out. The trace stores these facts with every stage, so no view parses names again.
#include "call/config.h"

#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

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
};

struct StageFacts {
    std::string base_name;                 // without the wrapper's "heads.{h}." prefix: "attn_weights"
    int head = -1;                         // the wrapper head the stage belongs to; -1 for the whole module
    StageRole role = StageRole::Input;     //
    std::optional<AttentionMatrix> matrix; // set for scores, masked scores, weights and dropped-out weights
    std::string derived_from;              // the stage this one re-lays out (whole name); "" when it computes
    LayoutOp layout = LayoutOp::None;
};

StageFacts stage_facts(std::string_view name);

std::string_view attention_matrix_stage(AttentionMatrix matrix); // "attn_scores.masked", ...
// The stage that holds `matrix` for `head` in a module of this config ("heads.2.attn_weights" in a wrapper).
std::string attention_stage_name(const Config& config, AttentionMatrix matrix, int head);

} // namespace attnlab
