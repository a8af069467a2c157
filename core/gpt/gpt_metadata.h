#pragma once
// The settings a trained GPT file's metadata states besides its shape (train --save writes them; the shipped
// models carry them): checked when the file is opened, so a value no trainer writes is refused by name there,
// not taken on trust and met later as a tokenizer that is not one or a task nothing can pose.
#include "io/safetensors.h"

#include <string>

namespace attnlab {

// For a file whose metadata says format "attention-lab-gpt": "tokenizer" is letters or book-ch2-simple, "task"
// one of the trainer's tasks and read by that tokenizer, "drop_rate" a number from 0 to below 1, "qkv_bias" true
// or false; each may be absent (older files). Throws Error with one sentence naming `who` and the key.
void check_trained_gpt_metadata(const SafetensorsFile& file, const std::string& who);

} // namespace attnlab
