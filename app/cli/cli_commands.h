#pragma once
#include "cli/cli_args.h"
#include "forward/experiment.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cli {

// Each command returns the process exit code: 0 done, 1 refused input (sentence on stderr).
int cmd_validate(const std::vector<std::string>& argv);
int cmd_trace(const std::vector<std::string>& argv);
int cmd_run(const std::vector<std::string>& argv);
int cmd_bench(const std::vector<std::string>& argv);
// One element followed through the layout steps to its sources (cli_follow.cpp).
int cmd_follow(const std::vector<std::string>& argv);
// The request `run` and `trace` read from their options (--call, --seed, --input, ...), for other commands.
attnlab::ExperimentSpec run_spec_from(const Args& a);
const std::set<std::string>& run_options();
// The folder the program runs from (shipped models and tokenizers are found from it), and ids as "1,2,3".
std::string exe_dir();
std::string ids_csv(const std::vector<std::int64_t>& ids);
// The debugging lessons (cli_lessons.cpp).
int cmd_diagnose(const std::vector<std::string>& argv);
int cmd_transfer(const std::vector<std::string>& argv);
int cmd_contract(const std::vector<std::string>& argv);
// Wrapper vs integrated (cli_designs.cpp, cli_tradeoffs.cpp).
int cmd_layout(const std::vector<std::string>& argv);
int cmd_equivalence(const std::vector<std::string>& argv);
int cmd_tradeoffs(const std::vector<std::string>& argv);
// Key/value heads and the KV cache's bytes: a published config, sizes or a call (cli_kv_cache.cpp).
int cmd_kv_cache(const std::vector<std::string>& argv);
// "Load your own": what a weights file says about its module (cli_inspect.cpp).
int cmd_inspect(const std::vector<std::string>& argv);
// Compare With My Code: a learner's recorded module against the book's stages (cli_compare.cpp).
int cmd_compare(const std::vector<std::string>& argv);
// The trained Verdict GPTs (cli_gpt.cpp): the tokenizer, and `run --model` (cmd_run hands over).
int cmd_tokenize(const std::vector<std::string>& argv);
// `tokenize --tokenizer gpt2|FOLDER` (cli_tokenize_gpt2.cpp); `text` is checked UTF-8.
int tokenize_gpt2(const Args& a, const std::string& which, const std::string& text, const std::string& exe_dir);
int cmd_run_gpt(const std::vector<std::string>& argv);
// The book's GPTModel trained on a task, several num_heads and seeds in parallel (cli_train.cpp).
int cmd_train(const std::vector<std::string>& argv);
// Several `train --json` documents of one experiment, each with its own seeds, as one table (cli_pool.cpp).
int cmd_pool(const std::vector<std::string>& argv);
// GPT-2 checkpoints (cli_gpt2.cpp): a folder, or a file holding a whole GPT (wte or tok_emb).
bool is_whole_gpt_checkpoint(const std::string& path);
int run_gpt2_checkpoint(const Args& a, const std::string& path);
int inspect_gpt2_checkpoint(const std::string& path, bool as_json);
// "I,J,..." as token ids (--ids), each a whole number from 0; attnlab::Error naming --ids otherwise.
std::vector<std::int64_t> parse_ids(const std::string& text);
// Greedy generation, token by token, with and without the KV cache (cli_generate.cpp).
int cmd_generate(const std::vector<std::string>& argv);
// Predict First's questions on a call as a GIFT quiz or a page to print (cli_handout.cpp).
int cmd_handout(const std::vector<std::string>& argv);

} // namespace cli
