// The book's stages on a learner's weights and input. A port of tests/reference/book_stages.py: the same
// module rule, the same refusals (as a "config" problem the matcher reports), the same forms and extras;
// the stages themselves come from the engine's own traced forward.
#include "lessons/recording_reference.h"

#include "lessons/recording_stages.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <regex>
#include <set>

namespace attnlab {

namespace {

// load_state_dict(strict=False) followed by the probe's rule: nothing missing (but out_proj when
// allowed), nothing unexpected, every shape as the module's. Empty when the parameters fit.
std::string load_problem(const Config& config, const StateDict& params, bool allow_missing_out_proj)
{
    std::set<std::string> expected;
    for (const ParameterSpec& spec : parameter_specs(config)) {
        expected.insert(spec.name);
        const auto it = params.find(spec.name);
        if (it == params.end()) {
            if (allow_missing_out_proj && spec.name.starts_with("out_proj."))
                continue;
            return "it has no parameter " + spec.name;
        }
        if (it->second.shape() != spec.shape)
            return spec.name + " has shape " + shape_to_string(it->second.shape()) + ", the book's " +
                   shape_to_string(spec.shape);
    }
    for (const auto& [name, tensor] : params)
        if (!expected.count(name))
            return "the book's module has no parameter " + name;
    return {};
}

// A GroupedQueryAttention's num_kv_groups (stored, else W_key's rows / head_dim) and window_size (stored, else
// None); false with ref.problem set when they do not fit.
bool grouped_settings(const Recording& rec, BookReference& ref)
{
    Config& c = ref.config;
    const auto stored = [&](const char* name) -> std::optional<std::int64_t> {
        const auto it = rec.attributes.find(name);
        if (it == rec.attributes.end() || !it->second.integer || std::abs(it->second.value) > 1 << 30)
            return std::nullopt;
        return static_cast<std::int64_t>(it->second.value);
    };
    const auto key = ref.weights.find("W_key.weight");
    const std::int64_t key_rows = key != ref.weights.end() && key->second.dim() == 2 ? key->second.size(0) : 0;
    c.num_kv_groups = stored("num_kv_groups").value_or(c.head_dim() > 0 ? key_rows / c.head_dim() : 0);
    c.window_size = stored("window_size");
    if (!c.kv_groups_split_heads()) {
        ref.problem = "num_kv_groups " + std::to_string(c.num_kv_groups) + " does not divide num_heads " +
                      std::to_string(c.num_heads) + " into groups of equal size.";
        return false;
    }
    if (c.window_size && (*c.window_size < 1 || *c.window_size > c.context_length)) {
        ref.problem = "window_size " + std::to_string(*c.window_size) + " is outside 1 to context_length " +
                      std::to_string(c.context_length) + ".";
        return false;
    }
    return true;
}

} // namespace

const ReferenceStage* BookReference::find(const std::string& name) const
{
    for (const ReferenceStage& s : stages)
        if (s.name == name)
            return &s;
    return nullptr;
}

std::optional<ModuleKind> recorded_module_kind(const Recording& rec)
{
    static const std::regex head_query(R"(heads\.\d+\.W_query\.weight)");
    for (const auto& [name, tensor] : rec.parameters)
        if (std::regex_match(name, head_query))
            return ModuleKind::MultiHeadAttentionWrapper;
    const auto& p = rec.parameters;
    if (p.count("W_query") && p.at("W_query").dim() == 2)
        return ModuleKind::SelfAttentionV1;
    if (!p.count("W_query.weight"))
        return std::nullopt;
    // Keys narrower than the queries, or a stored num_kv_groups: grouped-query attention (book_stages.py's rule).
    const auto key = p.find("W_key.weight");
    const Tensor& query = p.at("W_query.weight");
    if (rec.attributes.count("num_kv_groups") ||
        (key != p.end() && key->second.dim() == 2 && query.dim() == 2 && key->second.size(0) < query.size(0)))
        return ModuleKind::GroupedQueryAttention;
    if (p.count("out_proj.weight") || rec.attributes.count("num_heads"))
        return ModuleKind::MultiHeadAttention;
    std::string lower = rec.class_name;
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool mask = std::find(rec.buffers.begin(), rec.buffers.end(), "mask") != rec.buffers.end();
    return mask || lower.find("causal") != std::string::npos ? ModuleKind::CausalAttention
                                                             : ModuleKind::SelfAttentionV2;
}

BookReference book_reference(const Recording& rec, std::int64_t given_heads)
{
    const auto kind = recorded_module_kind(rec);
    if (!kind)
        throw Error("'" + rec.path +
                    "' records weights that fit none of the book's five attention modules "
                    "(it needs W_query, W_key and W_value, as parameters or nn.Linear layers).");
    BookReference ref;
    ref.kind = *kind;
    ref.x = rec.input;
    ref.weights = rec.parameters;
    Config& c = ref.config;
    c.kind = *kind;
    c.dropout = 0.0;
    const std::string module = module_class_name(*kind);
    const std::string query = *kind == ModuleKind::SelfAttentionV1             ? "W_query"
                              : *kind == ModuleKind::MultiHeadAttentionWrapper ? "heads.0.W_query.weight"
                                                                               : "W_query.weight";
    const Tensor* q = ref.weights.count(query) ? &ref.weights.at(query) : nullptr;
    if (!q || q->dim() != 2) {
        ref.problem = "the recorded " + query + " is not a matrix, as the book's " + module + " keeps it.";
        return ref;
    }
    const bool v1 = *kind == ModuleKind::SelfAttentionV1;
    c.d_in = q->size(v1 ? 0 : 1);
    c.d_out = q->size(v1 ? 1 : 0);
    c.qkv_bias =
        ref.weights.count(*kind == ModuleKind::MultiHeadAttentionWrapper ? "heads.0.W_query.bias" : "W_query.bias") > 0;
    const std::int64_t dims = c.is_batched() ? 3 : 2;
    if (ref.x.dim() != dims || ref.x.size(-1) != c.d_in) {
        ref.problem = "the book's " + module + " takes " + std::to_string(dims) + "-D input of width " +
                      std::to_string(c.d_in) + ", but the recorded x is " + shape_to_string(ref.x.shape()) + ".";
        return ref;
    }
    // The recorded mask's size when there is one (GPT-2's 1,024), never less than the tokens it must cover.
    c.context_length = ref.x.size(-2);
    if (const auto it = rec.attributes.find("context_length");
        it != rec.attributes.end() && it->second.integer && it->second.value >= static_cast<double>(ref.x.size(-2)) &&
        it->second.value <= 1 << 20)
        c.context_length = static_cast<std::int64_t>(it->second.value);
    c.num_heads = 1;
    if (*kind == ModuleKind::MultiHeadAttentionWrapper) {
        std::int64_t heads = 0;
        for (const auto& [name, tensor] : ref.weights)
            if (name.starts_with("heads."))
                heads = std::max<std::int64_t>(heads, 1 + std::atoll(name.c_str() + 6));
        c.num_heads = std::min<std::int64_t>(heads, 4096);
    }
    if (c.is_integrated()) {
        const auto attr = [&](const char* name) {
            const auto it = rec.attributes.find(name);
            return it != rec.attributes.end() && it->second.integer ? static_cast<std::int64_t>(it->second.value) : 0;
        };
        c.num_heads = given_heads > 0 ? given_heads : attr("num_heads");
        if (c.num_heads == 0 && attr("head_dim") > 0)
            c.num_heads = c.d_out / attr("head_dim");
        if (c.num_heads == 0 && !rec.attributes.count("num_heads"))
            throw NumHeadsNeeded("'" + rec.path +
                                     "' does not record num_heads and the weights cannot say it "
                                     "(splitting d_out=" +
                                     std::to_string(c.d_out) + " into heads is a reshape); give it with --num-heads.",
                                 c.d_out);
        if (!c.heads_split_d_out()) {
            ref.problem = "num_heads " + std::to_string(c.num_heads) + " does not split d_out " +
                          std::to_string(c.d_out) + " into heads of equal size.";
            return ref;
        }
        ref.has_out_proj = ref.weights.count("out_proj.weight") > 0;
        if (c.is_grouped() && !grouped_settings(rec, ref)) // num_kv_groups and window_size, or the problem
            return ref;
    }
    try {
        if (const std::string p = load_problem(c, ref.weights, !ref.has_out_proj); !p.empty()) {
            ref.problem = "the recorded weights do not fit the book's " + module + ": " + p + ".";
            return ref;
        }
        return build_book_stages(std::move(ref));
    } catch (const Cancelled&) {
        throw;
    } catch (const Error& e) {
        ref.problem = "the book's " + module + " cannot run on the recorded weights and input: " + e.what();
        return ref;
    }
}

} // namespace attnlab
