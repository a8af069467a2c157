#pragma once
// Which weights the session computes with: seeded, or a file the student loaded ("Load your own").
// Turning a file's inspection plus the student's choices (module, layer, num_heads) into the settings
// lives here, so the dialog, the command line and the tests all build the same ExperimentSpec.
#include "forward/experiment.h"
#include "io/weights_inspect.h"

#include <QString>

#include <optional>

namespace attnlab::ui {

struct WeightsChoice {
    ModuleKind kind = ModuleKind::MultiHeadAttention;
    int layer = 0;
    std::int64_t numHeads = 1;
};

// The first choice to offer: the current module if the file fits it, the file's first layer, and
// suggested_num_heads() (or the wrapper's own head count).
WeightsChoice defaultChoice(const WeightsInfo& info, const ExperimentSpec& current);

// `current` with the file's weights: the module, d_in, d_out, qkv_bias and layout from the file,
// num_heads and layer as chosen, context_length as the file says (else at least the tokens), and the
// tokens cut to that context length. Everything else (batch, seed, training, budget) stays.
ExperimentSpec specWithFileWeights(const ExperimentSpec& current, const QString& path, const WeightsInfo& info,
                                   const WeightsChoice& choice);
// `current` with seeded weights again; the config stays, since it fits any seed.
ExperimentSpec specWithSeededWeights(const ExperimentSpec& current);

// Reads and inspects `path` and applies the default choice (or `layer`); nullopt and *error (one
// sentence) when the file cannot be read, fits no layout, or has no such layer. For --weights.
std::optional<ExperimentSpec> specWithFileWeights(const ExperimentSpec& current, const QString& path,
                                                  std::optional<int> layer, QString* error);

// "Weights: gpt2.safetensors, layer 3" or "Weights: torch.manual_seed(123)" (seeded), for the status bar.
QString weightsSummary(const ExperimentSpec& spec);

} // namespace attnlab::ui
