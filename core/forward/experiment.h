#pragma once
// One forward-pass request as the CLI and the GUI both state it: a config, where the weights and
// the input come from, and the memory budget. prepare() checks everything and refuses with one
// sentence before allocating; run() then traces it.
#include "call/config.h"
#include "forward/experiment_check.h"
#include "forward/trace.h"
#include "io/weights.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

// Text: a sentence through the chapter 2 tokenizer and a trained GPT's earlier blocks (gpt/gpt_input.h).
enum class InputSource { Random, Book, File, Text };

struct ExperimentSpec {
    Config config;
    std::int64_t batch = 1;
    std::int64_t num_tokens = 6;
    std::uint64_t seed = 123; // torch.manual_seed(seed) before constructing the module
    std::string weights_path; // empty: seeded initialisation
    WeightLayout layout = WeightLayout::Torch;
    bool layout_from_file = true; // use the file's __metadata__.layout when it names one
    int layer = 0;
    InputSource input = InputSource::Random;
    std::string input_path; // for InputSource::File: tensor `x` of a safetensors file
    // For InputSource::Text: the text, the trained model (a verdict-gpt file) and the layer studied.
    // The trained weights are used while the config is the model's own attention; otherwise seeded.
    std::string text;
    std::string gpt_model_path;
    int gpt_layer = 0;
    bool training = false;
    // torch.manual_seed(dropout_seed) right before the forward, as the book does before its dropout
    // example; without it dropout continues the stream the initialisation left.
    std::optional<std::uint64_t> dropout_seed;
    std::uint64_t memory_budget = std::uint64_t{2} << 30;
    MemoryUse memory_use; // what the caller does besides one trace: passes, a dump, its own baseline
};

struct Experiment {
    ExperimentSpec spec;
    StateDict weights;
    Tensor x;
    TorchGenerator generator{0}; // torch's default generator right after the module's constructor
};

// The generator dropout draws from: spec.dropout_seed's, or a copy of e.generator (so running an
// experiment twice gives the same masks, as if the module had just been constructed each time).
TorchGenerator dropout_generator(const Experiment& e);

std::string format_bytes(std::uint64_t bytes, int decimals = 2); // "1.50 GiB"
// A need and the limit it exceeds, in as many decimals as they take to differ ("3.914 GiB" beside "3.906 GiB",
// where two decimals said 3.91 and 3.91), and in bytes where no decimals do.
std::pair<std::string, std::string> format_bytes_apart(std::uint64_t need, std::uint64_t limit);

// Throws Error: invalid config, memory estimate beyond the budget (both numbers said), bad files.
Experiment prepare(const ExperimentSpec& spec);
// cancel: see ForwardOptions::cancel (throws Cancelled when it turns true mid-way).
Trace run(const Experiment& experiment, const std::atomic<bool>* cancel = nullptr);

// The canonical stages, every one as F32 under its canonical name, the call in __metadata__ (plus
// `extra`, e.g. where a trained model's input came from). Atomic.
void write_dump(const std::string& path, const Trace& trace,
                const std::vector<std::pair<std::string, std::string>>& extra = {});

} // namespace attnlab
