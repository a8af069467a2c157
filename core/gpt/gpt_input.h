#pragma once
// The Text input source: a sentence, tokenized by the chapter 2 tokenizer, enters a trained GPT, and
// the attention under study is one layer's, with that layer's trained weights, receiving what the
// GPT gives it (embeddings through the earlier blocks, then norm1). When the student edits the
// config away from the model's attention, the trained weights no longer fit: the module gets
// seeded weights instead (and seeded input when d_in no longer matches), and fit_note() says why.
#include "call/config.h"
#include "forward/experiment.h"
#include "gpt/gpt_forward.h"
#include "text/tokenizer.h"

#include <memory>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

// Loaded once per path and shared (the worker thread and the GUI both ask); throws Error like load_gpt_model.
std::shared_ptr<const GptModel> cached_gpt_model(const std::string& path);

struct TextInput {
    std::shared_ptr<const GptModel> model;
    std::vector<std::string> tokens;
    std::vector<std::int64_t> ids;
};
// The longest text the Text input takes, in bytes. The trained models read 64 tokens at a time and a text
// is there to be read token by token, one chip each: a whole book pasted in would only stall the window.
inline constexpr std::size_t kLongestText = 20000;
// One sentence saying why `text` cannot be the Text input (not UTF-8, longer than kLongestText), or nullopt.
std::optional<std::string> text_problem(std::string_view text);
// One sentence naming the model's layers when `layer` is not one of them, or nullopt.
std::optional<std::string> layer_problem(const GptModel& model, int layer);

// Tokenizes spec.text and loads spec.gpt_model_path; throws Error for a missing model or a bad layer.
TextInput text_input(const ExperimentSpec& spec);

// Whether the model's trained attention weights fit `config` (MultiHeadAttention, d_in = d_out =
// emb_dim, the model's num_heads and qkv_bias; context_length and dropout do not change the weights).
bool trained_weights_fit(const Config& config, const GptConfig& model);
// One sentence saying why they do not fit and what the module uses instead; nullopt when they fit.
std::optional<std::string> fit_note(const Config& config, const GptModel& model);

// Fills e.weights and e.x for the Text source (e.spec already validated).
void prepare_text_experiment(Experiment& e, const TextInput& text);

} // namespace attnlab
