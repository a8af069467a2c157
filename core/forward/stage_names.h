#pragma once
// The canonical stage names (tests/data/golden/README.md), each spelled once: here. The stage table's
// rows (stage_table.cpp) are declared with these constants, and every forward, lookup, lesson and view
// that names a stage uses them, so no other file spells a stage name.
// They are character arrays, not string_views, so that `prefix + stage::context` builds a std::string
// and `s.name == stage::output` compares text, as a literal would.
#include <array>
#include <cstddef>
#include <string_view>

namespace attnlab::stage {

inline constexpr char x[] = "x";
inline constexpr char queries[] = "queries";
inline constexpr char keys[] = "keys";
inline constexpr char values[] = "values";
inline constexpr char queries_view[] = "queries.view";
inline constexpr char keys_view[] = "keys.view";
inline constexpr char values_view[] = "values.view";
inline constexpr char queries_heads[] = "queries.heads";
inline constexpr char keys_heads[] = "keys.heads";
inline constexpr char values_heads[] = "values.heads";
// GroupedQueryAttention: each key/value head repeated for its group of query heads (repeat_interleave).
inline constexpr char keys_repeated[] = "keys.repeated";
inline constexpr char values_repeated[] = "values.repeated";
inline constexpr char attn_scores[] = "attn_scores";
inline constexpr char attn_scores_masked[] = "attn_scores.masked";
inline constexpr char attn_weights[] = "attn_weights";
inline constexpr char attn_weights_dropout[] = "attn_weights.dropout";
inline constexpr char context_heads[] = "context.heads";
inline constexpr char context_transposed[] = "context.transposed";
inline constexpr char context_merged[] = "context.merged";
inline constexpr char context[] = "context";
inline constexpr char output[] = "output";

// A projection's three stages: as computed, split into heads (view), heads first (transpose).
struct Projection {
    const char* computed;
    const char* split;
    const char* heads_first;
};
inline constexpr Projection query_projection{queries, queries_view, queries_heads};
inline constexpr Projection key_projection{keys, keys_view, keys_heads};
inline constexpr Projection value_projection{values, values_view, values_heads};

// The order the book's MultiHeadAttention.forward computes them, which is not the same in each group of
// three: keys, queries, values are projected; keys, values, queries viewed; keys, queries, values transposed.
// The trace, the buggy forward and the first divergence all walk the stages in this order.
inline constexpr std::array<Projection, 3> projected_order = {key_projection, query_projection, value_projection};
inline constexpr std::array<Projection, 3> split_order = {key_projection, value_projection, query_projection};
inline constexpr std::array<Projection, 3> heads_first_order = {key_projection, query_projection, value_projection};

// Every name in the stage table's order; test_stage_table checks that the table's rows are these.
inline constexpr std::array<std::string_view, 21> all = {x,
                                                         queries,
                                                         keys,
                                                         values,
                                                         queries_view,
                                                         keys_view,
                                                         values_view,
                                                         queries_heads,
                                                         keys_heads,
                                                         values_heads,
                                                         keys_repeated,
                                                         values_repeated,
                                                         attn_scores,
                                                         attn_scores_masked,
                                                         attn_weights,
                                                         attn_weights_dropout,
                                                         context_heads,
                                                         context_transposed,
                                                         context_merged,
                                                         context,
                                                         output};

constexpr bool all_distinct()
{
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = i + 1; j < all.size(); ++j)
            if (all[i] == all[j])
                return false;
    return true;
}
static_assert(all_distinct(), "two stage constants spell the same name");

} // namespace attnlab::stage
