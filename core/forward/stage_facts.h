#pragma once
// What a canonical stage name says, read from the stage table (stage_table.h): which role's tensor it
// is, which wrapper head it belongs to, which attention matrix it holds, and which stage it only
// re-lays out. The trace stores these facts with every stage, so no view parses names again.
#include "call/config.h"
#include "forward/stage_table.h"

#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

struct StageFacts {
    std::string base_name;                 // without the wrapper's "heads.{h}." prefix: "attn_weights"
    int head = -1;                         // the wrapper head the stage belongs to; -1 for the whole module
    StageRole role = StageRole::Input;     //
    std::optional<AttentionMatrix> matrix; // set for scores, masked scores, weights and dropped-out weights
    std::string derived_from;              // the stage this one re-lays out (whole name); "" when it computes
    LayoutOp layout = LayoutOp::None;
    const StageRow* row = nullptr; // the table's row; null for a name the table does not know
};

StageFacts stage_facts(std::string_view name);

std::string_view attention_matrix_stage(AttentionMatrix matrix); // "attn_scores.masked", ...
// The stage that holds `matrix` for `head` in a module of this config ("heads.2.attn_weights" in a wrapper).
std::string attention_stage_name(const Config& config, AttentionMatrix matrix, int head);

} // namespace attnlab
