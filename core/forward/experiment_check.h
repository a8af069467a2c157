#pragma once
// Every reason a request is refused before anything is allocated, said once for both front ends:
// the CLI's prepare() throws the first, the GUI lists them all as diagnostics with their fixes.
#include "call/config.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab {

// The book's six embedded tokens ("Your journey starts with one step") in 3 dimensions.
inline constexpr std::int64_t kBookTokens = 6;
inline constexpr std::int64_t kBookWidth = 3;
// Whether the book's input fits: it needs d_in = 3 and six tokens.
bool book_input_fits(const Config& config, std::int64_t num_tokens);

// The largest token count whose trace fits the budget (0 when none does).
std::int64_t tokens_within_budget(const Config& config, std::int64_t batch, std::int64_t tokens, std::uint64_t budget);

// "memory-budget" when the trace would need more than the budget, with the token count that fits as
// its fix; nothing when it fits.
std::optional<Diagnostic> memory_budget_check(const Config& config, InputShape input, std::uint64_t budget);

// The config's errors for this input (validate), then the memory budget when the config is sound.
std::vector<Diagnostic> experiment_refusals(const Config& config, InputShape input, std::uint64_t budget);

} // namespace attnlab
