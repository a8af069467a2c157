#include "forward/experiment_check.h"

#include "forward/experiment.h"
#include "forward/trace.h"

namespace attnlab {

bool book_input_fits(const Config& config, std::int64_t num_tokens)
{
    return config.d_in == kBookWidth && num_tokens == kBookTokens;
}

std::int64_t tokens_within_budget(const Config& config, std::int64_t batch, std::int64_t tokens, std::uint64_t budget)
{
    std::int64_t lo = 0, hi = tokens;
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (estimate_memory_bytes(config, {batch, mid}) <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

std::optional<Diagnostic> memory_budget_check(const Config& config, InputShape input, std::uint64_t budget)
{
    const std::uint64_t need = estimate_memory_bytes(config, input);
    if (need <= budget)
        return std::nullopt;
    Diagnostic d{DiagnosticCode::MemoryBudget,
                 Severity::Error,
                 Slot::num_tokens,
                 "this request needs about " + format_bytes(need) +
                     " (weights plus every recorded stage), more than the " + format_bytes(budget) +
                     " memory budget, so it was not attempted; use fewer tokens, a smaller batch or fewer heads.",
                 {}};
    if (const std::int64_t fit = tokens_within_budget(config, input.batch, input.num_tokens, budget); fit > 0)
        d.fixes.push_back({Slot::num_tokens, fit});
    return d;
}

std::vector<Diagnostic> experiment_refusals(const Config& config, InputShape input, std::uint64_t budget)
{
    std::vector<Diagnostic> out;
    for (auto& d : validate(config, input))
        if (d.severity == Severity::Error)
            out.push_back(std::move(d));
    if (out.empty())
        if (auto memory = memory_budget_check(config, input, budget))
            out.push_back(std::move(*memory));
    return out;
}

} // namespace attnlab
