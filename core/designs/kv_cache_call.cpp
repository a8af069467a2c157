// A constructor call's module as an attention shape (see kv_cache_call.h).
#include "designs/kv_cache_call.h"

#include "tensor/error.h"

namespace attnlab {

AttentionShape attention_shape_of(const Config& config, std::int64_t layers)
{
    if (config.kind == ModuleKind::SimpleSelfAttention)
        throw Error("SimpleSelfAttention has no key or value projection (its keys and values are the inputs "
                    "themselves); give a module with W_key and W_value, such as MultiHeadAttention.");
    for (const Diagnostic& d : validate(config))
        if (d.severity == Severity::Error)
            throw Error(d.message);
    AttentionShape s;
    s.name = module_class_name(config.kind);
    s.layers = layers;
    s.d_model = config.d_in;
    s.context_length = config.context_length;
    s.qkv_bias = config.kind != ModuleKind::SelfAttentionV1 && config.qkv_bias; // v1's weights are torch.rand
    // The integrated modules cut one d_out-wide projection into num_heads heads (keys and values into
    // num_kv_groups in GroupedQueryAttention), then out_proj (nn.Linear, with its bias). The wrapper has num_heads
    // CausalAttention heads, each d_out wide, concatenated; the single-head modules one head of width d_out;
    // neither has an out_proj. Config says each: head_dim() and kv_heads().
    s.num_heads = config.has_heads() ? config.num_heads : 1;
    s.head_dim = config.head_dim();
    s.has_out_proj = config.is_integrated();
    if (s.has_out_proj) {
        s.out_bias = true;
        s.out_width = config.d_out;
    }
    s.num_kv_heads = config.kv_heads();
    if (config.is_grouped())
        s.sliding_window = config.window_size; // the cache keeps at most the window's latest tokens
    s.source = positional_call(config);
    return s;
}

} // namespace attnlab
