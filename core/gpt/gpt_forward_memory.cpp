// What gpt_forward needs in memory, from the shapes alone, and the check a GPT-2 checkpoint is put through
// before a byte of it is read.
#include "forward/experiment.h"
#include "forward/experiment_check.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_model.h"
#include "tensor/error.h"

#include <algorithm>
#include <limits>
#include <thread>

namespace attnlab {

namespace {

// One block's attention as the forward runs it, counted with the biases a GPT-2 checkpoint has.
Config block_attention(const GptConfig& s)
{
    Config c = gpt_attention_config(s);
    c.qkv_bias = true;
    return c;
}

} // namespace

std::uint64_t gpt_forward_bytes(const GptConfig& s, std::int64_t tokens, const GptForwardOptions& options)
{
    using Real = long double; // absurd requests saturate instead of wrapping around
    const Real T = static_cast<Real>(std::max<std::int64_t>(tokens, 0)), d = static_cast<Real>(s.emb_dim),
               h = static_cast<Real>(s.n_heads), V = static_cast<Real>(s.vocab_size);
    const Config c = block_attention(s);
    const Real trace = static_cast<Real>(estimate_memory_bytes(c, {1, tokens}));
    const Real layers = options.last_layer == -1 ? static_cast<Real>(s.n_layers) : options.last_layer + 1;
    const Real kept = layers * 4 * (T * d + h * T * T) + static_cast<Real>(options.full_traces.size()) * trace;
    // The residual stream, two normed copies, the MLP's hidden rows, the logits kept and their ordering.
    const Real work = 4 * (4 * T * d + 4 * T * d) + (options.all_logits ? T : 1) * V * 4 + V * 8;
    // Large tensors come in 2 MiB blocks (buffer_pool.h), and the GEMM library packs the MLP's rows into
    // per-thread buffers, as experiment_check.cpp counts them.
    const Real blocks = (2 * layers + 2 * static_cast<Real>(stage_count(c))) * (2 << 20);
    const Real threads = std::max(1u, std::thread::hardware_concurrency());
    const Real gemm = std::min(threads * (32 << 20), 2 * 4 * T * 4 * d);
    const Real total = kept + trace + work + blocks + gemm;
    return total < static_cast<Real>(std::numeric_limits<std::uint64_t>::max())
               ? static_cast<std::uint64_t>(total)
               : std::numeric_limits<std::uint64_t>::max();
}

void check_gpt2_memory(const Gpt2Plan& plan, std::int64_t tokens, const GptForwardOptions& options,
                       std::uint64_t budget, bool dump, std::uint64_t tokenizer_bytes)
{
    // A text longer than the model reads is that, whatever memory it would take (130,000 characters were
    // answered with a 55 GiB estimate and the advice of a larger budget).
    if (tokens > plan.settings.context_length)
        throw Error("there are " + std::to_string(tokens) + " tokens; " + plan.name + " takes at most " +
                    std::to_string(plan.settings.context_length) + " (its n_positions).");
    std::uint64_t run = gpt_forward_bytes(plan.settings, tokens, options);
    if (dump) { // the writer copies each stage, the largest one twice over at its peak (experiment_check.cpp)
        const GptConfig& s = plan.settings;
        const Config c = block_attention(s);
        const TraceFootprint f = trace_footprint(c, {1, tokens});
        run += 2 * f.largest_stage + 1280 * f.stage_count + 3 * f.name_bytes;
    }
    const auto sum = [](std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; };
    const std::uint64_t need = sum(sum(gpt2_load_bytes(plan), run), tokenizer_bytes);
    const std::uint64_t machine = machine_memory_bytes(), limit = std::min(budget, machine);
    if (need <= limit)
        return;
    const auto [needText, limitText] = format_bytes_apart(need, limit);
    // The parts add up to the whole: what is neither weights, tokenizer nor forward is the program and the
    // one tensor being converted as it is read.
    const std::uint64_t rest = need - std::min(need, sum(sum(plan.weight_bytes, tokenizer_bytes), run));
    const std::string parts = format_bytes(plan.weight_bytes) + " of weights as F32, " +
                              (tokenizer_bytes ? format_bytes(tokenizer_bytes) + " for the tokenizer, " : "") +
                              format_bytes(run) + " for the forward, " + format_bytes(rest) +
                              " for the program and reading";
    // The advice names what costs most: a tokenizer larger than weights and forward together is not helped by fewer
    // tokens. When the machine is the limit, a larger --max-memory changes nothing: it is not advised.
    const bool machine_limits = machine < budget;
    const std::string cut =
        tokenizer_bytes > sum(plan.weight_bytes, run) ? "use smaller tokenizer files" : "use fewer tokens";
    throw Error("'" + plan.file + "' on " + std::to_string(tokens) + (tokens == 1 ? " token" : " tokens") +
                " needs about " + needText + " (" + parts + "), more than the " + limitText +
                (machine_limits ? " this machine has" : " memory budget") + ", so nothing was read; " + cut +
                (machine_limits ? " or a smaller GPT-2." : ", a smaller GPT-2 or a larger --max-memory."));
}

} // namespace attnlab
