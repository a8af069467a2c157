// The three designs' blocks, annotated from parameter_specs so the names are the engine's own (and
// PyTorch's: test_design_layout compares them with layout_cases.json).
#include "designs/design_layout.h"

#include "tensor/error.h"
#include "io/weights.h"

namespace attnlab {

namespace {

// Counts are int64 like PyTorch's numel; a call typed into the GUI can ask for more than that.
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const Config& call)
{
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out))
        throw Error("the parameter counts of " + canonical_call(call) +
                    " exceed a 64-bit integer; use widths whose products stay below 9.2e18.");
    return out;
}

std::int64_t checked_add(std::int64_t a, std::int64_t b, const Config& call)
{
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out))
        throw Error("the parameter counts of " + canonical_call(call) +
                    " exceed a 64-bit integer; use widths whose products stay below 9.2e18.");
    return out;
}

Role role_of(const std::string& name)
{
    if (name.find("W_query") != std::string::npos)
        return Role::Query;
    if (name.find("W_key") != std::string::npos)
        return Role::Key;
    if (name.find("W_value") != std::string::npos)
        return Role::Value;
    return Role::OutProj;
}

std::vector<HeadSlice> slices(std::int64_t heads, std::int64_t head_dim, int axis)
{
    std::vector<HeadSlice> out;
    for (std::int64_t h = 0; h < heads; ++h)
        out.push_back({h, axis, h * head_dim, (h + 1) * head_dim});
    return out;
}

Block block_of(const ParameterSpec& spec, const Config& module, const Config& call)
{
    Block b{spec.name, spec.shape, 1, role_of(spec.name), -1, spec.name.ends_with(".bias"), false, {}};
    for (std::int64_t extent : spec.shape)
        b.parameters = checked_mul(b.parameters, extent, call);
    if (spec.name.starts_with("heads.")) {
        b.head = std::stoll(spec.name.substr(6, spec.name.find('.', 6) - 6));
    } else if (module.is_grouped() && (b.role == Role::Key || b.role == Role::Value)) {
        b.head_slices = slices(module.num_kv_groups, module.head_dim(), 0); // key/value head g: a group's
    } else if (b.role != Role::OutProj) {
        b.head_slices = slices(module.num_heads, module.head_dim(), 0); // view hands head h these rows
    } else if (!b.is_bias) {
        b.head_slices = slices(module.num_heads, module.head_dim(), 1); // out_proj reads head h here
    }
    return b;
}

std::string unbuildable_reason(const Config& call, Design design)
{
    if (design == Design::Integrated || design == Design::Grouped) {
        Config module = call;
        module.kind = design == Design::Grouped ? ModuleKind::GroupedQueryAttention : ModuleKind::MultiHeadAttention;
        for (const Diagnostic& d : validate(module))
            if (d.code == DiagnosticCode::HeadSplit || d.code == DiagnosticCode::KvGroupSplit)
                return d.message;
    }
    const std::string d = std::to_string(call.d_out), h = std::to_string(call.num_heads);
    return "a wrapper with matched width needs d_out / num_heads = " + d + " / " + h +
           " features per head, which is not a whole number, so no wrapper of " + h + " equal heads is " + d + " wide.";
}

Config module_config(const Config& call, Design design)
{
    Config c = call;
    c.kind = design == Design::Integrated ? ModuleKind::MultiHeadAttention
             : design == Design::Grouped  ? ModuleKind::GroupedQueryAttention
                                          : ModuleKind::MultiHeadAttentionWrapper;
    if (design == Design::WrapperMatchedWidth)
        c.d_out = call.d_out / call.num_heads;
    return c;
}

} // namespace

const std::vector<Design>& all_designs()
{
    static const std::vector<Design> designs = {Design::Integrated, Design::WrapperSameCall,
                                                Design::WrapperMatchedWidth};
    return designs;
}

std::string design_key(Design design)
{
    switch (design) {
    case Design::Integrated: return "integrated";
    case Design::WrapperSameCall: return "wrapper_same_call";
    case Design::WrapperMatchedWidth: return "wrapper_matched_width";
    case Design::Grouped: return "grouped";
    }
    return {};
}

std::string design_title(Design design)
{
    switch (design) {
    case Design::Integrated: return "MultiHeadAttention";
    case Design::WrapperSameCall: return "Wrapper, same call";
    case Design::WrapperMatchedWidth: return "Wrapper, matched width";
    case Design::Grouped: return "GroupedQueryAttention";
    }
    return {};
}

std::string role_name(Role role)
{
    switch (role) {
    case Role::Query: return "query";
    case Role::Key: return "key";
    case Role::Value: return "value";
    case Role::OutProj: return "out_proj";
    case Role::Mask: return "mask";
    }
    return {};
}

const DesignLayout& DesignComparison::get(Design design) const
{
    return designs.at(static_cast<std::size_t>(design));
}

DesignLayout design_layout(const Config& given, Design design)
{
    Config call = given;
    if (call.kind == ModuleKind::MultiHeadAttentionWrapper || call.kind == ModuleKind::GroupedQueryAttention)
        call.kind = ModuleKind::MultiHeadAttention;
    if (call.kind != ModuleKind::MultiHeadAttention)
        throw Error("the design comparison needs a MultiHeadAttention, GroupedQueryAttention or "
                    "MultiHeadAttentionWrapper call, not " +
                    module_class_name(given.kind) + ", since only those split the work into heads.");
    Config checked = call;
    if (design == Design::Grouped)
        checked.kind = ModuleKind::GroupedQueryAttention;
    for (const Diagnostic& d : validate(checked))
        if (d.severity == Severity::Error && d.code != DiagnosticCode::HeadSplit &&
            d.code != DiagnosticCode::KvGroupSplit)
            throw Error(d.message);
    if (call.num_heads > kMaxLayoutHeads)
        throw Error("num_heads = " + std::to_string(call.num_heads) + " is more heads than the layout lists (at most " +
                    std::to_string(kMaxLayoutHeads) + "); use fewer heads.");

    DesignLayout layout;
    layout.design = design;
    layout.config = module_config(call, design);
    layout.num_heads = call.num_heads;
    layout.exists =
        design == Design::WrapperSameCall ||
        (call.d_out % call.num_heads == 0 && (design != Design::Grouped || checked.kv_groups_split_heads()));
    if (!layout.exists) {
        layout.why_not = unbuildable_reason(call, design);
        return layout;
    }
    const Config& m = layout.config;
    layout.call = canonical_call(m);
    layout.head_width = m.head_dim();
    layout.output_width = m.is_integrated() ? m.d_out : checked_mul(m.num_heads, m.d_out, call);
    for (const ParameterSpec& spec : parameter_specs(m)) {
        layout.blocks.push_back(block_of(spec, m, call));
        layout.parameters = checked_add(layout.parameters, layout.blocks.back().parameters, call);
    }
    const std::int64_t mask_elements = checked_mul(m.context_length, m.context_length, call);
    const bool wrapper = m.kind == ModuleKind::MultiHeadAttentionWrapper;
    for (std::int64_t h = 0; h < (wrapper ? m.num_heads : 1); ++h) {
        const std::string name = wrapper ? head_prefix(h) + "mask" : "mask";
        layout.buffers.push_back(
            {name, {m.context_length, m.context_length}, 0, Role::Mask, wrapper ? h : -1, false, true, {}});
        layout.buffer_elements = checked_add(layout.buffer_elements, mask_elements, call);
    }
    return layout;
}

DesignComparison compare_designs(const Config& given)
{
    DesignComparison out;
    for (Design design : all_designs()) {
        out.designs.push_back(design_layout(given, design));
        if (design == Design::Integrated && given.is_grouped())
            out.designs.push_back(design_layout(given, Design::Grouped));
    }
    out.call = given;
    out.call.kind = ModuleKind::MultiHeadAttention;
    if (given.kind == ModuleKind::MultiHeadAttentionWrapper)
        out.note = "the wrapper call " + canonical_call(given) +
                   " is read as the same arguments given to "
                   "MultiHeadAttention, so the wrapper itself is the wrapper_same_call column.";
    if (given.is_grouped())
        out.note = "the GroupedQueryAttention call " + canonical_call(given) +
                   " is drawn beside MultiHeadAttention from the same arguments (every query head with keys and "
                   "values of its own) and the two wrappers.";
    return out;
}

std::vector<std::string> state_dict_names(const DesignLayout& layout)
{
    std::vector<std::string> names;
    for (const Block& buffer : layout.buffers) {
        names.push_back(buffer.name);
        for (const Block& b : layout.blocks)
            if (b.head == buffer.head)
                names.push_back(b.name);
    }
    return names;
}

} // namespace attnlab
