#include "designs/cost_model.h"

namespace attnlab {

ForwardCost forward_cost(const Config& c, InputShape in)
{
    const double b = static_cast<double>(in.batch), T = static_cast<double>(in.num_tokens);
    const double din = static_cast<double>(c.d_in), dout = static_cast<double>(c.d_out);
    // The wrapper runs num_heads complete heads of width d_out; the integrated module splits d_out.
    const double copies = c.kind == ModuleKind::MultiHeadAttentionWrapper ? static_cast<double>(c.num_heads) : 1.0;
    ForwardCost cost;
    // Grouped-query attention narrows the key and value projections to num_kv_groups × head_dim; the
    // scores and the weighted sum still run for every query head.
    const double kv = static_cast<double>(c.kv_width());
    cost.projections = copies * b * T * din * (dout + 2 * kv);
    cost.scores = copies * b * T * T * dout;
    cost.context = copies * b * T * T * dout;
    if (c.is_integrated())
        cost.out_proj = b * T * dout * dout;
    return cost;
}

} // namespace attnlab
