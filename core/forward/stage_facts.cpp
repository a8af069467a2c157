#include "forward/stage_facts.h"

#include <array>
#include <utility>

namespace attnlab {

namespace {

constexpr std::array<std::pair<AttentionMatrix, std::string_view>, 4> kMatrixStages = {{
    {AttentionMatrix::Scores, "attn_scores"},
    {AttentionMatrix::MaskedScores, "attn_scores.masked"},
    {AttentionMatrix::Weights, "attn_weights"},
    {AttentionMatrix::Dropout, "attn_weights.dropout"},
}};

StageRole role_of(std::string_view base)
{
    const std::string_view first = base.substr(0, base.find('.'));
    if (first == "queries")
        return StageRole::Queries;
    if (first == "keys")
        return StageRole::Keys;
    if (first == "values")
        return StageRole::Values;
    if (first == "attn_scores")
        return StageRole::Scores;
    if (first == "attn_weights")
        return StageRole::Weights;
    if (first == "context")
        return StageRole::Context;
    if (first == "output")
        return StageRole::Output;
    return StageRole::Input;
}

// The layout step behind a base name and the base name it starts from.
std::pair<LayoutOp, std::string> layout_of(std::string_view base)
{
    const std::string_view first = base.substr(0, base.find('.'));
    if (base.ends_with(".view") && first != "context")
        return {LayoutOp::SplitHeads, std::string(first)};
    if (base.ends_with(".heads") && first != "context")
        return {LayoutOp::HeadsFirst, std::string(first) + ".view"};
    if (base == "context.transposed")
        return {LayoutOp::TokensFirst, "context.heads"};
    if (base == "context.merged")
        return {LayoutOp::MergeHeads, "context.transposed"};
    return {LayoutOp::None, {}};
}

} // namespace

StageFacts stage_facts(std::string_view name)
{
    StageFacts f;
    std::string_view base = name;
    std::string prefix;
    if (base.starts_with("heads.")) { // a wrapper's per-head stage: heads.{h}.<stage>
        const auto dot = base.find('.', 6);
        if (dot != std::string_view::npos) {
            int head = 0;
            bool digits = dot > 6;
            for (char c : base.substr(6, dot - 6)) {
                digits = digits && c >= '0' && c <= '9';
                head = digits ? head * 10 + (c - '0') : head;
            }
            if (digits) {
                f.head = head;
                prefix = std::string(base.substr(0, dot + 1));
                base = base.substr(dot + 1);
            }
        }
    }
    f.base_name = std::string(base);
    f.role = role_of(base);
    for (const auto& [matrix, stage] : kMatrixStages)
        if (base == stage)
            f.matrix = matrix;
    auto [layout, from] = layout_of(base);
    f.layout = layout;
    if (layout != LayoutOp::None)
        f.derived_from = prefix + from;
    return f;
}

std::string_view attention_matrix_stage(AttentionMatrix matrix)
{
    for (const auto& [m, stage] : kMatrixStages)
        if (m == matrix)
            return stage;
    return "attn_weights";
}

std::string attention_stage_name(const Config& config, AttentionMatrix matrix, int head)
{
    const std::string base(attention_matrix_stage(matrix));
    return config.kind == ModuleKind::MultiHeadAttentionWrapper ? head_prefix(head) + base : base;
}

} // namespace attnlab
