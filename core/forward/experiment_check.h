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

// One traced forward pass as the allocator sees it, walked from the stage table's rows (stage_plan.cpp):
// `*_data` are the tensors' values alone, the others add the allocator's rounding and the bookkeeping
// (the Stage objects, their names and shapes, the weights' map entries).
struct TraceFootprint {
    std::uint64_t weights = 0, weight_data = 0;
    std::uint64_t largest_parameter = 0; // values of the biggest parameter: initialisation holds it twice
    std::uint64_t parameter_list = 0;    // parameter_specs' list, alive while the weights are drawn
    std::uint64_t input = 0, input_data = 0;
    std::uint64_t stages = 0, stage_data = 0; // every recorded stage (views share their base's values)
    std::uint64_t largest_stage = 0;          // values of the biggest stage, views included: one copy of it
    std::uint64_t stage_count = 0;
    std::uint64_t name_bytes = 0; // the stage names' characters
};
TraceFootprint trace_footprint(const Config& config, InputShape input);

// What a request does around its traced forward, so the estimate counts all of it.
struct MemoryUse {
    int passes = 1;                 // traces alive at once: diagnose keeps the book's and the buggy one
    bool bug_forward = false;       // the passes run the lessons' op-by-op forward, with its temporaries and comparison
    bool dump = false;              // the stages are written to a safetensors file (the writer copies each one)
    bool json_stages = false;       // a JSON document describing every stage is built before it is printed
    bool weights_from_file = false; // the file's tensors and the state dict made from them
    std::uint64_t process = 0;      // what the program itself holds (process_baseline_bytes); 0 in the GUI
};

// The resident memory of this process before a request, with room for its buffers and threads: the
// CLI counts it in the estimate, so the budget bounds the whole process's peak.
std::uint64_t process_baseline_bytes();

// The memory and swap this machine has (the largest number when unknown): a budget above it is held to it.
std::uint64_t machine_memory_bytes();

// Bytes the request will hold at its peak: the process, the weights and their initialisation, the input,
// every recorded stage of every pass, and the copies a dump or a comparison makes. Saturates, never wraps.
std::uint64_t estimate_request_bytes(const Config& config, InputShape input, const MemoryUse& use = {});

// The largest token count whose request fits the budget (0 when none does).
std::int64_t tokens_within_budget(const Config& config, std::int64_t batch, std::int64_t tokens, std::uint64_t budget,
                                  const MemoryUse& use = {});

// "memory-budget" when the request would need more than the budget, with the token count that fits as
// its fix; nothing when it fits.
std::optional<Diagnostic> memory_budget_check(const Config& config, InputShape input, std::uint64_t budget,
                                              const MemoryUse& use = {});

// The config's errors for this input (validate), then the memory budget when the config is sound.
std::vector<Diagnostic> experiment_refusals(const Config& config, InputShape input, std::uint64_t budget,
                                            const MemoryUse& use = {});

} // namespace attnlab
