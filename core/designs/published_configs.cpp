// The published attention shapes. Only fields their configs state are used; where a config leaves a
// field to its library's default (Llama's attention_bias), the default is what the model runs with.
#include "designs/published_configs.h"

namespace attnlab {

namespace {

AttentionShape gpt2(const char* name, std::int64_t layers, std::int64_t d, std::int64_t heads, const char* repo)
{
    AttentionShape s;
    s.name = name;
    s.layers = layers;
    s.d_model = d;
    s.num_heads = heads;
    s.num_kv_heads = heads; // GPT-2 is multi-head attention: every query head has its own key and value
    s.head_dim = d / heads; // 64 for every size
    s.context_length = 1024;
    s.qkv_bias = true; // c_attn and c_proj are Conv1D layers with biases
    s.out_bias = true;
    s.source = std::string("Hugging Face ") + repo + " config.json (n_layer, n_embd, n_head, n_ctx)";
    return s;
}

// Models without biases in their attention (Llama, Mistral, Falcon, Gemma).
AttentionShape plain(const char* name, std::int64_t layers, std::int64_t d, std::int64_t heads, std::int64_t kv,
                     std::int64_t head_dim, std::int64_t context, const char* source)
{
    AttentionShape s;
    s.name = name;
    s.layers = layers;
    s.d_model = d;
    s.num_heads = heads;
    s.num_kv_heads = kv;
    s.head_dim = head_dim;
    s.context_length = context;
    s.source = source;
    return s;
}

std::vector<AttentionShape> make_table()
{
    std::vector<AttentionShape> t = {
        gpt2("gpt2-small", 12, 768, 12, "openai-community/gpt2"),
        gpt2("gpt2-medium", 24, 1024, 16, "openai-community/gpt2-medium"),
        gpt2("gpt2-large", 36, 1280, 20, "openai-community/gpt2-large"),
        gpt2("gpt2-xl", 48, 1600, 25, "openai-community/gpt2-xl"),
        plain("llama-2-7b", 32, 4096, 32, 32, 128, 4096, "Hugging Face meta-llama/Llama-2-7b-hf config.json"),
        plain("llama-2-13b", 40, 5120, 40, 40, 128, 4096, "Hugging Face meta-llama/Llama-2-13b-hf config.json"),
        plain("llama-2-70b", 80, 8192, 64, 8, 128, 4096, "Hugging Face meta-llama/Llama-2-70b-hf config.json"),
        plain("llama-3-8b", 32, 4096, 32, 8, 128, 8192, "Hugging Face meta-llama/Meta-Llama-3-8B config.json"),
        plain("llama-3-70b", 80, 8192, 64, 8, 128, 8192, "Hugging Face meta-llama/Meta-Llama-3-70B config.json"),
        plain("llama-3.2-1b", 16, 2048, 32, 8, 64, 131072, "Hugging Face meta-llama/Llama-3.2-1B config.json"),
        plain("mistral-7b-v0.1", 32, 4096, 32, 8, 128, 32768,
              "Hugging Face mistralai/Mistral-7B-v0.1 config.json (sliding_window 4096)"),
        plain("falcon-7b", 32, 4544, 71, 1, 64, 2048,
              "Hugging Face tiiuae/falcon-7b config.json (multi_query: one key/value head); context from its model "
              "card"),
        plain("gemma-2b", 18, 2048, 8, 1, 256, 8192, "Hugging Face google/gemma-2b config.json (head_dim 256)"),
        plain("qwen2-7b", 28, 3584, 28, 4, 128, 32768,
              "Hugging Face Qwen/Qwen2-7B config.json (QKV biases); context 32,768 as the Qwen2 report "
              "(arXiv:2407.10671) trains it"),
    };
    for (AttentionShape& s : t) {
        if (s.name == "mistral-7b-v0.1")
            s.sliding_window = 4096;
        if (s.name == "qwen2-7b")
            s.qkv_bias = true; // q_proj, k_proj, v_proj have biases; o_proj has none
    }
    return t;
}

} // namespace

const std::vector<AttentionShape>& published_configs()
{
    static const std::vector<AttentionShape> table = make_table();
    return table;
}

const AttentionShape* find_published_config(std::string_view name)
{
    for (const AttentionShape& s : published_configs())
        if (s.name == name)
            return &s;
    return nullptr;
}

std::string published_config_names()
{
    const std::vector<AttentionShape>& t = published_configs();
    std::string out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        out += i == 0 ? "" : i + 1 == t.size() ? " and " : ", ";
        out += t[i].name;
    }
    return out;
}

} // namespace attnlab
