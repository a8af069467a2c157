#pragma once
// The one inference forward of the book's chapter 4 GPTModel, whatever its source (a Verdict model in
// resources/models, a model trained here and saved with `train --save`, a GPT-2 checkpoint), in eval mode on
// one sequence: token and position embeddings, every pre-LayerNorm block (its attention through the engine's
// trace_forward, so every stage of every layer is the engine's own; tanh GELU; the MLP; residuals), the final
// LayerNorm, the logits and the top next tokens. What is kept per layer is the caller's choice: at 1,024
// tokens twelve full traces of GPT-2 small are gigabytes, so by default only each layer's x and attention
// weights stay.
#include "forward/trace.h"
#include "gpt/gpt_model.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace attnlab {

struct Gpt2Plan;

// The book's LayerNorm epsilon; a GPT-2 checkpoint's config.json may give another (Gpt2Plan::layer_norm_eps).
inline constexpr double kBookLayerNormEps = 1e-5;

struct GptForwardOptions {
    std::vector<int> full_traces; // layers whose whole attention trace is kept
    // Run the blocks up to this one and stop (no final norm, no logits); -1: the whole model.
    int last_layer = -1;
    bool all_logits = false; // (1, T, vocab); otherwise only the last token's row, which the next token needs
    int top = 5;
    const std::atomic<bool>* cancel = nullptr; // checked between layers: throws Cancelled

    std::function<void(int layers_done)> progress; // after each layer, on the computing thread
};

struct GptLayerRecord {
    Tensor x;            // (1, T, d): the attention's input, the block's norm1 of the residual stream
    Tensor attn_weights; // (1, n_heads, T, T)
    std::optional<Trace> trace;
};

struct NextToken {
    std::int64_t id = 0;
    float logit = 0;
    double probability = 0; // softmax over the whole vocabulary
};

struct GptForward {
    std::vector<GptLayerRecord> layers; // every layer run
    Tensor logits;                      // (1, T, vocab), or (1, 1, vocab) for the last token; empty when stopped early
    std::vector<NextToken> next;        // the `top` likeliest next tokens after the text, likeliest first
};

// Throws Error when an id is outside the vocabulary, the ids are empty or longer than context_length, or a
// layer asked for does not exist. eps: the model's LayerNorm epsilon (kBookLayerNormEps, or a GPT-2
// checkpoint's Gpt2Plan::layer_norm_eps).
GptForward gpt_forward(const GptModel& model, double eps, const std::vector<std::int64_t>& ids,
                       const GptForwardOptions& options = {});

// One block's attention as the app and `run --model` show a trained layer: its input and what runs it.
struct GptLayerInput {
    Tensor x;          // (1, T, emb_dim): embeddings through blocks < layer, then that block's norm1
    Config config;     // gpt_attention_config(model)
    StateDict weights; // gpt_attention_weights(model, layer)
};

// gpt_forward up to block `layer`, with the book's epsilon; throws as gpt_forward does.
GptLayerInput gpt_layer_input(const GptModel& model, const std::vector<std::int64_t>& ids, int layer);

// Bytes gpt_forward holds at its peak beyond the weights, from the shapes alone.
std::uint64_t gpt_forward_bytes(const GptConfig& config, std::int64_t tokens, const GptForwardOptions& options);
// Opening `plan` and running the forward on `tokens`: one sentence with both numbers when it exceeds
// the budget (or the machine), nothing allocated; quiet when it fits. With `dump`, the copies writing one
// layer's trace makes are counted too; `tokenizer_bytes` (gpt2_tokenizer_bytes) is the tokenizer held beside the
// weights. More tokens than the model's n_positions are refused first, by that sentence, not by their memory.
void check_gpt2_memory(const Gpt2Plan& plan, std::int64_t tokens, const GptForwardOptions& options,
                       std::uint64_t budget, bool dump = false, std::uint64_t tokenizer_bytes = 0);

} // namespace attnlab
