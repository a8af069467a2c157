#include "forward/stage_facts.h"

namespace attnlab {

StageFacts stage_facts(std::string_view name)
{
    StageFacts f;
    std::string_view base = name;
    std::string prefix;
    if (const auto head = find_head_prefix(name)) { // a wrapper's per-head stage: heads.{h}.<stage>
        f.head = head->head;
        prefix = std::string(name.substr(0, head->length));
        base = name.substr(head->length);
    }
    f.base_name = std::string(base);
    f.row = stage_row(base);
    if (!f.row)
        return f;
    f.role = f.row->role;
    f.matrix = f.row->matrix;
    f.layout = f.row->layout;
    if (f.layout != LayoutOp::None)
        f.derived_from = prefix + std::string(f.row->derived_from);
    return f;
}

std::string_view attention_matrix_stage(AttentionMatrix matrix)
{
    for (const auto& row : stage_table())
        if (row.matrix == matrix)
            return row.base_name;
    return stage::attn_weights;
}

std::string attention_stage_name(const Config& config, AttentionMatrix matrix, int head)
{
    const std::string base(attention_matrix_stage(matrix));
    return config.kind == ModuleKind::MultiHeadAttentionWrapper ? head_prefix(head) + base : base;
}

} // namespace attnlab
