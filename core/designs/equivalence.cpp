// Integrated -> wrapper by slicing rows, then both traced on one input. The wrapper runs through the
// same trace_forward as everything else, so a disagreement would show a real engine difference.
#include "designs/equivalence.h"

#include "tensor/error.h"
#include "tensor/tensor_ops.h"
#include "forward/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

const char* const kRoles[] = {"W_query", "W_key", "W_value"};

const Tensor& need(const StateDict& weights, const std::string& name, const Shape& shape)
{
    const auto it = weights.find(name);
    if (it == weights.end())
        throw Error("the integrated weights have no '" + name + "', which slicing into a wrapper needs.");
    if (it->second.shape() != shape)
        throw Error("the integrated weights hold '" + name + "' with shape " + shape_to_string(it->second.shape()) +
                    ", but the call needs " + shape_to_string(shape) + ".");
    return it->second;
}

// Rows [begin, end) of a (rows, cols) weight or entries [begin, end) of a bias: contiguous either way.
Tensor rows_of(const Tensor& t, std::int64_t begin, std::int64_t end)
{
    const std::vector<float> all = t.to_vector();
    const std::int64_t width = t.dim() == 2 ? t.size(1) : 1;
    std::vector<float> part(all.begin() + begin * width, all.begin() + end * width);
    Shape shape = t.shape();
    shape[0] = end - begin;
    return Tensor::from_values(shape, std::move(part));
}

// NaN counts as an infinite difference, so a broken forward can never look equivalent.
double abs_diff(float a, float b)
{
    const double d = std::fabs(static_cast<double>(a) - static_cast<double>(b));
    return std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
}

double max_abs_diff(const Tensor& a, const Tensor& b)
{
    const std::vector<float> va = a.to_vector(), vb = b.to_vector();
    double out = 0;
    for (std::size_t i = 0; i < va.size(); ++i)
        out = std::max(out, abs_diff(va[i], vb[i]));
    return out;
}

} // namespace

Config matched_wrapper_config(const Config& integrated)
{
    if (!integrated.is_integrated())
        throw Error("the equivalence starts from a MultiHeadAttention or GroupedQueryAttention call, not " +
                    module_class_name(integrated.kind) + ", since only their weights are split into head slices.");
    for (const Diagnostic& d : validate(integrated))
        if (d.severity == Severity::Error)
            throw Error(d.message);
    Config wrapper = integrated;
    wrapper.kind = ModuleKind::MultiHeadAttentionWrapper;
    wrapper.d_out = integrated.head_dim();
    wrapper.num_kv_groups = Config{}.num_kv_groups; // a wrapper's heads each have keys and values of their own
    return wrapper;
}

StateDict slice_into_wrapper(const Config& integrated, const StateDict& weights, std::vector<SliceCopy>* copies)
{
    const Config wrapper = matched_wrapper_config(integrated);
    const std::int64_t hd = wrapper.d_out;
    StateDict out;
    for (std::int64_t h = 0; h < integrated.num_heads; ++h) {
        const std::string prefix = head_prefix(h);
        for (const char* role : kRoles) {
            std::vector<std::string> parts = {".weight"};
            if (integrated.qkv_bias)
                parts.push_back(".bias");
            // Grouped-query attention: head h's keys and values are its group's key/value head, h / group_size,
            // so the wrapper's heads of one group get copies of the same rows.
            const bool shared = std::string_view(role) != "W_query";
            const std::int64_t width = shared ? integrated.kv_width() : integrated.d_out;
            const std::int64_t slot = shared ? h / integrated.group_size() : h;
            for (const std::string& part : parts) {
                const std::string from = role + part;
                const Shape shape = part == ".weight" ? Shape{width, integrated.d_in} : Shape{width};
                out[prefix + from] = rows_of(need(weights, from, shape), slot * hd, (slot + 1) * hd);
                if (copies)
                    copies->push_back({prefix + from, from, slot * hd, (slot + 1) * hd});
            }
        }
    }
    return out;
}

Equivalence check_equivalence(const Config& integrated, const StateDict& weights, const Tensor& x,
                              const std::atomic<bool>* cancel)
{
    Equivalence e;
    e.integrated = integrated;
    e.wrapper = matched_wrapper_config(integrated);
    e.integrated_weights = weights;
    e.x = x;
    std::vector<SliceCopy> copies;
    e.wrapper_weights = slice_into_wrapper(integrated, weights, &copies);

    ForwardOptions options;
    options.cancel = cancel;
    const Trace whole = trace_forward(integrated, weights, x, options);
    const Trace split = trace_forward(e.wrapper, e.wrapper_weights, x, options);
    e.merged = whole.find(stage::context_merged)->tensor;
    e.concatenated = split.output();
    e.max_abs_diff = max_abs_diff(e.merged, e.concatenated);
    const Tensor rebuilt = ops::linear(e.concatenated, weights.at("out_proj.weight"), &weights.at("out_proj.bias"));
    e.output_max_abs_diff = max_abs_diff(rebuilt, whole.output());

    const std::int64_t hd = e.wrapper.d_out;
    for (std::int64_t h = 0; h < integrated.num_heads; ++h)
        e.heads.push_back({h, h * hd, (h + 1) * hd, {}, 0.0});
    for (SliceCopy& copy : copies) {
        const std::size_t head = static_cast<std::size_t>(find_head_prefix(copy.wrapper_name)->head);
        e.heads[head].copies.push_back(std::move(copy));
    }
    // Column c of both (b, T, d_out) tensors belongs to head c / head_dim.
    const std::vector<float> a = e.merged.to_vector(), b = e.concatenated.to_vector();
    for (std::size_t i = 0; i < a.size(); ++i) {
        HeadEquivalence& head = e.heads[static_cast<std::size_t>(static_cast<std::int64_t>(i) % integrated.d_out / hd)];
        head.max_abs_diff = std::max(head.max_abs_diff, abs_diff(a[i], b[i]));
    }
    return e;
}

Equivalence check_equivalence(const ExperimentSpec& spec, const std::atomic<bool>* cancel)
{
    const Config wrapper = matched_wrapper_config(spec.config);
    const InputShape shape{spec.batch, spec.num_tokens};
    for (const Diagnostic& d : validate(spec.config, shape))
        if (d.severity == Severity::Error)
            throw Error(d.message);
    // Both traces are alive at once, so the budget must cover their sum.
    const std::uint64_t one = estimate_request_bytes(spec.config, shape, spec.memory_use),
                        other = estimate_request_bytes(wrapper, shape); // the sliced weights and the second trace
    const std::uint64_t need = one > std::numeric_limits<std::uint64_t>::max() - other
                                   ? std::numeric_limits<std::uint64_t>::max()
                                   : one + other; // saturate, never wrap
    if (need > spec.memory_budget)
        throw Error("comparing both designs needs about " + format_bytes(need) +
                    " (two traced forward passes), more "
                    "than the " +
                    format_bytes(spec.memory_budget) + " memory budget; use fewer tokens or a smaller batch.");
    const Experiment e = prepare(spec);
    return check_equivalence(e.spec.config, e.weights, e.x, cancel);
}

} // namespace attnlab
