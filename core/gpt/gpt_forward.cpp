// The GPT forward in eval mode on one sequence, rows as tokens. Only the attention runs through the
// engine (trace_forward); LayerNorm, GELU and the linear layers are the book's chapter 4 modules,
// written out once in gpt_blocks.cpp (shared with the KV-cached steps of kv_cache.cpp).
#include "forward/stage_names.h"
#include "gpt/gpt_blocks.h"
#include "gpt/gpt_forward.h"

#include "tensor/eigen_types.h"
#include "tensor/error.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab {

using namespace gpt_blocks;

GptForward gpt_forward(const GptModel& m, double eps, const std::vector<std::int64_t>& ids,
                       const GptForwardOptions& options)
{
    check_ids(m, ids);
    for (int layer : options.full_traces)
        check_layer(m, layer);
    if (options.last_layer != -1)
        check_layer(m, options.last_layer);
    const int last = options.last_layer == -1 ? static_cast<int>(m.settings.n_layers) - 1 : options.last_layer;
    const float e = static_cast<float>(eps);
    const Config config = gpt_attention_config(m);
    const auto T = static_cast<Eigen::Index>(ids.size());
    const ConstMap tok(param(m, "tok_emb.weight").data(), m.settings.vocab_size, m.settings.emb_dim);
    const ConstMap pos(param(m, "pos_emb.weight").data(), m.settings.context_length, m.settings.emb_dim);
    MatrixRM x(T, m.settings.emb_dim);
    for (Eigen::Index t = 0; t < T; ++t)
        x.row(t) = tok.row(ids[static_cast<std::size_t>(t)]) + pos.row(t);

    GptForward out;
    for (int layer = 0; layer <= last; ++layer) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        // One TransformerBlock: x + att(norm1(x)), then x + ff(norm2(x)).
        const std::string b = "trf_blocks." + std::to_string(layer) + ".";
        GptLayerRecord record;
        record.x = to_tensor(layer_norm(x, m, b + "norm1", e));
        Trace trace = trace_forward(config, gpt_attention_weights(m, layer), record.x, {.cancel = options.cancel});
        const Stage* weights = trace.find(stage::attn_weights);
        record.attn_weights = weights->view_of.empty() ? weights->tensor : weights->tensor.clone();
        const Tensor attended = trace.output().contiguous();
        x += ConstMap(attended.data(), T, m.settings.emb_dim);
        add_feed_forward(x, m, b, e);
        if (std::find(options.full_traces.begin(), options.full_traces.end(), layer) != options.full_traces.end())
            record.trace = std::move(trace);
        out.layers.push_back(std::move(record));
        if (options.progress)
            options.progress(layer + 1);
    }
    if (options.last_layer != -1)
        return out;
    const MatrixRM normed = layer_norm(x, m, "final_norm", e);
    const MatrixRM logits = linear(normed, param(m, "out_head.weight"), nullptr, options.all_logits ? 0 : T - 1);
    out.logits = to_tensor(logits);
    out.next = top_tokens(logits.data() + (logits.rows() - 1) * logits.cols(), m.settings.vocab_size, options.top);
    return out;
}

GptLayerInput gpt_layer_input(const GptModel& model, const std::vector<std::int64_t>& ids, int layer)
{
    GptLayerInput in;
    in.weights = gpt_attention_weights(model, layer); // checks the layer first, -1 included
    in.config = gpt_attention_config(model);
    GptForwardOptions up_to;
    up_to.last_layer = layer;
    in.x = std::move(gpt_forward(model, kBookLayerNormEps, ids, up_to).layers.back().x);
    return in;
}

} // namespace attnlab
