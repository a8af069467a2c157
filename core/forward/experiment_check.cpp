#include "forward/experiment_check.h"

#include "forward/experiment.h"
#include "forward/trace.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <thread>

#ifndef _WIN32
#include <unistd.h>
#endif
#ifdef __linux__
#include <sys/sysinfo.h>
#endif

namespace attnlab {

namespace {

using Real = long double; // absurd requests saturate instead of wrapping around

constexpr Real kMiB = 1 << 20;
constexpr Real kPage = 4096;

Real pages(Real bytes) // a std::vector that large is mapped page by page
{
    return std::ceil(bytes / kPage) * kPage;
}

Real real(std::uint64_t v)
{
    return static_cast<Real>(v);
}

std::uint64_t saturate(Real bytes)
{
    if (!(bytes < static_cast<Real>(std::numeric_limits<std::uint64_t>::max())))
        return std::numeric_limits<std::uint64_t>::max();
    return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
}

// safetensors_write.cpp per stage: the (name, tensor) list, the name set, the header's JSON entry and
// its text. Measured at about 0.9 KiB for short names; the names' characters are counted on top.
constexpr Real kDumpBytesPerStage = 1280;
// The CLI's JSON description of a stage (name, line, code, axes, shapes, strides) and its printed text.
constexpr Real kJsonBytesPerStage = 3584; // measured at about 3.1 KiB

} // namespace

bool book_input_fits(const Config& config, std::int64_t num_tokens)
{
    return config.d_in == kBookWidth && num_tokens == kBookTokens;
}

std::uint64_t process_baseline_bytes()
{
    // The program's code, libraries and stdio before the request, plus room for what it starts later:
    // the GEMM's packing buffers, thread stacks and malloc's arenas.
    constexpr Real floor = 16 * kMiB, headroom = 8 * kMiB;
    Real resident = 0;
#ifndef _WIN32
    std::ifstream statm("/proc/self/statm");
    long long size = 0, pages_resident = 0;
    if (statm >> size >> pages_resident)
        resident = static_cast<Real>(pages_resident) * static_cast<Real>(sysconf(_SC_PAGESIZE));
#endif
    return saturate(std::max(floor, std::ceil(resident / kMiB) * kMiB + headroom));
}

std::uint64_t machine_memory_bytes()
{
#ifdef __linux__
    struct sysinfo info {};
    if (sysinfo(&info) == 0 && info.totalram > 0)
        return saturate((static_cast<Real>(info.totalram) + static_cast<Real>(info.totalswap)) *
                        static_cast<Real>(std::max<unsigned>(info.mem_unit, 1)));
#endif
    return std::numeric_limits<std::uint64_t>::max();
}

std::uint64_t estimate_request_bytes(const Config& config, InputShape input, const MemoryUse& use)
{
    const TraceFootprint f = trace_footprint(config, input);
    // Initialisation draws each parameter (and the input) into a vector before copying it into its tensor.
    const Real load = pages(real(f.largest_parameter)) + pages(real(f.input_data));
    const Real weights = real(f.weights) * (use.weights_from_file ? 2 : 1);
    const Real copy = pages(real(f.largest_stage)); // one stage's values as a std::vector
    const Real b = static_cast<Real>(std::max<std::int64_t>(input.batch, 0)),
               T = static_cast<Real>(std::max<std::int64_t>(input.num_tokens, 0));
    const Real flat = 4 * b * T * static_cast<Real>(std::max<std::int64_t>({config.d_in, config.d_out, 0}));
    // The GEMM library packs the activations' blocks into per-thread buffers: at most twice their size,
    // and at most its buffer per thread.
    const Real threads = std::max(1u, std::thread::hardware_concurrency());
    const Real gemm = std::min(threads * 32 * kMiB, 2 * flat);
    const Real passes = std::max(use.passes, 1);
    // parameter_specs' list is freed before the first stage, which then reuses its memory.
    const Real stages = std::max(passes * real(f.stages), real(f.parameter_list));
    Real total = real(use.process) + load + weights + real(f.input) + gemm + stages;
    if (use.bug_forward) {
        // The op-by-op forward's temporaries, which go back to the tensor pool and stay resident: the
        // scaled scores before the softmax, contiguous copies of the split heads for the products and the
        // causal mask (context_length squared, then cut to the tokens); its stage list grows by doubling.
        // Comparing a stage then reads both passes' values into vectors, and the report holds every row.
        const Real ctx = static_cast<Real>(std::max<std::int64_t>(config.context_length, 0));
        total += copy + 4 * flat + pages(4 * ctx * ctx) + pages(4 * T * T) +
                 2 * passes * real(f.stage_count) * sizeof(Stage) + 2 * copy + 4 * kMiB;
    }
    if (use.dump)
        total += 2 * copy + real(f.stage_count) * kDumpBytesPerStage + 3 * real(f.name_bytes);
    if (use.json_stages)
        total += real(f.stage_count) * kJsonBytesPerStage + 6 * real(f.name_bytes);
    return saturate(total);
}

std::int64_t tokens_within_budget(const Config& config, std::int64_t batch, std::int64_t tokens, std::uint64_t budget,
                                  const MemoryUse& use)
{
    std::int64_t lo = 0, hi = tokens;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (estimate_request_bytes(config, {batch, mid}, use) <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

std::optional<Diagnostic> memory_budget_check(const Config& config, InputShape input, std::uint64_t budget,
                                              const MemoryUse& use)
{
    const std::uint64_t need = estimate_request_bytes(config, input, use), machine = machine_memory_bytes();
    const std::uint64_t limit = std::min(budget, machine); // a budget beyond the machine cannot be kept
    if (need <= limit)
        return std::nullopt;
    // The exact count too, so a script (or a test) can give precisely the budget this request needs. The need and
    // the limit in digits that differ: "needs about 3.91 GiB ... more than the 3.91 GiB memory budget" said nothing.
    const auto [needText, limitText] = format_bytes_apart(need, limit);
    const std::string needs = "this request needs about " + needText + " (" + std::to_string(need) +
                              " bytes: " + (use.process ? "the program itself, " : "") +
                              "the weights, every recorded stage" + (use.passes > 1 ? " of both passes" : "") +
                              (use.dump ? " and the dump's copies" : "") + ")";
    std::string message;
    if (machine < budget)
        message = needs + ", more than the " + limitText + " of memory this machine has (the " + format_bytes(budget) +
                  " budget allows more), so it was not attempted; use fewer tokens, a smaller batch or fewer heads.";
    else if (use.process > budget)
        message = needs + ", more than the " + format_bytes(budget) + " memory budget, which is less than the " +
                  format_bytes(use.process) + " the program itself takes, so it was not attempted; give a budget of " +
                  "at least " + format_bytes(need) + ".";
    else
        message = needs + ", more than the " + limitText +
                  " memory budget, so it was not attempted; use fewer tokens, a smaller batch or fewer heads.";
    Diagnostic d{DiagnosticCode::MemoryBudget, Severity::Error, Slot::num_tokens, message, {}, {}};
    if (const std::int64_t fit = tokens_within_budget(config, input.batch, input.num_tokens, limit, use); fit > 0)
        d.fixes.push_back({Slot::num_tokens, fit});
    return d;
}

std::vector<Diagnostic> experiment_refusals(const Config& config, InputShape input, std::uint64_t budget,
                                            const MemoryUse& use)
{
    std::vector<Diagnostic> out;
    for (auto& d : validate(config, input))
        if (d.severity == Severity::Error)
            out.push_back(std::move(d));
    if (out.empty())
        if (auto memory = memory_budget_check(config, input, budget, use))
            out.push_back(std::move(*memory));
    return out;
}

} // namespace attnlab
