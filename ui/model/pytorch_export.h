#pragma once
// "Copy as PyTorch": the book's class for the current module, constructed with the current call,
// loading the weights and the input the app used from a safetensors file the app writes (state_dict
// names, plus `x`), so `python3 script.py` reproduces the app's output in PyTorch.
#include "forward/experiment.h"

#include <QString>

namespace attnlab::ui {

// Runnable Python; `weightsPath` is written into the script as the file to load.
QString pytorchScript(const Config& config, const QString& weightsPath);

// Writes the experiment's weights under their state_dict names and its input as `x` (F32, atomic).
// Throws attnlab::Error when the settings cannot be prepared or the file cannot be written.
void exportWeightsAndInput(const ExperimentSpec& spec, const QString& path);

// The spec the session computes with: the book's embedded tokens when it can take them.
ExperimentSpec effectiveSpecOf(const ExperimentSpec& spec, bool bookInput);

} // namespace attnlab::ui
