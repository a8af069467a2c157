#pragma once
// What a training run leaves on disk, both safetensors through the atomic writer:
// - the model (save_trained_model): the book's state_dict names, F32, and the settings and results in the
//   metadata under the keys the shipped models use (format attention-lab-gpt, vocab_size, emb_dim, ...), so
//   load_gpt_model, the app and `run --model` open it;
// - the run (write_run_dump): init.<state_dict name> for every initial parameter, inputs and targets
//   (steps x batch x context, I64, -100 where not scored) and loss (F32, one per step), so PyTorch can
//   replay it (tests/reference/replay_run.py).
#include "train/train_run.h"

#include <string>
#include <utility>
#include <vector>

namespace attnlab::train {

using Metadata = std::vector<std::pair<std::string, std::string>>;

// The run's settings as metadata strings (both files carry them).
Metadata run_metadata(const RunSettings& settings);

// Throws WriteError (before writing anything) when the path cannot take a file.
void save_trained_model(const std::string& path, const RunResult& run, const Metadata& results);
// The bytes save_trained_model writes, in memory (a session file keeps its sweep's models so); `name` names it in
// messages.
std::string trained_model_bytes(const RunResult& run, const Metadata& results, const std::string& name);
void write_run_dump(const std::string& path, const RunResult& run);

} // namespace attnlab::train
