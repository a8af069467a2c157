// The stage table's rows. A new stage is one row here plus its computation in the forward.
#include "forward/stage_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attnlab {

namespace {

using A = Axis;
using M = AttentionMatrix;
using R = StageRole;

std::string n(std::int64_t v)
{
    return std::to_string(v);
}

std::string g(double v, int precision = 6) // printf's %g, as the captions have always printed numbers
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    return buf;
}

bool mha(const Config& c) // MultiHeadAttention and GroupedQueryAttention: heads cut from one projection
{
    return c.is_integrated();
}

// "key" for keys, "value" for values: the word before "heads".
std::string singular(const char* role)
{
    const std::string_view r(role);
    return std::string(r.substr(0, r.size() - 1));
}

bool shared_role(const Config& c, const char* role) // keys and values in GroupedQueryAttention
{
    return c.is_grouped() && std::string_view(role) != stage::queries;
}

std::string projection(const Config& c, const char* weight, const char* role)
{
    if (shared_role(c, role))
        return std::string(weight) + " maps each token from d_in = " + n(c.d_in) +
               " to num_kv_groups × head_dim = " + n(c.num_kv_groups) + " × " + n(c.head_dim()) + " = " +
               n(c.kv_width()) + " features: " + n(c.num_kv_groups) + " " + singular(role) + " heads for the " +
               n(c.num_heads) + " query heads, a fraction 1/" + n(c.group_size()) + " of MultiHeadAttention's.";
    std::string s =
        std::string(weight) + " maps each token from d_in = " + n(c.d_in) + " to d_out = " + n(c.d_out) + " features.";
    if (mha(c))
        s += " One wide projection serves all " + n(c.num_heads) + " heads; they are split apart next.";
    return s;
}

std::string split_view(const Config& c, const char* role)
{
    if (shared_role(c, role))
        return "view() cuts the " + n(c.kv_width()) + " features of " + std::string(role) +
               " into num_kv_groups = " + n(c.num_kv_groups) + " heads of head_dim = " + n(c.head_dim()) +
               ". Same storage, nothing is copied.";
    return "view() cuts the d_out axis of " + std::string(role) + " into " + n(c.num_heads) +
           " heads of head_dim = " + n(c.head_dim()) + " consecutive features: " + n(c.d_out) + " / " + n(c.num_heads) +
           " = " + n(c.head_dim()) + ". Same storage, nothing is copied.";
}

std::string repeated(const Config& c, const char* role)
{
    return "repeat_interleave(" + n(c.group_size()) + ", dim=1) copies each of the " + n(c.num_kv_groups) + " " +
           singular(role) + " heads " + n(c.group_size()) +
           " times, once per query head of its group: " + n(c.num_kv_groups) + " × " + n(c.group_size()) + " = " +
           n(c.num_heads) +
           " heads. A new tensor; expand() would have given the same numbers as a view with stride 0 on the "
           "repeated axis, copying nothing.";
}

std::string repeat_formula(const Config& c)
{
    return "num_heads = " + n(c.num_heads) + " = " + n(c.num_kv_groups) + " key/value heads × group_size " +
           n(c.group_size());
}

std::string heads_first(const Config&)
{
    return "transpose(1, 2) swaps axes 1 and 2, putting num_heads before num_tokens, so each head holds its own "
           "num_tokens × head_dim matrix. Only the strides change.";
}

std::string split_formula(const Config& c)
{
    return mha(c) ? "d_out = " + n(c.d_out) + " = " + n(c.num_heads) + " heads × " + n(c.head_dim()) + " (head_dim)"
                  : std::string{};
}

// Axes shorthands for the rows below.
const std::vector<Axis> kInput = {A::b, A::num_tokens, A::d_in}, kFlat = {A::b, A::num_tokens, A::d_out},
                        kSplit = {A::b, A::num_tokens, A::num_heads, A::head_dim},
                        kHeads = {A::b, A::num_heads, A::num_tokens, A::head_dim},
                        kSquare = {A::b, A::num_tokens, A::num_tokens},
                        kHeadSquares = {A::b, A::num_heads, A::num_tokens, A::num_tokens},
                        kKvFlat = {A::b, A::num_tokens, A::kv_width},
                        kKvSplit = {A::b, A::num_tokens, A::num_kv_groups, A::head_dim},
                        kKvHeads = {A::b, A::num_kv_groups, A::num_tokens, A::head_dim};

std::string context_caption(const Config& c)
{
    if (c.kind == ModuleKind::SimpleSelfAttention)
        return "attn_weights @ x: each token's context vector is a weighted mix of all the input vectors.";
    return "attn_weights @ values: each token's context vector is a weighted mix of all value vectors it may see.";
}

std::string scores_caption(const Config& c)
{
    if (c.kind == ModuleKind::SimpleSelfAttention) // section 3.3: the tokens themselves, nothing trained
        return "x @ x.T: the dot product of every token with every token, a num_tokens × num_tokens matrix of "
               "scores; no weights, no scaling.";
    if (mha(c))
        return "queries @ keys.transpose(2, 3): in every head, each query is compared with every key using its " +
               n(c.head_dim()) + " features, giving one num_tokens × num_tokens score matrix per head.";
    return "queries @ keys.T: each query is compared with every key, giving a num_tokens × num_tokens matrix of "
           "scores.";
}

std::string weights_caption(const Config& c)
{
    if (c.kind == ModuleKind::SimpleSelfAttention)
        return "softmax(attn_scores) along each row (not scaled) turns scores into weights that sum to 1.";
    return "softmax(scores / √" + n(c.head_dim()) + ") along each row turns scores into weights that sum to 1" +
           (c.is_causal() ? "; the −∞ cells become exactly 0" : "") + ".";
}

std::string output_caption(const Config& c)
{
    if (c.kind == ModuleKind::MultiHeadAttentionWrapper)
        return "torch.cat joins the " + n(c.num_heads) +
               " heads' contexts side by side: num_heads × d_out = " + n(c.num_heads) + " × " + n(c.d_out) + " = " +
               n(c.num_heads * c.d_out) + " features per token.";
    return "out_proj, a " + n(c.d_out) + " × " + n(c.d_out) +
           " linear layer, mixes the heads' features into the output.";
}

// `statement` is the book's statement order: keys before queries, and the views take keys, values,
// then queries.
const std::vector<StageRow> kTable = {
    {.base_name = stage::x,
     .simple = {A::num_tokens, A::d_in},
     .single = kInput,
     .integrated = kInput,
     .wrapper = kInput,
     .statement = 0,
     .source_text = {"def forward"},
     .caption =
         [](const Config& c) {
             return "The input: every token is a vector of d_in = " + n(c.d_in) + " numbers (its embedding).";
         }},
    {.base_name = stage::queries,
     .role = R::Queries,
     .single = kFlat,
     .integrated = kFlat,
     .statement = 2,
     .source_text = {"queries = "},
     .caption = [](const Config& c) { return projection(c, "W_query", stage::queries); }},
    {.base_name = stage::keys,
     .role = R::Keys,
     .single = kFlat,
     .integrated = kFlat,
     .grouped = kKvFlat,
     .statement = 1,
     .source_text = {"keys = "},
     .caption = [](const Config& c) { return projection(c, "W_key", stage::keys); }},
    {.base_name = stage::values,
     .role = R::Values,
     .single = kFlat,
     .integrated = kFlat,
     .grouped = kKvFlat,
     .statement = 3,
     .source_text = {"values = "},
     .caption = [](const Config& c) { return projection(c, "W_value", stage::values); }},
    {.base_name = stage::queries_view,
     .role = R::Queries,
     .layout = LayoutOp::SplitHeads,
     .derived_from = stage::queries,
     .integrated = kSplit,
     .statement = 6,
     .source_text = {"queries = queries.view"},
     .caption = [](const Config& c) { return split_view(c, stage::queries); },
     .formula = split_formula},
    {.base_name = stage::keys_view,
     .role = R::Keys,
     .layout = LayoutOp::SplitHeads,
     .derived_from = stage::keys,
     .integrated = kSplit,
     .grouped = kKvSplit,
     .statement = 4,
     .source_text = {"keys = keys.view"},
     .caption = [](const Config& c) { return split_view(c, stage::keys); },
     .formula = split_formula},
    {.base_name = stage::values_view,
     .role = R::Values,
     .layout = LayoutOp::SplitHeads,
     .derived_from = stage::values,
     .integrated = kSplit,
     .grouped = kKvSplit,
     .statement = 5,
     .source_text = {"values = values.view"},
     .caption = [](const Config& c) { return split_view(c, stage::values); },
     .formula = split_formula},
    {.base_name = stage::queries_heads,
     .role = R::Queries,
     .layout = LayoutOp::HeadsFirst,
     .derived_from = stage::queries_view,
     .integrated = kHeads,
     .statement = 8,
     .source_text = {"queries = queries.transpose"},
     .caption = heads_first},
    {.base_name = stage::keys_heads,
     .role = R::Keys,
     .layout = LayoutOp::HeadsFirst,
     .derived_from = stage::keys_view,
     .integrated = kHeads,
     .grouped = kKvHeads,
     .statement = 7,
     .source_text = {"keys = keys.transpose"},
     .caption = heads_first},
    {.base_name = stage::values_heads,
     .role = R::Values,
     .layout = LayoutOp::HeadsFirst,
     .derived_from = stage::values_view,
     .integrated = kHeads,
     .grouped = kKvHeads,
     .statement = 9,
     .source_text = {"values = values.transpose"},
     .caption = heads_first},
    {.base_name = stage::keys_repeated,
     .role = R::Keys,
     .layout = LayoutOp::RepeatKv,
     .derived_from = stage::keys_heads,
     .grouped = kHeads,
     .statement = 10,
     .source_text = {"keys = keys.repeat_interleave"},
     .caption = [](const Config& c) { return repeated(c, stage::keys); },
     .formula = repeat_formula},
    {.base_name = stage::values_repeated,
     .role = R::Values,
     .layout = LayoutOp::RepeatKv,
     .derived_from = stage::values_heads,
     .grouped = kHeads,
     .statement = 11,
     .source_text = {"values = values.repeat_interleave"},
     .caption = [](const Config& c) { return repeated(c, stage::values); },
     .formula = repeat_formula},
    {.base_name = stage::attn_scores,
     .role = R::Scores,
     .matrix = M::Scores,
     .simple = {A::num_tokens, A::num_tokens},
     .single = kSquare,
     .integrated = kHeadSquares,
     .statement = 12,
     .source_text = {"attn_scores = "},
     .caption = scores_caption},
    {.base_name = stage::attn_scores_masked,
     .role = R::Scores,
     .matrix = M::MaskedScores,
     .single = kSquare,
     .integrated = kHeadSquares,
     .causal_only = true,
     .statement = 13,
     .source_text = {"masked_fill_"},
     .caption = [](const Config& c) -> std::string {
         std::string s = "The causal mask sets every score above the diagonal to −∞: a token may look at itself and "
                         "earlier tokens, never at later ones.";
         if (c.is_grouped() && c.window_size)
             s += std::string(" The sliding window also hides every key more than ") + n(*c.window_size - 1) +
                  " tokens back: each query sees at most its window_size = " + n(*c.window_size) + " latest tokens.";
         return s;
     }},
    {.base_name = stage::attn_weights,
     .role = R::Weights,
     .matrix = M::Weights,
     .simple = {A::num_tokens, A::num_tokens},
     .single = kSquare,
     .integrated = kHeadSquares,
     .statement = 14,
     .source_text = {"torch.softmax"},
     .caption = weights_caption,
     .formula = [](const Config& c) -> std::string {
         return mha(c) ? "scale = 1 / √head_dim = 1 / √" + n(c.head_dim()) + " = 1 / " +
                             g(std::sqrt(double(c.head_dim())), 4)
                       : std::string{};
     }},
    {.base_name = stage::attn_weights_dropout,
     .role = R::Weights,
     .matrix = M::Dropout,
     .single = kSquare,
     .integrated = kHeadSquares,
     .causal_only = true,
     .training_only = true,
     .statement = 15,
     .source_text = {"self.dropout"},
     .caption =
         [](const Config& c) {
             return "In training, dropout zeroes each weight with probability " + g(c.dropout) +
                    " and scales the rest by 1 / (1 − " + g(c.dropout) + ").";
         }},
    {.base_name = stage::context_heads,
     .role = R::Context,
     .integrated = kHeads,
     .statement = 16,
     .source_text = {"context_vec = "}, // the first one: the product with the weights
     .caption =
         [](const Config& c) {
             return "attn_weights @ values: each head mixes the value vectors of the tokens it attends to, giving "
                    "num_tokens × head_dim = " +
                    n(c.head_dim()) + " features per token and head.";
         }},
    {.base_name = stage::context_transposed,
     .role = R::Context,
     .layout = LayoutOp::TokensFirst,
     .derived_from = stage::context_heads,
     .integrated = kSplit,
     .statement = 17,
     .source_text = {"context_vec = "},
     .caption = [](const Config&) -> std::string {
         return "transpose(1, 2) moves the heads back behind the tokens. The strides are now out of order, so this "
                "tensor is not contiguous and view() cannot merge it yet.";
     }},
    {.base_name = stage::context_merged,
     .role = R::Context,
     .layout = LayoutOp::MergeHeads,
     .derived_from = stage::context_transposed,
     .integrated = kFlat,
     .statement = 18,
     .source_text = {".contiguous()"},
     .caption =
         [](const Config& c) {
             return "contiguous() copies the values into row order; then view() glues the " + n(c.num_heads) +
                    " heads × " + n(c.head_dim()) + " features back into d_out = " + n(c.d_out) + ".";
         },
     .formula = split_formula},
    {.base_name = stage::context,
     .role = R::Context,
     .simple = {A::num_tokens, A::d_in},
     .single = kFlat,
     .statement = 19,
     .source_text = {"context_vec = "},
     .caption = context_caption},
    {.base_name = stage::output,
     .role = R::Output,
     .integrated = kFlat,
     .wrapper = {A::b, A::num_tokens, A::num_heads_x_d_out},
     .statement = 20,
     .source_text = {"out_proj(", "torch.cat("},
     .caption = output_caption},
};

} // namespace

std::string_view axis_name(Axis axis)
{
    switch (axis) {
    case Axis::b: return "b";
    case Axis::num_tokens: return "num_tokens";
    case Axis::d_in: return "d_in";
    case Axis::d_out: return "d_out";
    case Axis::num_heads: return "num_heads";
    case Axis::head_dim: return "head_dim";
    case Axis::num_heads_x_d_out: return "num_heads*d_out";
    case Axis::num_kv_groups: return "num_kv_groups";
    case Axis::kv_width: return "num_kv_groups*head_dim";
    }
    return "?";
}

std::string axes_text(const std::vector<Axis>& axes)
{
    std::string s = "(";
    for (std::size_t i = 0; i < axes.size(); ++i)
        s += (i ? ", " : "") + std::string(axis_name(axes[i]));
    return s + ")";
}

const std::vector<StageRow>& stage_table()
{
    return kTable;
}

const StageRow* stage_row(std::string_view base_name)
{
    for (const auto& row : kTable)
        if (row.base_name == base_name)
            return &row;
    return nullptr;
}

StageScope stage_scope(ModuleKind kind)
{
    switch (kind) {
    case ModuleKind::SimpleSelfAttention: return StageScope::Simple;
    case ModuleKind::MultiHeadAttention: return StageScope::Integrated;
    case ModuleKind::MultiHeadAttentionWrapper: return StageScope::Wrapper;
    case ModuleKind::GroupedQueryAttention: return StageScope::Grouped;
    default: return StageScope::Single;
    }
}

const std::vector<Axis>& scope_axes(const StageRow& row, StageScope scope)
{
    switch (scope) {
    case StageScope::Simple: return row.simple;
    case StageScope::Single: return row.single;
    case StageScope::Integrated: return row.integrated;
    case StageScope::Wrapper: return row.wrapper;
    case StageScope::Grouped: return row.grouped.empty() ? row.integrated : row.grouped;
    }
    return row.single;
}

std::vector<Axis> stage_axes(const StageRow& row, const Config& config)
{
    const StageScope scope = stage_scope(config.kind);
    std::vector<Axis> axes = scope_axes(row, scope);
    if (scope == StageScope::Single && !config.is_batched() && !axes.empty() && axes.front() == Axis::b)
        axes.erase(axes.begin());
    return axes;
}

Shape axes_shape(const std::vector<Axis>& axes, const Config& c, InputShape input)
{
    Shape s;
    for (Axis a : axes) {
        switch (a) {
        case Axis::b: s.push_back(input.batch); break;
        case Axis::num_tokens: s.push_back(input.num_tokens); break;
        case Axis::d_in: s.push_back(c.d_in); break;
        case Axis::d_out: s.push_back(c.d_out); break;
        case Axis::num_heads: s.push_back(c.num_heads); break;
        case Axis::head_dim: s.push_back(c.head_dim()); break;
        case Axis::num_heads_x_d_out: s.push_back(c.num_heads * c.d_out); break;
        case Axis::num_kv_groups: s.push_back(c.num_kv_groups); break;
        case Axis::kv_width: s.push_back(c.kv_width()); break;
        }
    }
    return s;
}

std::string stage_caption(std::string_view base_name, const Config& config)
{
    const StageRow* row = stage_row(base_name);
    return row && row->caption ? row->caption(config) : std::string{};
}

std::string stage_formula(std::string_view base_name, const Config& config)
{
    const StageRow* row = stage_row(base_name);
    return row && row->formula ? row->formula(config) : std::string{};
}

int head_count(const Config& config)
{
    return config.has_heads() ? static_cast<int>(std::max<std::int64_t>(config.num_heads, 1)) : 1;
}

} // namespace attnlab
