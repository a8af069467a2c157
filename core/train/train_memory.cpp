#include "train/train_memory.h"

#include "forward/experiment.h"
#include "tensor/error.h"
#include "train/gpt_params.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnlab::train {

namespace {

using Real = long double; // absurd requests saturate instead of wrapping around

std::uint64_t saturate(Real v)
{
    const Real top = static_cast<Real>(std::numeric_limits<std::uint64_t>::max());
    return v >= top ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(std::ceil(v));
}

std::uint64_t add(std::uint64_t a, std::uint64_t b)
{
    return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

Real parameter_bytes(const RunSettings& r)
{
    return 4.0L * static_cast<Real>(gpt_layout(r.shape).total);
}

// One training run's own working set beyond its weights: its net, its task's held-out set and batch, the GEMM
// library's packing of the feed-forward's rows and weights (at most its 32 MiB buffer a thread), the head
// report's copies of one sequence's attention weights (head_report.cpp's accumulate), and 2 MiB for the thread's
// stack and allocator.
Real working_bytes(const RunSettings& r)
{
    const Real T = static_cast<Real>(r.shape.context_length), d = static_cast<Real>(r.shape.emb_dim);
    const Real H = static_cast<Real>(r.shape.n_heads);
    const Real held = 512.0L * T * 16.0L, batch = static_cast<Real>(r.batch) * T * 16.0L;
    const Real gemm =
        std::min<Real>(32.0L * (1 << 20), 4.0L * (2.0L * static_cast<Real>(r.batch) * T * 4.0L * d + 4.0L * d * d));
    const Real measures = 2.0L * H * T * T * 4.0L;
    return static_cast<Real>(activation_bytes(r)) + held + batch + gemm + measures + 2.0L * (1 << 20);
}

std::string plural(std::size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

std::uint64_t SweepMemory::total() const
{
    return add(add(add(process, kept), add(optimizer, activations)), recorded);
}

std::uint64_t recorded_bytes(const RunSettings& r)
{
    if (!r.record_batches)
        return 0;
    // inputs and targets, int64 each, reserved whole before the first step (train_run).
    return saturate(static_cast<Real>(r.steps) * static_cast<Real>(r.batch) *
                    static_cast<Real>(r.shape.context_length) * 16.0L);
}

void check_recorded_bytes(const RunSettings& r)
{
    const std::uint64_t bytes = recorded_bytes(r);
    if (bytes <= kMaxRecordedBytes)
        return;
    const std::uint64_t per_step = recorded_bytes([&] {
        RunSettings one = r;
        one.steps = 1;
        return one;
    }());
    throw Error("--dump-run would record " + format_bytes(bytes) + " of batches (" + std::to_string(r.steps) +
                " steps of " + std::to_string(r.batch) + " x " + std::to_string(r.shape.context_length) +
                " tokens, inputs and targets), more than the " + format_bytes(kMaxRecordedBytes) +
                " a run dump may hold; give at most --steps " + std::to_string(kMaxRecordedBytes / per_step) +
                " at this batch and context.");
}

SweepMemory sweep_memory(const std::vector<RunSettings>& runs, int threads, std::uint64_t process)
{
    SweepMemory m;
    m.process = process;
    m.runs = runs.size();
    m.at_once = std::min<std::size_t>(runs.size(), static_cast<std::size_t>(std::max(threads, 1)));
    Real kept = 0, largest_optimizer = 0, largest_working = 0;
    for (const RunSettings& r : runs) {
        // Initial and trained weights, the loss curve (a double a step) and its held-out points.
        kept += 2.0L * parameter_bytes(r) + 8.0L * static_cast<Real>(r.steps) + 4096.0L;
        largest_optimizer = std::max(largest_optimizer, 3.0L * parameter_bytes(r)); // gradients, m, v
        largest_working = std::max(largest_working, working_bytes(r));
    }
    // The runs training at once: at most `at_once` of them, each at most the largest's. The head reports after
    // them keep `threads` nets and copies of the weights (the threads share a report's chunks when the runs are
    // fewer): one third of a run's gradients and moments, and at most its working set, each.
    const Real at_once = static_cast<Real>(m.at_once), reporting = static_cast<Real>(std::max(threads, 1));
    m.kept = saturate(kept);
    m.optimizer = saturate(std::max(at_once, reporting / 3.0L) * largest_optimizer);
    m.activations = saturate(std::max(at_once, reporting) * largest_working);
    Real recorded = 0;
    for (const RunSettings& r : runs)
        recorded += static_cast<Real>(recorded_bytes(r));
    m.recorded = saturate(recorded);
    return m;
}

void check_sweep_memory(const SweepMemory& m, const RunSettings& first, std::uint64_t budget, std::uint64_t machine)
{
    const std::uint64_t need = m.total(), limit = std::min(budget, machine);
    if (need <= limit)
        return;
    const auto [needText, limitText] = format_bytes_apart(need, limit);
    const std::string runs = plural(m.runs, "run", "runs");
    std::string parts = format_bytes(m.process) + " the program itself, " + format_bytes(m.kept) +
                        " initial and trained weights of " + runs + ", " + format_bytes(m.optimizer) +
                        " gradients and AdamW's two moments and " + format_bytes(m.activations) + " activations of " +
                        plural(m.at_once, "run", "runs") + " training at once";
    if (m.recorded)
        parts += ", " + format_bytes(m.recorded) + " of batches recorded for --dump-run";
    const std::string head = "train needs about " + needText + " (" + std::to_string(need) + " bytes: " + parts + ")";
    // The part that costs most, and the settings that set it.
    const std::uint64_t weights = add(m.kept, m.optimizer);
    std::string advice;
    if (m.process > budget)
        advice = "give a --max-memory of at least " + format_bytes(need);
    else if (m.recorded >= weights && m.recorded >= m.activations)
        advice = "most of it is the recorded batches: give fewer --steps or a smaller --batch with --dump-run";
    else if (m.activations >= weights)
        advice = "most of it is the activations (--batch " + std::to_string(first.batch) + " x --context " +
                 std::to_string(first.shape.context_length) + " tokens, each with --emb " +
                 std::to_string(first.shape.emb_dim) + " values and heads x context attention weights in each of " +
                 std::to_string(first.shape.n_layers) + " layers): give a smaller --batch or --context, or fewer heads";
    else
        advice = "most of it is the weights (--emb " + std::to_string(first.shape.emb_dim) + ", --layers " +
                 std::to_string(first.shape.n_layers) + ", --vocab " + std::to_string(first.shape.vocab_size) +
                 ", five copies a run while it trains, two after): give a smaller --emb or fewer --layers" +
                 (m.runs > 1 ? ", or fewer runs (--heads values x --seeds)" : "");
    if (machine < budget)
        throw Error(head + ", more than the " + limitText + " of memory this machine has, so nothing was trained; " +
                    advice + ".");
    throw Error(head + ", more than the " + limitText + " memory budget (--max-memory), so nothing was trained; " +
                advice + (need <= machine && m.process <= budget ? ", or a larger --max-memory." : "."));
}

} // namespace attnlab::train
