#include "lessons/predict.h"

#include "forward/module_source.h"
#include "tensor/error.h"
#include "text/utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace attnlab {

namespace {

constexpr std::int64_t kMaskAskedUpTo = 8; // tokens

std::string n(std::int64_t v)
{
    return std::to_string(v);
}

// The sentence that says where an axis's size comes from, with this config's numbers. `c` is the config
// of the module that recorded the stage (a wrapper head's own CausalAttention for heads.{h}.*).
std::string axis_explanation(Axis axis, const Config& c, const Config& whole, InputShape input)
{
    switch (axis) {
    case Axis::b: return "b = the batch size, " + n(input.batch);
    case Axis::num_tokens: return "num_tokens = the tokens in the input, " + n(input.num_tokens);
    case Axis::d_in: return "d_in = each input token's width, " + n(c.d_in);
    case Axis::d_out:
        return whole.kind == ModuleKind::MultiHeadAttentionWrapper ? "d_out = each head's width, " + n(c.d_out)
                                                                   : "d_out = the projection's width, " + n(c.d_out);
    case Axis::num_heads: return "num_heads = " + n(c.num_heads);
    case Axis::head_dim:
        return "head_dim = d_out / num_heads = " + n(c.d_out) + " / " + n(c.num_heads) + " = " + n(c.head_dim());
    case Axis::num_heads_x_d_out:
        return "num_heads × d_out = " + n(whole.num_heads) + " × " + n(whole.d_out) + " = " +
               n(whole.num_heads * whole.d_out) + ", the heads' outputs side by side";
    case Axis::num_kv_groups: return "num_kv_groups = the key/value heads, " + n(c.num_kv_groups);
    case Axis::kv_width:
        return "num_kv_groups × head_dim = " + n(c.num_kv_groups) + " × " + n(c.head_dim()) + " = " + n(c.kv_width()) +
               ", the key/value heads side by side";
    }
    return {};
}

std::optional<std::int64_t> whole_number(const std::string& text)
{
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || p != end || text.empty())
        return std::nullopt;
    return v;
}

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

} // namespace

bool PredictionCheck::all_right() const
{
    const auto ok = [](const std::optional<Verdict>& v) { return !v || v->right; };
    return std::all_of(axes.begin(), axes.end(), [](const Verdict& v) { return v.right; }) && ok(axis_count) &&
           ok(contiguous) && ok(shares_storage) && ok(mask);
}

StageQuestion question_for(const Trace& trace, std::string_view name)
{
    const Stage* s = trace.find(name);
    if (!s)
        throw Error("there is no stage '" + printable(name, 60) + "' to predict in this module.");
    const Config& whole = trace.config;
    Config c = whole;
    if (s->head >= 0)
        c.kind = ModuleKind::CausalAttention;
    const InputShape input{whole.is_batched() ? trace.stages.front().tensor.size(0) : 1,
                           trace.stages.front().tensor.size(-2)};
    StageQuestion q;
    q.stage = s->name;
    q.prompt = "What shape does " + s->name + " have?";
    q.given = "d_in = " + n(whole.d_in) + ", d_out = " + n(whole.d_out);
    if (whole.has_heads())
        q.given += ", num_heads = " + n(whole.num_heads);
    if (whole.is_grouped()) { // the shapes of keys and values depend on it
        q.given += ", num_kv_groups = " + n(whole.num_kv_groups);
        if (whole.window_size)
            q.given += ", window_size = " + n(*whole.window_size);
    }
    q.given += " · input: ";
    if (whole.is_batched())
        q.given += "batch = " + n(input.batch) + ", ";
    q.given += "num_tokens = " + n(input.num_tokens);
    const auto& source = module_source(whole.kind);
    if (const int line = source_line(whole.kind, s->name); line >= 0 && line < static_cast<int>(source.size())) {
        const std::string& text = source[static_cast<std::size_t>(line)];
        const std::size_t start = text.find_first_not_of(' ');
        q.code = start == std::string::npos ? std::string() : text.substr(start);
    }
    for (std::size_t a = 0; a < s->axes.size(); ++a)
        q.axes.push_back({s->axes[a], std::string(axis_name(s->axes[a])), s->tensor.shape()[a],
                          axis_explanation(s->axes[a], c, whole, input)});
    std::set<std::string> offered;
    for (const Stage& st : trace.stages)
        for (Axis a : st.axes)
            offered.insert(std::string(axis_name(a)));
    q.offered.assign(offered.begin(), offered.end());
    if (s->layout != LayoutOp::None && !s->derived_from.empty()) {
        const Stage* before = trace.find(s->derived_from);
        q.asks_layout = before != nullptr;
        q.layout_of = s->derived_from;
        q.contiguous = s->tensor.is_contiguous();
        q.shares_storage = before && s->tensor.shares_storage_with(before->tensor);
        q.prompt += " Is it contiguous, and does it share storage with " + s->derived_from + "?";
    }
    // Cell by cell on a short input; on a long one the pattern is the same and the question would be a wall.
    if (s->matrix == AttentionMatrix::MaskedScores && input.num_tokens <= kMaskAskedUpTo) {
        q.asks_mask = true;
        q.tokens = input.num_tokens;
        q.window = whole.window_size.value_or(0);
        const std::vector<float> scores = s->tensor.to_vector(); // the first (query, key) matrix leads
        for (std::int64_t i = 0; i < q.tokens; ++i)
            for (std::int64_t j = 0; j < q.tokens; ++j)
                if (const float v = scores[static_cast<std::size_t>(i * q.tokens + j)]; std::isinf(v) && v < 0)
                    q.hidden.emplace_back(i, j);
        q.prompt += " Which (query, key) positions does the mask hide?";
    }
    return q;
}

PredictionCheck check_prediction(const Trace& trace, const StageQuestion& q, const StageAnswer& answer)
{
    (void)trace;
    PredictionCheck check;
    std::string shape = "(";
    for (std::size_t a = 0; a < q.axes.size(); ++a)
        shape += (a ? ", " : "") + q.axes[a].name;
    shape += ")";
    if (answer.axes.size() != q.axes.size())
        check.axis_count =
            Verdict{false, q.stage + " has " + n(static_cast<std::int64_t>(q.axes.size())) + " axes, " + shape +
                               ", not " + n(static_cast<std::int64_t>(answer.axes.size())) + "."};
    for (std::size_t a = 0; a < q.axes.size(); ++a) {
        const AxisQuestion& axis = q.axes[a];
        const std::string given = a < answer.axes.size() ? trimmed(answer.axes[a]) : std::string();
        const std::string which = "axis " + n(static_cast<std::int64_t>(a)) + " is " + axis.explanation;
        std::optional<std::int64_t> value = whole_number(given);
        std::string named;
        if (!value) {
            const auto it =
                std::find_if(q.axes.begin(), q.axes.end(), [&](const AxisQuestion& x) { return x.name == given; });
            if (it != q.axes.end())
                value = it->size;
            else if (std::find(q.offered.begin(), q.offered.end(), given) != q.offered.end())
                for (const Stage& st : trace.stages)
                    for (std::size_t k = 0; k < st.axes.size() && !value; ++k)
                        if (axis_name(st.axes[k]) == given)
                            value = st.tensor.shape()[k];
            if (value)
                named = given;
        }
        if (given.empty()) {
            check.axes.push_back({false, which + "; no answer was given."});
        } else if (!value) {
            std::string names;
            for (const auto& o : q.offered)
                names += (names.empty() ? "" : ", ") + o;
            check.axes.push_back(
                {false, "'" + given + "' is neither a whole number nor one of " + names + "; " + which + "."});
        } else if (*value != axis.size) {
            check.axes.push_back(
                {false, which + ", not " + (named.empty() ? given : named + " (" + n(*value) + ")") + "."});
        } else if (!named.empty() && named != axis.name) {
            check.axes.push_back({true, "right in number: " + named + " equals " + axis.name + " here (" +
                                            n(axis.size) + "), but the axis is " + axis.explanation + "."});
        } else {
            check.axes.push_back({true, axis.explanation + "."});
        }
    }
    if (q.asks_layout) {
        const auto verdict = [](std::optional<bool> given, bool truth, const std::string& yes, const std::string& no) {
            if (!given)
                return Verdict{false, "no answer was given: " + (truth ? yes : no)};
            return Verdict{*given == truth, truth ? yes : no};
        };
        check.contiguous = verdict(answer.contiguous, q.contiguous, q.stage + " is contiguous.",
                                   q.stage + " is not contiguous: its strides no longer walk the storage in order.");
        check.shares_storage =
            verdict(answer.shares_storage, q.shares_storage,
                    q.stage + " is the same storage as " + q.layout_of + ": only the strides changed.",
                    q.stage + " is a copy: contiguous() moved the numbers into new storage.");
    }
    if (q.asks_mask) {
        std::set<std::pair<std::int64_t, std::int64_t>> marked(answer.hidden.begin(), answer.hidden.end());
        const std::set<std::pair<std::int64_t, std::int64_t>> right(q.hidden.begin(), q.hidden.end());
        std::int64_t wrong_hidden = 0, missed = 0;
        for (std::int64_t i = 0; i < q.tokens; ++i)
            for (std::int64_t j = 0; j < q.tokens; ++j) {
                const bool hidden = right.count({i, j}) > 0, said = marked.count({i, j}) > 0;
                wrong_hidden += said && !hidden;
                missed += hidden && !said;
            }
        const std::string rule =
            (q.window > 0 ? "the mask hides every key after its query, (i, j) with j > i, and the sliding window every "
                            "key " +
                                n(q.window) + " or more tokens back, i - j >= " + n(q.window) + ": "
                          : std::string("the mask hides every key after its query: (i, j) with j > i, ")) +
            n(static_cast<std::int64_t>(q.hidden.size())) + " of the " + n(q.tokens * q.tokens) + " positions";
        if (wrong_hidden == 0 && missed == 0)
            check.mask = Verdict{true, "Right: " + rule + "."};
        else
            check.mask =
                Verdict{false, "Not quite: " + rule + "; " + n(wrong_hidden) + " marked positions are visible and " +
                                   n(missed) + " hidden ones were not marked."};
    }
    return check;
}

} // namespace attnlab
