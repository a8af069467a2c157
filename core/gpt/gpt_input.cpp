#include "gpt/gpt_input.h"

#include "tensor/error.h"
#include "text/utf8.h"

#include <map>
#include <mutex>

namespace attnlab {

std::shared_ptr<const GptModel> cached_gpt_model(const std::string& path)
{
    // Four small files at most; keeping them saves re-reading 1.4 MB on every keystroke.
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const GptModel>> cache;
    {
        std::lock_guard lock(mutex);
        if (auto it = cache.find(path); it != cache.end())
            return it->second;
    }
    auto model = std::make_shared<const GptModel>(load_gpt_model(path));
    std::lock_guard lock(mutex);
    return cache.emplace(path, std::move(model)).first->second;
}

std::optional<std::string> text_problem(std::string_view text)
{
    if (auto sentence = utf8_problem_sentence(text, "the text"))
        return sentence;
    if (text.size() > kLongestText)
        return "the text is " + std::to_string(text.size()) + " bytes long; the Text input takes at most " +
               std::to_string(kLongestText) + " (the trained models read 64 tokens at a time).";
    return std::nullopt;
}

std::optional<std::string> layer_problem(const GptModel& model, int layer)
{
    if (layer >= 0 && layer < model.settings.n_layers)
        return std::nullopt;
    return "layer " + std::to_string(layer) + " does not exist; " + model.name + " has layers 0 to " +
           std::to_string(model.settings.n_layers - 1) + ".";
}

TextInput text_input(const ExperimentSpec& spec)
{
    if (spec.gpt_model_path.empty())
        throw Error("the Text input needs a trained model; pick one of the verdict-gpt variants.");
    if (const auto problem = text_problem(spec.text))
        throw Error(*problem);
    TextInput t;
    t.model = cached_gpt_model(spec.gpt_model_path);
    const TokenizedText tokens = verdict_tokenizer().tokenize(spec.text);
    t.tokens = tokens.tokens;
    t.ids = tokens.ids;
    if (t.ids.empty())
        throw Error("the text has no tokens; type at least one word.");
    if (const auto problem = layer_problem(*t.model, spec.gpt_layer))
        throw Error(*problem);
    return t;
}

namespace {

// The module the model's blocks are, as gpt_attention_config says it: GroupedQueryAttention for one trained with
// fewer key/value heads (`train --kv-groups`) or a window (`train --window`).
ModuleKind trained_kind(const GptConfig& m)
{
    return gpt_attention_config(m).kind;
}

} // namespace

bool trained_weights_fit(const Config& c, const GptConfig& m)
{
    return c.kind == trained_kind(m) && (!m.grouped() || c.num_kv_groups == m.kv_groups()) && c.d_in == m.emb_dim &&
           c.d_out == m.emb_dim && c.num_heads == m.n_heads && c.qkv_bias == m.qkv_bias;
}

std::optional<std::string> fit_note(const Config& c, const GptModel& model)
{
    const GptConfig& m = model.settings;
    if (trained_weights_fit(c, m))
        return std::nullopt;
    const std::string emb = std::to_string(m.emb_dim);
    std::string why;
    if (c.kind != trained_kind(m))
        why = std::string("the module is no longer ") + (m.grouped() ? "GroupedQueryAttention" : "MultiHeadAttention");
    else if (c.d_in != m.emb_dim || c.d_out != m.emb_dim)
        why = "d_in and d_out are no longer " + emb + " (the model's emb_dim)";
    else if (c.num_heads != m.n_heads)
        why = "num_heads is no longer " + std::to_string(m.n_heads) +
              " (pick another variant to see a model trained with that many heads)";
    else if (m.grouped() && c.num_kv_groups != m.kv_groups())
        why = "num_kv_groups is no longer " + std::to_string(m.kv_groups());
    else
        why = "qkv_bias differs from the model's";
    const bool x_fits = c.d_in == m.emb_dim;
    return model.name + "'s trained weights no longer fit because " + why + ", so the module uses seeded weights" +
           (x_fits ? " on the model's x" : " on seeded input (the model's x is " + emb + " wide)") +
           "; undo, or set them back, to see the trained heads.";
}

void prepare_text_experiment(Experiment& e, const TextInput& text)
{
    const Config& c = e.spec.config;
    const GptModel& model = *text.model;
    const bool fits = trained_weights_fit(c, model.settings);
    e.weights = fits ? gpt_attention_weights(model, e.spec.gpt_layer) : init_weights(c, e.spec.seed);
    if (c.is_batched() && c.d_in == model.settings.emb_dim)
        e.x = gpt_layer_input(model, text.ids, e.spec.gpt_layer).x;
    else
        e.x = random_input(c, 1, static_cast<std::int64_t>(text.ids.size()), e.spec.seed + 1);
}

} // namespace attnlab
