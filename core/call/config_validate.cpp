// What is wrong or worth knowing about a config: errors the module would raise (or silently get
// wrong), and notes on the book's traps. Each message is one sentence a student can act on.
#include "call/config.h"

#include "call/python_repr.h"

#include <algorithm>

namespace attnlab {

namespace {

using std::to_string;

bool has_slot(const Config& c, const std::string& slot)
{
    const auto& slots = module_slots(c.kind);
    return std::find(slots.begin(), slots.end(), slot) != slots.end();
}

Diagnostic make(DiagnosticCode code, Severity severity, Slot slot, std::string message, std::vector<Fix> fixes = {})
{
    return Diagnostic{code, severity, slot, std::move(message), std::move(fixes), {}};
}

std::string join(const std::vector<std::int64_t>& values)
{
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i == 0 ? "" : ", ") + to_string(values[i]);
    return out;
}

// n / d with enough decimals to show it is not whole: 770 / 12 -> "64.17", 1999 / 1000 -> "1.999".
// Integer arithmetic keeps it exact and independent of the C locale's decimal separator.
std::string quotient_text(std::int64_t n, std::int64_t d)
{
    using u128 = unsigned __int128;
    const auto rest = static_cast<u128>(n % d);
    u128 scale = 1;
    for (int places = 1; places <= 18; ++places) {
        scale *= 10;
        const u128 scaled = (rest * scale * 2 + static_cast<u128>(d)) / (2 * static_cast<u128>(d)); // rounded
        if (places < 2 || scaled == 0 || scaled == scale)
            continue;
        std::string digits = to_string(static_cast<std::uint64_t>(scaled));
        digits.insert(0, static_cast<std::size_t>(places) - digits.size(), '0');
        return to_string(n / d) + "." + digits.substr(0, digits.find_last_not_of('0') + 1);
    }
    return to_string(n / d) + " remainder " + to_string(n % d);
}

// a * b for positive a, b without overflow, for messages about widths past int64.
std::string product_text(std::int64_t a, std::int64_t b)
{
    auto product = static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b);
    std::string digits;
    do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(product % 10)));
        product /= 10;
    } while (product > 0);
    return digits;
}

void check_positive(const Config& c, Slot slot, std::int64_t value, const char* role, std::vector<Diagnostic>& out)
{
    const std::string name = slot_name(slot);
    if (has_slot(c, name) && value <= 0)
        out.push_back(make(DiagnosticCode::NonPositive, Severity::Error, slot,
                           name + " = " + to_string(value) + " must be a positive integer, since it is " + role + "."));
}

Diagnostic head_split(const Config& c)
{
    const std::int64_t d_out = c.d_out, heads = c.num_heads;
    const auto valid = divisors(d_out);
    const auto above = std::upper_bound(valid.begin(), valid.end(), heads);
    std::vector<Fix> fixes = {{Slot::num_heads, *(above - 1)}};
    if (above != valid.end())
        fixes.push_back({Slot::num_heads, *above});

    // Few divisors: list them all. Many: the ones nearest num_heads, then point at the rest.
    std::string listing;
    if (valid.size() <= 16) {
        listing = "the valid head counts for d_out = " + to_string(d_out) + " are its divisors " + join(valid);
    } else {
        const auto index = static_cast<std::ptrdiff_t>(above - valid.begin());
        const auto first = valid.begin() + std::max<std::ptrdiff_t>(0, index - 3);
        const auto last =
            valid.begin() + std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(valid.size()), index + 3);
        listing = "the valid head counts are all divisors of " + to_string(d_out) + ", those near " + to_string(heads) +
                  " being " + join(std::vector<std::int64_t>(first, last));
    }
    std::string heads_text = to_string(fixes[0].value);
    if (fixes.size() > 1)
        heads_text += " or " + to_string(fixes[1].value);

    std::string width_text;
    const std::int64_t lower = d_out / heads * heads;
    std::int64_t upper = 0;
    if (lower > 0)
        fixes.push_back({Slot::d_out, lower});
    if (!__builtin_add_overflow(lower, heads, &upper))
        fixes.push_back({Slot::d_out, upper});
    if (lower > 0 && upper > 0)
        width_text = "d_out = " + to_string(lower) + " or " + to_string(upper);
    else if (upper > 0)
        width_text = "d_out = " + to_string(upper);
    else
        width_text = "d_out = " + to_string(lower);

    // d_in = d_out is a transformer block's width (GPT-2's 768): its residual adds the output to the input, so there a
    // new d_out is no option, though the module alone takes it.
    const std::string residual =
        c.d_in == d_out ? " (the module alone takes any d_out, but in a GPT block, whose residual adds the output to "
                          "the " +
                              to_string(c.d_in) + "-wide input, d_out stays " + to_string(c.d_in) + ")"
                        : std::string();
    return make(DiagnosticCode::HeadSplit, Severity::Error, Slot::num_heads,
                "d_out = " + to_string(d_out) + " cannot be split evenly across num_heads = " + to_string(heads) +
                    " heads, because head_dim = d_out / num_heads = " + to_string(d_out) + " / " + to_string(heads) +
                    " = " + quotient_text(d_out, heads) + " is not a whole number; " + listing +
                    ", so use num_heads = " + heads_text + ", or keep " + to_string(heads) + " heads with " +
                    width_text + residual + ".",
                std::move(fixes));
}

// num_kv_groups key/value heads, each shared by num_heads / num_kv_groups query heads: the groups must be
// whole, as GroupedQueryAttention's __init__ asserts.
Diagnostic kv_group_split(const Config& c)
{
    const std::int64_t heads = c.num_heads, groups = c.num_kv_groups;
    const auto valid = divisors(heads);
    const auto above = std::upper_bound(valid.begin(), valid.end(), groups);
    std::vector<Fix> fixes;
    if (above != valid.begin())
        fixes.push_back({Slot::num_kv_groups, *(above - 1)});
    if (above != valid.end())
        fixes.push_back({Slot::num_kv_groups, *above});
    std::string nearest = to_string(fixes[0].value);
    if (fixes.size() > 1)
        nearest += " or " + to_string(fixes[1].value);
    const std::string why = groups > heads ? " is more key/value heads than the " + to_string(heads) + " query heads"
                                           : " does not divide num_heads = " + to_string(heads) +
                                                 " into whole groups (" + to_string(heads) + " / " + to_string(groups) +
                                                 " = " + quotient_text(heads, groups) + ")";
    return make(DiagnosticCode::KvGroupSplit, Severity::Error, Slot::num_kv_groups,
                "num_kv_groups = " + to_string(groups) + why +
                    ", but each key/value head serves a whole group of query heads; the valid values are the "
                    "divisors of " +
                    to_string(heads) + " (" + join(valid) + "), so use num_kv_groups = " + nearest + ".",
                std::move(fixes));
}

// A sliding window sees the window_size latest tokens, the query's own included: at least 1, and no wider than
// the causal mask it narrows (context_length), where it would change nothing.
void check_window(const Config& c, std::vector<Diagnostic>& out)
{
    if (!c.window_size || c.context_length <= 0)
        return;
    const std::int64_t w = *c.window_size, context = c.context_length;
    if (w >= 1 && w <= context)
        return;
    const std::int64_t nearest = w < 1 ? 1 : context;
    const std::string why = w < 1 ? " would let a token see no token at all, not even itself"
                                  : std::string(" is wider than context_length = ") + to_string(context) +
                                        ", the causal mask it narrows, so it would change nothing";
    out.push_back(make(DiagnosticCode::WindowRange, Severity::Error, Slot::window_size,
                       "window_size = " + to_string(w) + why + "; use a window of 1 to " + to_string(context) +
                           " tokens, such as " + to_string(nearest) +
                           ", or window_size=None for the whole causal context.",
                       {{Slot::window_size, nearest}}));
}

void check_input(const Config& c, const InputShape& input, std::vector<Diagnostic>& out)
{
    if (c.is_batched() && input.batch <= 0)
        out.push_back(make(DiagnosticCode::NonPositiveInput, Severity::Error, Slot::batch,
                           "the batch size is " + to_string(input.batch) +
                               ", but the input needs at least one sequence (batch >= 1)."));
    if (input.num_tokens <= 0)
        out.push_back(make(DiagnosticCode::NonPositiveInput, Severity::Error, Slot::num_tokens,
                           "the input has " + to_string(input.num_tokens) +
                               " tokens, but attention needs at least one token (num_tokens >= 1)."));
    if (c.is_causal() && c.context_length > 0 && input.num_tokens > c.context_length)
        out.push_back(
            make(DiagnosticCode::TokensExceedContext, Severity::Error, Slot::context_length,
                 "the input has " + to_string(input.num_tokens) +
                     " tokens but context_length = " + to_string(c.context_length) + ", and the causal mask is only " +
                     to_string(c.context_length) + " x " + to_string(c.context_length) +
                     ", so it cannot cover them; set context_length to at least " + to_string(input.num_tokens) + ".",
                 {{Slot::context_length, input.num_tokens}}));
}

void add_notes(const Config& c, std::vector<Diagnostic>& out)
{
    const bool mha = c.is_integrated();
    if (mha && c.d_out % c.num_heads == 0 && c.head_dim() < 8)
        out.push_back(make(DiagnosticCode::HeadDimSmall, Severity::Note, Slot::num_heads,
                           "each of the " + to_string(c.num_heads) + " heads gets head_dim = " + to_string(c.d_out) +
                               " / " + to_string(c.num_heads) + " = " + to_string(c.head_dim()) +
                               " features, which is fine for a toy example but tiny next to GPT-2's 64 per head."));
    if (c.d_in != c.d_out) {
        const std::string whose = c.kind == ModuleKind::MultiHeadAttentionWrapper ? "each head's" : "the";
        out.push_back(make(DiagnosticCode::DInNeDOut, Severity::Note, Slot::d_out,
                           "d_in = " + to_string(c.d_in) + " differs from d_out = " + to_string(c.d_out) +
                               ", which is allowed: the query, key and value projections map each " +
                               to_string(c.d_in) + "-wide token to width " + to_string(c.d_out) + ", so " + whose +
                               " output rows are " + to_string(c.d_out) + " wide, not " + to_string(c.d_in) + "."));
    }
    if (c.kind == ModuleKind::MultiHeadAttentionWrapper && c.num_heads > 1) {
        std::string advice;
        std::vector<Fix> fixes;
        if (c.d_out % c.num_heads == 0) {
            advice = "for a total width of " + to_string(c.d_out) +
                     " give each head d_out = " + to_string(c.d_out / c.num_heads);
            fixes.push_back({Slot::d_out, c.d_out / c.num_heads});
        } else {
            advice = "no whole per-head d_out gives a total width of " + to_string(c.d_out) + " with " +
                     to_string(c.num_heads) + " heads";
        }
        const std::string width_text = product_text(c.num_heads, c.d_out);
        out.push_back(make(DiagnosticCode::WrapperWidth, Severity::Note, Slot::d_out,
                           "MultiHeadAttentionWrapper concatenates its " + to_string(c.num_heads) +
                               " heads, each d_out wide, so the output width is num_heads * d_out = " +
                               to_string(c.num_heads) + " * " + to_string(c.d_out) + " = " + width_text +
                               ", not d_out = " + to_string(c.d_out) + "; " + advice + ".",
                           std::move(fixes)));
    }
    if (has_slot(c, "dropout") && c.dropout > 0.0 && c.dropout < 1.0)
        out.push_back(make(DiagnosticCode::DropoutEval, Severity::Note, Slot::dropout,
                           "dropout = " + python_float_repr(c.dropout) +
                               " acts only in training mode (model.train(), the training mode box): it then zeroes "
                               "each attention weight with probability " +
                               python_float_repr(c.dropout) +
                               " and scales the others by 1 / (1 - dropout); in eval mode (model.eval()) the "
                               "weights pass through unchanged."));
    if (has_slot(c, "dropout") && c.dropout == 1.0)
        out.push_back(make(DiagnosticCode::DropoutEval, Severity::Note, Slot::dropout,
                           "dropout = 1.0 zeroes every attention weight in training mode (nn.Dropout multiplies "
                           "them by 0), so the context vectors are all zero there; in eval mode the weights pass "
                           "through unchanged."));
}

} // namespace

std::vector<Diagnostic> validate(const Config& config, std::optional<InputShape> input)
{
    const Config& c = config;
    std::vector<Diagnostic> out;
    check_positive(c, Slot::d_in, c.d_in, "the width of each input token vector", out);
    check_positive(c, Slot::d_out, c.d_out, "the width each token is projected to", out);
    check_positive(c, Slot::context_length, c.context_length, "the number of tokens the causal mask covers", out);
    check_positive(c, Slot::num_heads, c.num_heads, "the number of attention heads", out);
    check_positive(c, Slot::num_kv_groups, c.num_kv_groups,
                   "the number of key/value heads the query heads share (1 for multi-query attention)", out);
    // nn.Dropout takes 0 <= p <= 1; at p = 1 it multiplies every weight by 0 (and draws nothing), as the engine does.
    if (has_slot(c, "dropout") && !(c.dropout >= 0.0 && c.dropout <= 1.0))
        out.push_back(make(DiagnosticCode::DropoutRange, Severity::Error, Slot::dropout,
                           "dropout = " + python_float_repr(c.dropout) +
                               " is outside [0, 1]: it is the probability of zeroing each attention weight during "
                               "training, so use a value such as 0.0 or 0.1."));
    const bool sizes_ok = c.d_in > 0 && c.d_out > 0 && (!c.has_heads() || c.num_heads > 0);
    if (sizes_ok && c.is_integrated() && c.d_out % c.num_heads != 0)
        out.push_back(head_split(c));
    if (c.is_grouped() && c.num_heads > 0 && c.num_kv_groups > 0 && !c.kv_groups_split_heads())
        out.push_back(kv_group_split(c));
    if (c.is_grouped())
        check_window(c, out);
    // Notes explain a working config; next to a broken one they only distract from the fix.
    const bool config_ok = !has_error(out);
    if (input)
        check_input(c, *input, out);
    if (config_ok)
        add_notes(c, out);
    return out;
}

} // namespace attnlab
