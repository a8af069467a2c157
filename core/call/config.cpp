// Names, slots and the two printed forms of a call. Validation lives in config_validate.cpp.
#include "call/config.h"

#include "call/python_repr.h"

#include <array>
#include <limits>

namespace attnlab {

namespace {

struct ModuleInfo {
    ModuleKind kind;
    const char* name;
    std::vector<std::string> slots;
};

const std::array<ModuleInfo, 7>& modules()
{
    static const std::array<ModuleInfo, 7> table = {{
        {ModuleKind::SimpleSelfAttention, "SimpleSelfAttention", {}},
        {ModuleKind::SelfAttentionV1, "SelfAttention_v1", {"d_in", "d_out"}},
        {ModuleKind::SelfAttentionV2, "SelfAttention_v2", {"d_in", "d_out", "qkv_bias"}},
        {ModuleKind::CausalAttention, "CausalAttention", {"d_in", "d_out", "context_length", "dropout", "qkv_bias"}},
        {ModuleKind::MultiHeadAttentionWrapper,
         "MultiHeadAttentionWrapper",
         {"d_in", "d_out", "context_length", "dropout", "num_heads", "qkv_bias"}},
        {ModuleKind::MultiHeadAttention,
         "MultiHeadAttention",
         {"d_in", "d_out", "context_length", "dropout", "num_heads", "qkv_bias"}},
        {ModuleKind::GroupedQueryAttention,
         "GroupedQueryAttention",
         {"d_in", "d_out", "context_length", "dropout", "num_heads", "num_kv_groups", "qkv_bias", "window_size"}},
    }};
    return table;
}

const ModuleInfo& info(ModuleKind kind)
{
    for (const auto& m : modules())
        if (m.kind == kind)
            return m;
    return modules().back();
}

std::string slot_text(const Config& c, const std::string& slot)
{
    if (slot == "d_in")
        return std::to_string(c.d_in);
    if (slot == "d_out")
        return std::to_string(c.d_out);
    if (slot == "context_length")
        return std::to_string(c.context_length);
    if (slot == "dropout")
        return python_float_repr(c.dropout);
    if (slot == "num_heads")
        return std::to_string(c.num_heads);
    if (slot == "num_kv_groups")
        return std::to_string(c.num_kv_groups);
    if (slot == "window_size")
        return c.window_size ? std::to_string(*c.window_size) : "None";
    return c.qkv_bias ? "True" : "False";
}

// qkv_bias has a default; the short forms leave it out when it keeps that default. The golden files
// record the wrapper without it, the other classes with it.
bool omit_slot(const Config& c, const std::string& slot, bool positional)
{
    if (slot == "window_size") // None, its default, is left out of both forms; a window is written by keyword
        return !c.window_size;
    if (slot != "qkv_bias" || c.qkv_bias)
        return false;
    return positional || c.kind == ModuleKind::MultiHeadAttentionWrapper;
}

std::string call_text(const Config& c, bool positional)
{
    std::string out = module_class_name(c.kind) + "(";
    bool first = true;
    for (const auto& slot : module_slots(c.kind)) {
        if (omit_slot(c, slot, positional))
            continue;
        if (!first)
            out += ", ";
        first = false;
        if (!positional || slot == "window_size") // after qkv_bias, which the short form may leave out
            out += slot + "=";
        out += slot_text(c, slot);
    }
    return out + ")";
}

} // namespace

// The wrapper's ModuleList attribute: its heads' stage and parameter names start "heads.{h}.".
constexpr std::string_view kHeads = "heads.";

std::string head_prefix(std::int64_t head)
{
    return std::string(kHeads) + std::to_string(head) + ".";
}

std::optional<HeadPrefix> find_head_prefix(std::string_view name)
{
    if (!name.starts_with(kHeads))
        return std::nullopt;
    const std::size_t digits_start = kHeads.size(), dot = name.find('.', digits_start);
    if (dot == std::string_view::npos || dot == digits_start)
        return std::nullopt;
    int head = 0;
    for (char c : name.substr(digits_start, dot - digits_start)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        head = head * 10 + (c - '0');
    }
    return HeadPrefix{head, dot + 1};
}

std::string module_class_name(ModuleKind kind)
{
    return info(kind).name;
}

std::optional<ModuleKind> module_kind_from_name(const std::string& name)
{
    for (const auto& m : modules())
        if (name == m.name)
            return m.kind;
    return std::nullopt;
}

const std::vector<std::string>& module_slots(ModuleKind kind)
{
    return info(kind).slots;
}

std::int64_t Config::output_width() const
{
    if (kind != ModuleKind::MultiHeadAttentionWrapper)
        return d_out;
    std::int64_t width = 0;
    // Saturate rather than overflow: a width this large is refused long before anything is allocated.
    if (__builtin_mul_overflow(num_heads, d_out, &width))
        return (num_heads < 0) != (d_out < 0) ? std::numeric_limits<std::int64_t>::min()
                                              : std::numeric_limits<std::int64_t>::max();
    return width;
}

std::string canonical_call(const Config& config)
{
    return call_text(config, false);
}

std::string positional_call(const Config& config)
{
    return call_text(config, true);
}

std::string severity_name(Severity severity)
{
    switch (severity) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "error";
}

bool has_error(const std::vector<Diagnostic>& diagnostics)
{
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error)
            return true;
    return false;
}

} // namespace attnlab
