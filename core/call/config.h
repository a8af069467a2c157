#pragma once
// The constructor settings of the book's six attention modules, and what is wrong or worth
// knowing about them. Diagnostics carry stable codes so the GUI, CLI and tests agree.
#include "call/diagnostic_code.h"
#include "call/slot.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// SimpleSelfAttention is section 3.3's attention without trainable weights (no constructor
// arguments; its d_in, and so its d_out, is the input's width). GroupedQueryAttention is
// MultiHeadAttention with its keys and values narrowed to num_kv_groups heads, each shared by a group of
// query heads (the book's bonus material; Hugging Face configs say num_key_value_heads). Appended last:
// the values are stored.
enum class ModuleKind {
    SelfAttentionV1,
    SelfAttentionV2,
    CausalAttention,
    MultiHeadAttentionWrapper,
    MultiHeadAttention,
    SimpleSelfAttention,
    GroupedQueryAttention
};

// "heads.3.": the wrapper's ModuleList entry for one head, as stage and parameter names start.
std::string head_prefix(std::int64_t head);
// The head a name starts with a head_prefix for ("heads.3.attn_weights": 3), and the length of that
// prefix; nullopt when the name has none.
struct HeadPrefix {
    int head = 0;
    std::size_t length = 0;
};
std::optional<HeadPrefix> find_head_prefix(std::string_view name);
std::string module_class_name(ModuleKind kind); // "MultiHeadAttention"
std::optional<ModuleKind> module_kind_from_name(const std::string& name);
// Slot names of the constructor, in positional order, e.g. d_in, d_out, context_length, ...
const std::vector<std::string>& module_slots(ModuleKind kind);

struct Config {
    ModuleKind kind = ModuleKind::MultiHeadAttention;
    std::int64_t d_in = 768;
    std::int64_t d_out = 768;
    std::int64_t context_length = 1024;
    double dropout = 0.0;
    std::int64_t num_heads = 12;
    bool qkv_bias = false;
    // GroupedQueryAttention's key/value heads; the other modules have none of their own and ignore it.
    std::int64_t num_kv_groups = 4;
    // GroupedQueryAttention's sliding window: each token sees at most the window_size latest tokens, itself
    // included; none (Python's None) is the whole causal context. Set only when the call gives one.
    std::optional<std::int64_t> window_size;

    // MultiHeadAttention and GroupedQueryAttention: one wide projection per role, split into heads.
    bool is_integrated() const
    {
        return kind == ModuleKind::MultiHeadAttention || kind == ModuleKind::GroupedQueryAttention;
    }
    bool is_grouped() const { return kind == ModuleKind::GroupedQueryAttention; }
    bool has_heads() const { return is_integrated() || kind == ModuleKind::MultiHeadAttentionWrapper; }
    bool is_causal() const
    {
        return kind != ModuleKind::SelfAttentionV1 && kind != ModuleKind::SelfAttentionV2 &&
               kind != ModuleKind::SimpleSelfAttention;
    }
    bool is_batched() const { return is_causal(); } // the SelfAttention modules take (T, d_in)
    std::int64_t head_dim() const { return is_integrated() && num_heads > 0 ? d_out / num_heads : d_out; }
    // The key/value heads: num_kv_groups in GroupedQueryAttention, one per query head elsewhere.
    std::int64_t kv_heads() const { return is_grouped() ? num_kv_groups : has_heads() ? num_heads : 1; }
    // The query heads that share one key/value head (num_heads / num_kv_groups); 1 outside GQA.
    std::int64_t group_size() const { return is_grouped() && num_kv_groups > 0 ? num_heads / num_kv_groups : 1; }
    // The width of the key and value projections: num_kv_groups × head_dim in GQA, d_out elsewhere.
    std::int64_t kv_width() const { return is_grouped() ? num_kv_groups * head_dim() : d_out; }
    bool kv_groups_split_heads() const { return num_kv_groups > 0 && num_heads % num_kv_groups == 0; }
    // num_heads cuts d_out into heads of equal size, as the integrated module's __init__ asserts.
    bool heads_split_d_out() const { return num_heads > 0 && d_out % num_heads == 0; }
    std::int64_t output_width() const; // wrapper: num_heads * d_out
    bool operator==(const Config&) const = default;
};

// A canonical call with keywords, in slot order, e.g.
// MultiHeadAttention(d_in=768, d_out=768, context_length=1024, dropout=0.0, num_heads=12, qkv_bias=False)
std::string canonical_call(const Config& config);
// The short positional form the book writes: MultiHeadAttention(768, 768, 1024, 0.0, 12)
std::string positional_call(const Config& config);

enum class Severity { Note, Warning, Error };
std::string severity_name(Severity severity); // "note", "warning", "error"

// A one-click fix the GUI can offer: set `slot` to `value`.
struct Fix {
    Slot slot = Slot::d_in;
    std::int64_t value = 0;
    bool operator==(const Fix&) const = default;
};

struct Diagnostic {
    DiagnosticCode code = DiagnosticCode::Engine;
    Severity severity = Severity::Error;
    std::optional<Slot> slot; // the slot it concerns; none when general
    std::string message;      // one sentence: what, where, what would be valid
    std::vector<Fix> fixes;
    // A fix that rewrites the whole call (a likely swap: two values trade places); empty when none.
    std::string call_fix;
};

struct InputShape {
    std::int64_t batch = 1;
    std::int64_t num_tokens = 6;
};

// Everything worth saying about a config (and, when given, the input it will see).
std::vector<Diagnostic> validate(const Config& config, std::optional<InputShape> input = std::nullopt);
bool has_error(const std::vector<Diagnostic>& diagnostics);

// Divisors of n in increasing order; the valid num_heads for d_out = n.
std::vector<std::int64_t> divisors(std::int64_t n);

} // namespace attnlab
