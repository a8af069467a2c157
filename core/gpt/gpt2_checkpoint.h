#pragma once
// A GPT-2 checkpoint from outside the app: Hugging Face's model.safetensors (Conv1D layout (in, out),
// query, key and value fused in c_attn, names with or without "transformer.") with its config.json, or
// the book's chapter 5 GPTModel saved under its state_dict names. Both are read into the book's names and
// nn.Linear's (out, in) layout -- the chapter 5 weight transfer -- so one forward serves both, and the
// attention of every block is a MultiHeadAttention the engine traces.
#include "gpt/gpt_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

enum class Gpt2Layout { HuggingFace, Book };
std::string gpt2_layout_name(Gpt2Layout layout); // "gpt2-hf", "book-ch5"

// One stored tensor and what it becomes: nn.Linear weights are Conv1D's transposed, c_attn's three
// column blocks are W_query, W_key and W_value.
struct Gpt2Source {
    enum class Use { Copy, Transpose, SplitColumns, SplitBias };
    std::string name; // as stored, e.g. "transformer.h.0.attn.c_attn.weight"
    Shape shape;      // what the settings require
    Use use = Use::Copy;
    std::vector<std::string> targets; // book names; three for the split ones
};

// What a checkpoint holds and how it would be read, from its header and config.json alone.
struct Gpt2Plan {
    std::string file;        // the safetensors file
    std::string config_path; // the config.json read, "" when there is none
    std::string name;        // the folder's name for model.safetensors, else the file's stem
    Gpt2Layout layout = Gpt2Layout::HuggingFace;
    std::string prefix; // "" or "transformer."
    GptConfig settings; // qkv_bias true for GPT-2
    double layer_norm_eps = 1e-5;
    bool tied_head = true;           // logits through the token embedding (no separate lm_head / out_head)
    std::string heads_from;          // where n_head came from: "config.json", "metadata", "n_embd / 64"
    std::vector<std::string> dtypes; // stored dtypes of the tensors read, e.g. {"F16"}
    std::uint64_t stored_bytes = 0;  // the bytes of the tensors read, as stored
    std::uint64_t weight_bytes = 0;  // the same as F32 in memory (the tied head not counted twice)
    std::uint64_t largest_source =
        0;                           // F32 bytes of the biggest tensor converted (transposed or split): held twice then
    std::vector<Gpt2Source> sources; // every tensor read, in the order they are read
    std::uint64_t ignored = 0;       // stored tensors not needed (GPT-2's attn.bias mask buffers, ...)
    std::string tokenizer;           // the metadata's "tokenizer" (gpt_text.h): "" for a checkpoint from elsewhere
};

// Finds the safetensors file (a folder's model.safetensors) and config.json beside it, checks every tensor's
// name and shape against the settings. Throws Error with one sentence naming the file and what is wrong.
Gpt2Plan plan_gpt2_checkpoint(const std::string& path);
// A checkpoint's name as Gpt2Plan::name gives it: the folder's for model.safetensors, else the file's stem
// (also for a saved session's checkpoint that no longer exists, which has no plan).
std::string gpt2_checkpoint_name(const std::string& file);
// Whether `path` is a GPT-2 checkpoint for plan_gpt2_checkpoint rather than an app-trained verdict-gpt file
// (a folder, or a safetensors file holding a whole GPT -- wte or tok_emb -- whose metadata does not say
// format "attention-lab-gpt"). Anything else is for load_gpt_model to name what is wrong with.
bool is_gpt2_checkpoint(const std::string& path);

// Bytes loading needs at its peak: the weights as F32, one stored tensor converted, the program itself.
std::uint64_t gpt2_load_bytes(const Gpt2Plan& plan);
// Reads every tensor once into the book's names (F16 and BF16 widened to F32), after checking that
// gpt2_load_bytes fits `budget` (one sentence with both numbers when it does not).
GptModel load_gpt2_checkpoint(const Gpt2Plan& plan, std::uint64_t budget);

// "gpt2-hf (Hugging Face), 12 layers, 12 heads, n_embd=768, n_positions=1024, vocab 50257, eps 1e-05, F32,
// head tied to wte, 474.7 MiB as F32"
std::string describe_gpt2_plan(const Gpt2Plan& plan);
// The chapter 5 weight transfer as the code lines it amounts to (the book's load_weights_into_gpt for
// this file's names), for a dialog or the CLI to show.
std::vector<std::string> gpt2_mapping_code(const Gpt2Plan& plan);

} // namespace attnlab
