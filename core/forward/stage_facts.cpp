#include "forward/stage_facts.h"

namespace attnlab {

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
    return "attn_weights";
}

std::string attention_stage_name(const Config& config, AttentionMatrix matrix, int head)
{
    const std::string base(attention_matrix_stage(matrix));
    return config.kind == ModuleKind::MultiHeadAttentionWrapper ? head_prefix(head) + base : base;
}

} // namespace attnlab
