// What differs at a divergence in the learner's own terms, read from the values: weights whose rows no
// longer sum to 1, scores scaled by the wrong width, the mask on the wrong cells. Said when the values
// show it, so compare never has to fall back on a known bug the learner did not write.
#include "lessons/compare_recording.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace attnlab {

namespace {

std::string number(double v, const char* format = "%.4g")
{
    char text[32];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

// Softmax over the last axis of `scores / scale` (masked cells, -inf, give 0), as torch.softmax does.
Values softmax_scaled(const Values& scores, double scale)
{
    Values out{scores.shape, std::vector<float>(scores.data.size())};
    const std::size_t n = scores.shape.empty() ? 0 : static_cast<std::size_t>(scores.shape.back());
    for (std::size_t row = 0; n > 0 && row + n <= scores.data.size(); row += n) {
        double top = -std::numeric_limits<double>::infinity(), sum = 0;
        for (std::size_t j = 0; j < n; ++j)
            top = std::max(top, scores.data[row + j] / scale);
        for (std::size_t j = 0; j < n; ++j)
            sum += std::exp(scores.data[row + j] / scale - top);
        for (std::size_t j = 0; j < n; ++j)
            out.data[row + j] = static_cast<float>(std::exp(scores.data[row + j] / scale - top) / sum);
    }
    return out;
}

// The scale a learner divided by, when softmax(masked scores / sqrt(k)) is what they computed for a
// width k the module has, other than head_dim.
std::string wrong_scale(const Values& v, const BookReference& ref, const Values& masked, const std::string& var)
{
    const Config& c = ref.config;
    const std::int64_t head_dim = c.head_dim();
    const std::int64_t tokens = ref.x.dim() >= 2 ? ref.x.size(-2) : 0;
    const std::vector<std::pair<std::int64_t, std::string>> widths = {{1, "1, no scaling at all"},
                                                                      {c.d_in, "d_in"},
                                                                      {c.d_out, "d_out"},
                                                                      {c.num_heads, "num_heads"},
                                                                      {tokens, "num_tokens"}};
    for (const auto& [k, name] : widths) {
        if (k <= 0 || k == head_dim || !values_close(v, softmax_scaled(masked, std::sqrt(static_cast<double>(k)))))
            continue;
        std::string names;
        for (const auto& [k2, name2] : widths)
            if (k2 == k && k2 != 1)
                names += (names.empty() ? "" : " and ") + name2;
        if (k == 1)
            names = name;
        return "your " + var + " is the softmax of the scores divided by sqrt(" + std::to_string(k) + ") (" + names +
               ") where the book divides by sqrt(head_dim) = sqrt(" + std::to_string(head_dim) +
               "); scale by keys.shape[-1]**0.5, the width of one head's keys.";
    }
    return {};
}

// Masked cells (-inf) where the book keeps a score, or scores where the book masks.
std::string wrong_mask(const Values& v, const Values& masked, const std::string& var,
                       std::optional<std::int64_t> window)
{
    // Counted in the first query x key matrix: every head and sequence has the same mask.
    const auto n = static_cast<std::size_t>(v.shape.size() >= 2 ? v.shape.back() * v.shape[v.shape.size() - 2] : 0);
    std::size_t hidden = 0, kept = 0, mine = 0;
    for (std::size_t i = 0; i < n && i < v.data.size() && i < masked.data.size(); ++i) {
        const bool v_masked = std::isinf(v.data[i]) && v.data[i] < 0, book_masked = std::isinf(masked.data[i]);
        mine += v_masked;
        hidden += v_masked && !book_masked;
        kept += !v_masked && book_masked;
    }
    if (mine == 0 || (hidden == 0 && kept == 0))
        return {};
    return "your " + var + " hides " + std::to_string(hidden) +
           " scores of each query x key matrix that the book "
           "keeps and keeps " +
           std::to_string(kept) +
           " that it hides: the causal mask hides the tokens after each query, above the diagonal, "
           "torch.triu(torch.ones(context_length, context_length), diagonal=1)" +
           (window ? ", and the sliding window also the keys " + std::to_string(*window) +
                         " or more tokens back, torch.tril(torch.ones(context_length, context_length), diagonal=-" +
                         std::to_string(*window) + ")."
                   : std::string("."));
}

// Zeros where the book's weights are 0 (the future) but rows that no longer add up to 1.
std::string rows_not_summing(const Values& v, const Values& weights, const std::string& var, int line)
{
    const std::size_t n = v.shape.empty() ? 0 : static_cast<std::size_t>(v.shape.back());
    double worst = 1;
    for (std::size_t i = 0; i < v.data.size() && i < weights.data.size(); ++i)
        if (!std::isfinite(v.data[i]) || v.data[i] < 0 || (weights.data[i] == 0 && v.data[i] != 0))
            return {};
    for (std::size_t row = 0; n > 0 && row + n <= v.data.size(); row += n) {
        double sum = 0;
        for (std::size_t j = 0; j < n; ++j)
            sum += v.data[row + j];
        if (std::abs(sum - 1) > std::abs(worst - 1))
            worst = sum;
    }
    if (std::abs(worst - 1) <= 1e-3)
        return {};
    return "the rows of your " + var + (line > 0 ? " (line " + std::to_string(line) + ")" : std::string()) +
           " no longer sum to 1 (one sums to " + number(worst, "%.4f") +
           "): zeroing the future after the softmax takes weight away without giving it back, so mask the scores "
           "with -inf before the softmax, or divide each row by its sum, as section 3.5.1 does.";
}

// Each key/value head tiled, repeat(1, group_size, 1, 1), where the module repeat_interleaves: query head h gets
// key/value head h mod num_kv_groups instead of h / group_size.
std::string tiled_not_interleaved(const Values& v, const BookReference& ref, const RecordingDivergence& d)
{
    const Config& c = ref.config;
    const StageFacts facts = stage_facts(d.stage);
    const bool keys = facts.base_name == stage::keys_repeated;
    const ReferenceStage* heads = ref.find(keys ? stage::keys_heads : stage::values_heads);
    if (!c.is_grouped() || (!keys && facts.base_name != stage::values_repeated) || !heads || !heads->value ||
        heads->shape.size() != 4 || v.shape.size() != 4 || v.shape[1] != c.num_heads || c.group_size() < 2)
        return {};
    const Shape& g = heads->shape; // (b, num_kv_groups, n, head_dim)
    const std::size_t block = static_cast<std::size_t>(g[2] * g[3]);
    Values tiled{v.shape, {}};
    for (std::int64_t b = 0; b < g[0]; ++b)
        for (std::int64_t h = 0; h < c.num_heads; ++h) {
            const auto from = heads->value->data.begin() + static_cast<std::ptrdiff_t>((b * g[1] + h % g[1]) * block);
            tiled.data.insert(tiled.data.end(), from, from + static_cast<std::ptrdiff_t>(block));
        }
    if (!values_close(v, tiled))
        return {};
    const std::string var = d.variable.empty() ? std::string("tensor") : d.variable;
    return "your " + var + (d.line > 0 ? " (line " + std::to_string(d.line) + ")" : std::string()) + " tiles the " +
           std::to_string(c.num_kv_groups) + (keys ? " key" : " value") +
           " heads, as repeat(1, group_size, 1, 1) does, so query head 1 reads " + (keys ? "key" : "value") +
           " head 1: the module repeats each head for its own group of " + std::to_string(c.group_size()) +
           " consecutive query heads with repeat_interleave(group_size, dim=1), so query heads " +
           (c.group_size() == 2 ? std::string("0 and 1 both") : "0 to " + std::to_string(c.group_size() - 1) + " all") +
           " read head 0.";
}

// The right numbers in the missing stage's shape, laid out as the stage before it: a view or reshape
// where the book transposes, said as the transpose to add.
std::string relaid_layout(const BookReference& ref, const RecordingDivergence& d)
{
    const ReferenceStage* held = ref.find(d.relaid);
    const std::string var = d.variable.empty() ? std::string("tensor") : d.variable;
    std::string text = "your " + var + (d.line > 0 ? " (line " + std::to_string(d.line) + ")" : std::string()) +
                       " holds the book's " + d.relaid + " " + (held ? shape_to_string(held->shape) : std::string()) +
                       " read straight into " + shape_to_string(d.recorded_shape) + ", ";
    const StageFacts missing = stage_facts(d.stage);
    if (missing.base_name == stage::context_transposed)
        return text +
               "head by head, so each row mixes one head's tokens: transpose(1, 2) back to (b, num_tokens, "
               "num_heads, head_dim) before merging the heads, as the book's " +
               stage::context_transposed + " does.";
    if (missing.layout == LayoutOp::HeadsFirst || missing.base_name == stage::context_heads) // the "*.heads" stages
        return text +
               "token by token, so each head mixes tokens: view to (b, num_tokens, num_heads, head_dim) and "
               "then transpose(1, 2), as the book's " +
               d.stage + " does.";
    return text + "the same numbers in another order: the book's " + d.stage + " " + shape_to_string(d.book_shape) +
           " transposes them.";
}

} // namespace

std::string divergence_symptom(const Recording& rec, const BookReference& ref, const RecordingDivergence& d)
{
    if (d.event < 0 || d.kind != "values")
        return {};
    if (!d.relaid.empty())
        return relaid_layout(ref, d);
    if (std::string s = tiled_not_interleaved(Values::of(rec.events[static_cast<std::size_t>(d.event)].value), ref, d);
        !s.empty())
        return s;
    const std::string prefix = d.scope.empty() ? std::string() : d.scope + ".";
    const ReferenceStage* masked = ref.find(prefix + stage::attn_scores_masked);
    const ReferenceStage* weights = ref.find(prefix + stage::attn_weights);
    if (!masked || !masked->value || !weights || !weights->value)
        return {};
    const RecordedEvent& first = rec.events[static_cast<std::size_t>(d.event)];
    const Values v = Values::of(first.value);
    if (v.shape == masked->shape) {
        if (std::string s = wrong_mask(v, *masked->value, first.variable, ref.config.window_size); !s.empty())
            return s;
        if (std::string s = wrong_scale(v, ref, *masked->value, first.variable); !s.empty())
            return s;
    }
    for (std::size_t i = static_cast<std::size_t>(d.event); i < rec.events.size(); ++i) {
        const RecordedEvent& e = rec.events[i];
        if (e.scope != d.scope || !e.value.defined() || e.shape != weights->shape)
            continue;
        if (std::string s = rows_not_summing(Values::of(e.value), *weights->value, e.variable, e.line); !s.empty())
            return s;
    }
    return {};
}

} // namespace attnlab
