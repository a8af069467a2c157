// Reading a planned GPT-2 checkpoint: each stored tensor once, widened to F32, turned into the book's
// tensors (Conv1D's (in, out) transposed into nn.Linear's (out, in), c_attn's column blocks split off)
// and released, so the weights sit in memory once plus the one tensor being converted.
#include "gpt/gpt2_checkpoint.h"

#include "forward/experiment.h"
#include "forward/experiment_check.h"
#include "io/finite_check.h"
#include "io/safetensors.h"
#include "tensor/error.h"

#include <algorithm>

namespace attnlab {

namespace {

// Columns [first, first + count) of a (rows, cols) matrix, transposed into a (count, rows) one.
Tensor columns_transposed(const Tensor& t, std::int64_t first, std::int64_t count)
{
    const std::int64_t rows = t.size(0), cols = t.size(1);
    Tensor out = Tensor::empty({count, rows});
    const float* src = t.data();
    float* dst = out.data();
    // In tiles, so both the rows read and the columns written stay in cache: a plain double loop over GPT-2
    // small's weights takes seconds, the tiled one a fraction of that.
    constexpr std::int64_t kTile = 32;
    for (std::int64_t r0 = 0; r0 < rows; r0 += kTile)
        for (std::int64_t c0 = 0; c0 < count; c0 += kTile)
            for (std::int64_t r = r0; r < std::min(rows, r0 + kTile); ++r)
                for (std::int64_t c = c0; c < std::min(count, c0 + kTile); ++c)
                    dst[c * rows + r] = src[r * cols + first + c];
    return out;
}

Tensor slice(const Tensor& t, std::int64_t first, std::int64_t count)
{
    Tensor out = Tensor::empty({count});
    std::copy(t.data() + first, t.data() + first + count, out.data());
    return out;
}

} // namespace

std::uint64_t gpt2_load_bytes(const Gpt2Plan& plan)
{
    // One copy of each weight, one stored tensor being converted, the map's bookkeeping, the program.
    return plan.weight_bytes + plan.largest_source + 512 * plan.sources.size() + process_baseline_bytes();
}

GptModel load_gpt2_checkpoint(const Gpt2Plan& plan, std::uint64_t budget)
{
    const std::uint64_t need = gpt2_load_bytes(plan), machine = machine_memory_bytes();
    const auto [needText, limitText] = format_bytes_apart(need, std::min(budget, machine));
    if (need > std::min(budget, machine))
        throw Error("'" + plan.file + "' needs about " + needText +
                    " of memory to open (its weights as F32), "
                    "more than the " +
                    limitText + (machine < budget ? " this machine has" : " memory budget") +
                    ", so nothing was read; " +
                    (machine < budget ? "choose a smaller GPT-2." // a larger budget would change nothing
                                      : "choose a smaller GPT-2 or give a larger budget with --max-memory."));
    const SafetensorsFile file = open_safetensors(plan.file, {.skip_non_float = true});
    GptModel m;
    m.path = plan.file;
    m.name = plan.name;
    m.settings = plan.settings;
    m.context_length_name = "n_positions";
    for (const auto& [key, value] : file.metadata)
        m.metadata[key] = value;
    const std::int64_t d = plan.settings.emb_dim;
    std::vector<NonFiniteCount> counts; // by the checkpoint's own names, which the student can look up
    for (const Gpt2Source& s : plan.sources) {
        const Tensor stored = file.take(s.name); // read once, F32, owned here
        counts.push_back(count_non_finite(s.name, stored));
        switch (s.use) {
        case Gpt2Source::Use::Copy: m.weights[s.targets[0]] = stored; break;
        case Gpt2Source::Use::Transpose: m.weights[s.targets[0]] = columns_transposed(stored, 0, stored.size(1)); break;
        case Gpt2Source::Use::SplitColumns:
            for (std::int64_t part = 0; part < 3; ++part)
                m.weights[s.targets[static_cast<std::size_t>(part)]] = columns_transposed(stored, part * d, d);
            break;
        case Gpt2Source::Use::SplitBias:
            for (std::int64_t part = 0; part < 3; ++part)
                m.weights[s.targets[static_cast<std::size_t>(part)]] = slice(stored, part * d, d);
            break;
        }
    }
    require_finite("'" + plan.file + "'", counts);
    if (plan.tied_head) // the same storage: GPT-2 ties its output head to the token embedding
        m.weights["out_head.weight"] = m.weights.at("tok_emb.weight");
    m.metadata["layer_norm_epsilon"] = std::to_string(plan.layer_norm_eps);
    return m;
}

} // namespace attnlab
