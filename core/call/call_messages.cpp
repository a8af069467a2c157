#include "call/call_messages.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>

namespace attnlab {

namespace {

// GroupedQueryAttention first: walked from the end, a keyword every multi-head class takes names
// MultiHeadAttention, and num_kv_groups or window_size, which only it takes, name it.
const std::array<ModuleKind, 7> kKinds = {ModuleKind::GroupedQueryAttention, ModuleKind::SimpleSelfAttention,
                                          ModuleKind::SelfAttentionV1,       ModuleKind::SelfAttentionV2,
                                          ModuleKind::CausalAttention,       ModuleKind::MultiHeadAttentionWrapper,
                                          ModuleKind::MultiHeadAttention};

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    return out;
}

// Levenshtein distance, case-insensitive. Callers bound the lengths, so the table stays small.
std::size_t edit_distance(std::string_view a_text, std::string_view b_text)
{
    const std::string a = lower(a_text), b = lower(b_text);
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// Names students carry over from GPT configs and other code, mapped to the slot they mean.
std::string alias_of(const std::string& keyword)
{
    static const std::array<std::pair<const char*, const char*>, 10> aliases = {{{"block_size", "context_length"},
                                                                                 {"context_len", "context_length"},
                                                                                 {"n_ctx", "context_length"},
                                                                                 {"n_heads", "num_heads"},
                                                                                 {"n_head", "num_heads"},
                                                                                 {"heads", "num_heads"},
                                                                                 {"drop_rate", "dropout"},
                                                                                 {"dropout_rate", "dropout"},
                                                                                 {"bias", "qkv_bias"},
                                                                                 {"p", "dropout"}}};
    for (const auto& [from, to] : aliases)
        if (keyword == from)
            return to;
    return {};
}

} // namespace

std::string describe_char(char c)
{
    if (c == '\'')
        return "\"'\"";
    if (c >= 0x20 && c < 0x7f)
        return std::string{'\'', c, '\''};
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "'\\x%02x'", static_cast<unsigned>(static_cast<unsigned char>(c)));
    return buffer;
}

std::string clip(std::string_view text)
{
    // On one line: a run of spaces, line breaks or other control characters becomes one space (a call typed
    // over several lines, or read from a session file, was echoed with its line breaks, and a refusal is
    // one sentence on one line). A long echo is cut at a character, not inside a UTF-8 sequence.
    std::string flat;
    for (const char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u > 0x20 && u != 0x7f)
            flat += c;
        else if (!flat.empty() && flat.back() != ' ')
            flat += ' ';
    }
    if (flat.size() <= 40)
        return flat;
    std::size_t cut = 37;
    while (cut > 0 && (static_cast<unsigned char>(flat[cut]) & 0xC0) == 0x80)
        --cut;
    flat.resize(cut);
    return flat + "...";
}

std::string list_words(const std::vector<std::string>& words, const char* last_joiner)
{
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? last_joiner : ", ") + words[i];
    return out;
}

std::string ordinal(std::size_t n)
{
    const char* suffix = n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

std::string unknown_class_message(const std::string& name)
{
    std::vector<std::string> names;
    std::string best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (std::size_t i = 1; i <= kKinds.size(); ++i) { // the book's classes in its order, then the grouped one
        names.push_back(module_class_name(kKinds[i % kKinds.size()]));
        const std::size_t d = name.size() <= 64 ? edit_distance(name, names.back()) : best_distance;
        if (d < best_distance) {
            best_distance = d;
            best = names.back();
        }
    }
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + a temporary std::string.
    std::string message = "'";
    message += clip(name);
    message += "' is not one of the attention classes this lab knows (";
    message += list_words(names, " or ");
    message += ")";
    message += best.empty() ? "." : "; did you mean " + best + "?";
    return message;
}

std::string unknown_keyword_message(ModuleKind kind, const std::string& keyword)
{
    const auto& slots = module_slots(kind);
    const std::string cls = module_class_name(kind);
    const std::string listing = slots.empty() ? "it takes no arguments" : "its arguments are " + list_words(slots);
    // The window is the lab's GroupedQueryAttention's, which with a key/value head per query head is this module.
    if (kind == ModuleKind::MultiHeadAttention && keyword == "window_size")
        return cls + " takes no argument 'window_size' (the book's class has no sliding window); write "
                     "GroupedQueryAttention(d_in, d_out, context_length, dropout, num_heads, num_kv_groups=num_heads, "
                     "window_size=w), which with as many key/value heads as query heads is MultiHeadAttention with a "
                     "window.";
    // Prefer naming the integrated MultiHeadAttention, the class the lessons build up to.
    for (auto other = kKinds.rbegin(); other != kKinds.rend(); ++other) {
        const auto& theirs = module_slots(*other);
        if (std::find(theirs.begin(), theirs.end(), keyword) != theirs.end())
            return cls + " takes no argument '" + clip(keyword) + "' (" + module_class_name(*other) + " does); " +
                   listing + ".";
    }
    std::string suggestion = alias_of(keyword);
    if (std::find(slots.begin(), slots.end(), suggestion) == slots.end())
        suggestion.clear();
    std::size_t best = std::numeric_limits<std::size_t>::max();
    for (const auto& slot : slots) {
        const std::size_t d = keyword.size() <= 64 ? edit_distance(keyword, slot) : best;
        if (suggestion.empty() && d < best && d <= std::max<std::size_t>(2, slot.size() / 3)) {
            best = d;
            suggestion = slot;
        }
    }
    return cls + " has no argument named '" + clip(keyword) + "'" +
           (suggestion.empty() ? "" : " (did you mean '" + suggestion + "'?)") + "; " + listing + ".";
}

} // namespace attnlab
