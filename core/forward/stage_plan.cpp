// What a forward pass will record, known from the config alone: the stage names in order, and the
// bytes they and the weights will take, so the memory budget is checked before any allocation.
// Both walk the stage table, so a new row is counted the moment the forward records it.
#include "forward/experiment_check.h"
#include "forward/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

// The rows a forward in `scope` records, in the book's statement order.
std::vector<const StageRow*> recorded(StageScope scope, bool causal, bool with_dropout)
{
    std::vector<const StageRow*> rows;
    for (const auto& row : stage_table())
        if (!scope_axes(row, scope).empty() && (causal || !row.causal_only) && (with_dropout || !row.training_only))
            rows.push_back(&row);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const StageRow* a, const StageRow* b) { return a->statement < b->statement; });
    return rows;
}

// Calls visit(row, module, head) for every stage a forward of `config` records, in order; head is -1
// outside the wrapper's heads, and `module` is the config whose axes the stage has.
template <typename Visit> void for_each_stage(const Config& config, bool with_dropout, Visit&& visit)
{
    const StageScope scope = stage_scope(config.kind);
    Config head = config;
    head.kind = ModuleKind::CausalAttention;
    const auto head_rows = recorded(StageScope::Single, true, with_dropout);
    for (const StageRow* row : recorded(scope, config.is_causal(), with_dropout)) {
        if (scope == StageScope::Wrapper && row->role == StageRole::Output) // the heads run before the concatenation
            for (std::int64_t h = 0; h < config.num_heads; ++h)
                for (const StageRow* r : head_rows)
                    if (r->role != StageRole::Input)
                        visit(*r, head, h);
        visit(*row, config, std::int64_t{-1});
    }
}

using Real = long double; // absurd requests saturate instead of wrapping around

Real elements(const std::vector<Axis>& axes, const Config& config, InputShape input)
{
    Real n = 1;
    for (std::int64_t size : axes_shape(axes, config, input))
        n *= static_cast<Real>(std::max<std::int64_t>(size, 0));
    return n;
}

// A stage computes its own tensor unless it only re-lays out another one; merging the heads (contiguous())
// and repeating the key/value heads (repeat_interleave) are the layout steps that copy.
bool owns_storage(const StageRow& row)
{
    return row.derived_from.empty() || row.layout == LayoutOp::MergeHeads || row.layout == LayoutOp::RepeatKv;
}

// glibc's chunk for a request of n bytes: an 8-byte header, 16-byte granules, 32 bytes at least.
Real heap_block(Real n)
{
    return n <= 0 ? 0 : std::max<Real>(32, std::ceil((n + 8) / 16) * 16);
}

Real string_heap(Real length)
{
    return length > 15 ? heap_block(length + 1) : 0; // shorter ones live inside the string (SSO)
}

Real digits(std::int64_t v)
{
    Real d = 1;
    for (; v >= 10; v /= 10)
        ++d;
    return d;
}

std::uint64_t saturate(Real bytes)
{
    if (!(bytes < static_cast<Real>(std::numeric_limits<std::uint64_t>::max())))
        return std::numeric_limits<std::uint64_t>::max();
    return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
}

Real tensor_storage_bytes(Real floats)
{
    // tensor/buffer_pool.cpp: below 1 MiB plain new[] beside the shared_ptr's control block; above, whole
    // 2 MiB pages (aligned_alloc's header takes one more page) and a control block holding the deleter.
    const Real bytes = std::max<Real>(floats, 1) * 4;
    if (bytes < (1 << 20))
        return heap_block(bytes) + heap_block(24);
    constexpr Real page = 2 << 20;
    return std::ceil(bytes / page) * page + 4096 + heap_block(40);
}

} // namespace

std::vector<std::string> stage_names(const Config& config, bool with_dropout)
{
    std::vector<std::string> names;
    for_each_stage(config, with_dropout, [&](const StageRow& row, const Config&, std::int64_t head) {
        names.push_back((head >= 0 ? head_prefix(head) : std::string{}) + std::string(row.base_name));
    });
    return names;
}

std::int64_t stage_count(const Config& config, bool with_dropout)
{
    std::int64_t count = 0;
    for_each_stage(config, with_dropout, [&](const StageRow&, const Config&, std::int64_t) { ++count; });
    return count;
}

TraceFootprint trace_footprint(const Config& config, InputShape input)
{
    TraceFootprint f;
    const bool with_dropout = config.dropout > 0; // counted whenever it may act: training is the caller's
    Real stages = 0, small = 0, names = 0, count = 0, largest = 0, data = 0;
    for_each_stage(config, with_dropout, [&](const StageRow& row, const Config& module, std::int64_t head) {
        const std::vector<Axis> axes = stage_axes(row, module);
        const Real n = elements(axes, config, input), dims = static_cast<Real>(axes.size());
        const Real prefix = head >= 0 ? 7 + digits(head) : 0; // "heads.{h}."
        const Real name = prefix + static_cast<Real>(row.base_name.size());
        // The Stage itself (stored once, the list is reserved), its names, its axes and three shapes
        // (expected, the tensor's shape and strides).
        Real bookkeeping = sizeof(Stage) + string_heap(name) + string_heap(static_cast<Real>(row.base_name.size())) +
                           heap_block(4 * dims) + 3 * heap_block(8 * dims);
        if (!row.derived_from.empty())
            bookkeeping +=
                2 * string_heap(prefix + static_cast<Real>(row.derived_from.size())); // derived_from, view_of
        const bool owned = owns_storage(row) && row.role != StageRole::Input;         // x is the experiment's input
        small += bookkeeping;
        if (owned) {
            if (4 * n < (1 << 20))
                small += tensor_storage_bytes(n);
            bookkeeping += tensor_storage_bytes(n);
            data += 4 * n;
        }
        stages += bookkeeping;
        names += name;
        largest = std::max(largest, 4 * n);
        ++count;
    });
    if (config.kind == ModuleKind::MultiHeadAttentionWrapper) // the heads' contexts, collected for torch.cat
        stages += 3 * static_cast<Real>(std::max<std::int64_t>(config.num_heads, 0)) * sizeof(Tensor);
    stages += small / 16; // millions of small blocks leave the heap fragmented by a few percent

    Real weights = 0, weight_data = 0, biggest = 0, spec_list = 0;
    try {
        const bool wrapper = config.kind == ModuleKind::MultiHeadAttentionWrapper;
        Config one = config;
        if (wrapper)
            one.kind = ModuleKind::CausalAttention; // each head holds one CausalAttention's parameters
        const Real heads = wrapper ? static_cast<Real>(std::max<std::int64_t>(config.num_heads, 0)) : 1;
        // A std::map node: its links and colour, the key and the tensor.
        const Real node = heap_block(32 + sizeof(std::string) + sizeof(Tensor));
        for (const ParameterSpec& spec : parameter_specs(one)) {
            Real n = 1;
            for (std::int64_t s : spec.shape)
                n *= static_cast<Real>(s);
            const Real dims = static_cast<Real>(spec.shape.size()), base = static_cast<Real>(spec.name.size());
            // "heads.{h}." before the name, counted at the widest h
            const Real key = heads * string_heap(base + (wrapper ? 7 + digits(config.num_heads) : 0));
            weights += heads * (tensor_storage_bytes(n) + 2 * heap_block(8 * dims) + node) + key;
            weight_data += heads * 4 * n;
            biggest = std::max(biggest, 4 * n);
            // parameter_specs' own list while the weights are drawn: the names, shapes and slot names.
            spec_list += heads * (sizeof(ParameterSpec) + heap_block(8 * dims) + heap_block(32 * dims)) + key;
        }
    } catch (const std::exception&) {
        // No shapes exist for this config; validate() refuses it before anything is allocated.
    }
    const std::vector<Axis> x_axes = stage_axes(*stage_row(stage::x), config);
    const Real x = elements(x_axes, config, input);
    f.weights = saturate(weights);
    f.weight_data = saturate(weight_data);
    f.largest_parameter = saturate(biggest);
    f.parameter_list = saturate(2 * spec_list); // the list grows by doubling
    f.input = saturate(tensor_storage_bytes(x));
    f.input_data = saturate(4 * x);
    f.stages = saturate(stages);
    f.stage_data = saturate(data);
    f.largest_stage = saturate(std::max(largest, 4 * x));
    f.stage_count = saturate(count);
    f.name_bytes = saturate(names);
    return f;
}

std::uint64_t estimate_memory_bytes(const Config& config, InputShape input)
{
    const TraceFootprint f = trace_footprint(config, input);
    const Real sum =
        static_cast<Real>(f.weight_data) + static_cast<Real>(f.input_data) + static_cast<Real>(f.stage_data);
    return saturate(sum);
}

} // namespace attnlab
