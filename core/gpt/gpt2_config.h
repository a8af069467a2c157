#pragma once
// The settings a checkpoint's tensors do not carry: n_head and the LayerNorm eps. They come from the
// config.json beside the file (Hugging Face's keys or the book's GPT_CONFIG_124M keys), else the file's
// metadata, else GPT-2's own rule (every size has 64-wide heads); what the config states and the tensors
// also show must agree.
#include "gpt/gpt2_checkpoint.h"
#include "io/safetensors.h"

namespace attnlab {

// Fills p.settings.n_heads, p.layer_norm_eps, p.heads_from and p.config_path; p's other settings come from
// the tensors already. Throws Error naming config.json and the field when it does not parse or disagrees.
void apply_gpt2_config(Gpt2Plan& p, const SafetensorsFile& file);

} // namespace attnlab
