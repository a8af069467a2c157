#pragma once
// Where a GPT-2 tokenizer's files are: in a folder (beside a checkpoint, or given), or the copies of GPT-2's
// own files shipped with the app (resources/tokenizers/gpt2), found as the trained models are
// (gpt/model_paths.h): installed beside the program first, then in the source tree it was built from.
#include "text/gpt2_tokenizer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

// The folders searched for the shipped files, in order: <exe_dir>/../share/attention-lab/tokenizers/gpt2, then
// the source tree's resources/tokenizers/gpt2 (known at build time).
std::vector<std::string> gpt2_tokenizer_dirs(const std::string& exe_dir);

// The pair of files in `folder`: Hugging Face's vocab.json + merges.txt, else OpenAI's encoder.json + vocab.bpe;
// nullopt when it holds neither. A whole pair is read beside a stray file of the other; Throws Error when it holds
// one file of a pair without the other and no whole pair.
std::optional<Gpt2TokenizerFiles> gpt2_tokenizer_files_in(const std::string& folder);

// The tokenizer that goes with a checkpoint: the files in its folder (the checkpoint's own folder when it
// is a file), nullopt when there are none there.
std::optional<Gpt2TokenizerFiles> gpt2_tokenizer_beside(const std::string& checkpoint_path);

// "gpt2" (the shipped files, from the first of `dirs` that has them) or a folder holding a tokenizer's
// files. Throws Error naming what was searched and what would be valid.
Gpt2TokenizerFiles resolve_gpt2_tokenizer(const std::string& name_or_folder, const std::vector<std::string>& dirs);

// The memory the tokenizer in `files` takes read, from the two files' sizes alone (nothing is read): their text
// and the tables made of it. run --model, tokenize and the window count it against the budget before reading.
std::uint64_t gpt2_tokenizer_bytes(const Gpt2TokenizerFiles& files);
// Gpt2Tokenizer::from_files once gpt2_tokenizer_bytes (and the program itself) fits `budget` and the machine;
// otherwise one sentence with both numbers, and nothing read.
Gpt2Tokenizer read_gpt2_tokenizer(const Gpt2TokenizerFiles& files, std::uint64_t budget);
// The files gpt2_tokenizer_for reads for a checkpoint: those beside it, else the shipped ones.
Gpt2TokenizerFiles gpt2_tokenizer_files_for(const std::string& checkpoint_path, const std::string& exe_dir);

// GPT-2's own tokenizer from the shipped files, read once (later calls return the same one).
const Gpt2Tokenizer& shipped_gpt2_tokenizer(const std::string& exe_dir);

// The tokenizer a checkpoint is read with: the files beside it when there are any, else GPT-2's own.
Gpt2Tokenizer gpt2_tokenizer_for(const std::string& checkpoint_path, const std::string& exe_dir);

} // namespace attnlab
