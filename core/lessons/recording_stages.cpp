// The book's stages as the matcher needs them: values, the accepted forms (scores already scaled), the
// data flow between stages (book_stages.py's feeds), the layout chains and the right values that are no stage.
#include "lessons/recording_stages.h"

#include <cmath>

namespace attnlab {

namespace {

std::vector<std::string> single_head_feeds(const std::string& s, const std::string& p, bool causal)
{
    const std::string scores_next = causal ? p + stage::attn_scores_masked : p + stage::attn_weights;
    if (s == p + stage::queries || s == p + stage::keys)
        return {p + stage::attn_scores};
    if (s == p + stage::values || s == p + stage::attn_weights)
        return {p + stage::context};
    if (s == p + stage::attn_scores)
        return {scores_next};
    if (s == p + stage::attn_scores_masked)
        return {p + stage::attn_weights};
    return {};
}

// The book's data flow: the stages computed directly from `s`.
std::vector<std::string> feeds_of(const std::string& s, ModuleKind kind)
{
    if (kind == ModuleKind::GroupedQueryAttention) { // each key/value head repeated, then as MultiHeadAttention
        static const std::map<std::string, std::vector<std::string>> repeats = {
            {stage::keys_heads, {stage::keys_repeated}},
            {stage::values_heads, {stage::values_repeated}},
            {stage::keys_repeated, {stage::attn_scores}},
            {stage::values_repeated, {stage::context_heads}}};
        if (const auto it = repeats.find(s); it != repeats.end())
            return it->second;
    }
    if (kind == ModuleKind::MultiHeadAttention || kind == ModuleKind::GroupedQueryAttention) {
        static const std::map<std::string, std::vector<std::string>> flow = {
            {stage::queries, {stage::queries_view}},
            {stage::keys, {stage::keys_view}},
            {stage::values, {stage::values_view}},
            {stage::queries_view, {stage::queries_heads}},
            {stage::keys_view, {stage::keys_heads}},
            {stage::values_view, {stage::values_heads}},
            {stage::queries_heads, {stage::attn_scores}},
            {stage::keys_heads, {stage::attn_scores}},
            {stage::values_heads, {stage::context_heads}},
            {stage::attn_scores, {stage::attn_scores_masked}},
            {stage::attn_scores_masked, {stage::attn_weights}},
            {stage::attn_weights, {stage::context_heads}},
            {stage::context_heads, {stage::context_transposed}},
            {stage::context_transposed, {stage::context_merged}},
            {stage::context_merged, {stage::output}}};
        const auto it = flow.find(s);
        return it == flow.end() ? std::vector<std::string>{} : it->second;
    }
    if (kind == ModuleKind::MultiHeadAttentionWrapper) {
        const auto head = find_head_prefix(s);
        if (!head)
            return {};
        if (s.substr(head->length) == stage::context)
            return {stage::output};
        return single_head_feeds(s, s.substr(0, head->length), true);
    }
    return single_head_feeds(s, "", kind == ModuleKind::CausalAttention);
}

Values divided(const Values& v, double by)
{
    Values out = v;
    for (float& f : out.data)
        f = static_cast<float>(f / by);
    return out;
}

Values transposed_last(const Tensor& t)
{
    return Values::of(t.transpose(t.dim() - 2, t.dim() - 1));
}

} // namespace

// Runs the book's forward and lays its stages out with their forms, feeds, chains and extras.
BookReference build_book_stages(BookReference ref)
{
    const Config& c = ref.config;
    StateDict weights = ref.weights;
    if (!ref.has_out_proj) { // the book cannot compute `output`; zeros let it compute everything else
        weights["out_proj.weight"] = Tensor::zeros({c.d_out, c.d_out});
        weights["out_proj.bias"] = Tensor::zeros({c.d_out});
    }
    const Trace trace = trace_forward(c, weights, ref.x);
    ref.weights = weights;
    const double scale = std::sqrt(static_cast<double>(c.head_dim())); // d_out for the single-head modules
    for (const Stage& traced : trace.stages) {
        if (traced.name == stage::x)
            continue;
        ReferenceStage s{traced.name, traced.tensor.shape(),         Values::of(traced.tensor),
                         {},          feeds_of(traced.name, c.kind), traced.code_line};
        s.forms.push_back(*s.value);
        if (traced.matrix == AttentionMatrix::Scores || traced.matrix == AttentionMatrix::MaskedScores)
            s.forms.push_back(divided(*s.value, scale));
        if (traced.name == stage::output && !ref.has_out_proj) {
            s.value.reset();
            s.forms.clear();
        }
        if (traced.base_name == stage::keys && !c.is_integrated())
            ref.extras[traced.name + ".T"] = transposed_last(traced.tensor);
        // keys.heads.T also for grouped-query attention: multi-query code broadcasts it against every query head.
        if (traced.name == stage::keys_heads || traced.name == stage::keys_repeated)
            ref.extras[traced.name + ".T"] = transposed_last(traced.tensor);
        ref.stages.push_back(std::move(s));
    }
    if (c.is_integrated()) {
        ref.chains.clear();
        for (const stage::Projection& p : {stage::query_projection, stage::key_projection, stage::value_projection})
            ref.chains.push_back({p.computed, p.split, p.heads_first});
        ref.chains.push_back({stage::context_heads, stage::context_transposed, stage::context_merged});
    }
    ref.extras[stage::x] = Values::of(ref.x);
    return ref;
}

} // namespace attnlab
