#pragma once
// A sweep's trained models kept inside its session file, so a session saved after training reopens with models to
// study and save on a machine that never trained them. Each finished run's model is the very file `train --save`
// writes (core's trained_model_bytes), base64 in the run's "model" field, and is read back through the checks any
// model file goes through (core's parse_gpt_model: header, offsets, shapes, finite values), then held to the run's
// own settings. Inside the file rather than in a folder beside it: one file to copy to the classroom machine, and
// the atomic writer that saves the session saves its models with it, so a failed save leaves the old file whole.
#include "features/tradeoffs/sweep_results.h"
#include "train/run_files.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace attnlab::ui {

// At most this much of a session file's models, as their safetensors files count it: the default the-verdict sweep
// (16 models of about 2.8 MB) fits, and the file, base64 adding a third, stays under the 80 MiB a session may be.
inline constexpr std::uint64_t kSessionModelBytes = std::uint64_t{48} << 20;

// The run's own settings and weights, as train_run returned them (what save_trained_model reads), and its results
// for the file's metadata.
train::RunResult sweepRunToSave(const SweepResults& results, int runIndex);
train::Metadata sweepRunMetadata(const SweepRun& run);

// Which runs a session file keeps the model of: each finished run with weights, in the sweep's order, while their
// weights come to at most kSessionModelBytes; a model beyond that is left out (the results keep the run).
std::vector<bool> sweepModelsKept(const SweepResults& results);
// "A saved session keeps these 6 models (0.2 MB)." or that it keeps 10 of 16 and why; empty when none has weights.
QString sweepModelsSentence(const SweepResults& results);

// The run's model file, base64, for its "model" field.
QString sweepModelToBase64(const SweepResults& results, int runIndex);
// A run's "model" read back: its weights in train/gpt_params.h's layout, bit for bit those saved. Null and *problem
// set to one sentence naming the run when it is not base64, not a model file, not this run's model (another shape
// or task) or larger than what is left of `*bytesLeft` (which it then takes its size from).
std::shared_ptr<const std::vector<float>> sweepModelFromBase64(const QJsonValue& value, const SweepSettings& settings,
                                                               const SweepRun& run, std::uint64_t* bytesLeft,
                                                               QString* problem);

// The features' parts of a session without the sweep's models: the state the app remembers between runs in its
// settings, which are no place for megabytes (a session saved to a file keeps them).
void dropSweepModels(QJsonObject& features);

} // namespace attnlab::ui
