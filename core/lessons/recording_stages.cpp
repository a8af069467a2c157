// The book's stages as the matcher needs them: values, the accepted forms (scores already scaled), the
// data flow between stages (book_stages.py's feeds), the layout chains and the right values that are no stage.
#include "lessons/recording_stages.h"

#include <cmath>

namespace attnlab {

namespace {

std::vector<std::string> single_head_feeds(const std::string& s, const std::string& p, bool causal)
{
    const std::string scores_next = causal ? p + "attn_scores.masked" : p + "attn_weights";
    if (s == p + "queries" || s == p + "keys")
        return {p + "attn_scores"};
    if (s == p + "values" || s == p + "attn_weights")
        return {p + "context"};
    if (s == p + "attn_scores")
        return {scores_next};
    if (s == p + "attn_scores.masked")
        return {p + "attn_weights"};
    return {};
}

// The book's data flow: the stages computed directly from `s`.
std::vector<std::string> feeds_of(const std::string& s, ModuleKind kind)
{
    if (kind == ModuleKind::MultiHeadAttention) {
        static const std::map<std::string, std::vector<std::string>> flow = {{"queries", {"queries.view"}},
                                                                             {"keys", {"keys.view"}},
                                                                             {"values", {"values.view"}},
                                                                             {"queries.view", {"queries.heads"}},
                                                                             {"keys.view", {"keys.heads"}},
                                                                             {"values.view", {"values.heads"}},
                                                                             {"queries.heads", {"attn_scores"}},
                                                                             {"keys.heads", {"attn_scores"}},
                                                                             {"values.heads", {"context.heads"}},
                                                                             {"attn_scores", {"attn_scores.masked"}},
                                                                             {"attn_scores.masked", {"attn_weights"}},
                                                                             {"attn_weights", {"context.heads"}},
                                                                             {"context.heads", {"context.transposed"}},
                                                                             {"context.transposed", {"context.merged"}},
                                                                             {"context.merged", {"output"}}};
        const auto it = flow.find(s);
        return it == flow.end() ? std::vector<std::string>{} : it->second;
    }
    if (kind == ModuleKind::MultiHeadAttentionWrapper) {
        const std::size_t dot = s.find('.', 6); // "heads.{h}." prefix
        if (!s.starts_with("heads.") || dot == std::string::npos)
            return {};
        if (s.ends_with(".context"))
            return {"output"};
        return single_head_feeds(s, s.substr(0, dot + 1), true);
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
    const double scale =
        std::sqrt(static_cast<double>(c.kind == ModuleKind::MultiHeadAttention ? c.head_dim() : c.d_out));
    for (const Stage& stage : trace.stages) {
        if (stage.name == "x")
            continue;
        ReferenceStage s{stage.name, stage.tensor.shape(),         Values::of(stage.tensor),
                         {},         feeds_of(stage.name, c.kind), stage.code_line};
        s.forms.push_back(*s.value);
        if (stage.name.ends_with("attn_scores") || stage.name.ends_with("attn_scores.masked"))
            s.forms.push_back(divided(*s.value, scale));
        if (stage.name == "output" && !ref.has_out_proj) {
            s.value.reset();
            s.forms.clear();
        }
        if (stage.name.ends_with("keys") && c.kind != ModuleKind::MultiHeadAttention)
            ref.extras[stage.name + ".T"] = transposed_last(stage.tensor);
        if (stage.name == "keys.heads")
            ref.extras["keys.heads.T"] = transposed_last(stage.tensor);
        ref.stages.push_back(std::move(s));
    }
    if (c.kind == ModuleKind::MultiHeadAttention)
        ref.chains = {{"queries", "queries.view", "queries.heads"},
                      {"keys", "keys.view", "keys.heads"},
                      {"values", "values.view", "values.heads"},
                      {"context.heads", "context.transposed", "context.merged"}};
    ref.extras["x"] = Values::of(ref.x);
    return ref;
}

} // namespace attnlab
