// `generate`: greedy generation through a GPT token by token, with the KV cache (each step computes only the new
// token's query, key and value per layer) or without it (each step reruns the whole forward), every step timed;
// --compare runs both on the same tokens and reports their largest logit difference, --dump writes the caches.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "forward/experiment_check.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_text.h"
#include "gpt/kv_generate.h"
#include "gpt/model_paths.h"
#include "io/atomic_file.h"
#include "io/safetensors.h"
#include "tensor/error.h"
#include "text/gpt2_tokenizer_files.h"
#include "text/letter_tokens.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

// A model, its LayerNorm epsilon (a GPT-2 checkpoint may give its own) and GPT-2's tokenizer when it reads BPE.
struct Opened {
    GptModel model;
    double eps = kBookLayerNormEps;
    std::optional<Gpt2Tokenizer> bpe;
};

Opened open_model(const std::string& given)
{
    std::error_code ec;
    const std::string path =
        std::filesystem::is_directory(given, ec) ? given : resolve_gpt_model(given, gpt_model_dirs(exe_dir()));
    Opened o;
    if (is_gpt2_checkpoint(path)) {
        // The tokenizer's files counted by their sizes against the machine before a byte is read (generate has no
        // --max-memory: UINT64_MAX leaves the machine the limit, which the refusal then names).
        const Gpt2Plan plan = plan_gpt2_checkpoint(path);
        o.bpe = read_gpt2_tokenizer(gpt2_tokenizer_files_for(path, exe_dir()), UINT64_MAX);
        o.model = load_gpt2_checkpoint(plan, machine_memory_bytes());
        o.eps = plan.layer_norm_eps;
        return o;
    }
    o.model = load_gpt_model(path);
    return o;
}

std::vector<std::int64_t> encode(const Opened& o, const std::string& text)
{
    if (o.bpe)
        return o.bpe->encode(text, true);
    const TokenizedText t = tokenize_for(o.model, text);
    if (const std::string unreadable = unreadable_token_sentence(o.model, t); !unreadable.empty())
        throw Error(std::string("--text: ") + unreadable);
    return t.ids;
}

std::string decode(const Opened& o, const std::vector<std::int64_t>& ids)
{
    if (o.bpe)
        return o.bpe->decode_text(ids);
    if (text_reader(o.model) == TextReader::Letters)
        return letter_text(ids);
    return verdict_tokenizer().decode(ids);
}

json steps_json(const Generation& g)
{
    json steps = json::array();
    for (std::size_t i = 0; i < g.steps.size(); ++i) {
        const GenerateStep& s = g.steps[i];
        steps.push_back({{"step", i},
                         {"id", s.id},
                         {"tokens_in_cache", s.tokens_seen},
                         {"cache_bytes", s.cache_bytes},
                         {"ms", s.ms}});
    }
    return steps;
}

void print_steps(const Generation& g, const char* title)
{
    std::cout << title << "\n  step      id  tokens  cache bytes        ms\n";
    for (std::size_t i = 0; i < g.steps.size(); ++i) {
        const GenerateStep& s = g.steps[i];
        char line[96];
        std::snprintf(line, sizeof line, "  %4zu  %6lld  %6lld  %11llu  %8.3f\n", i, static_cast<long long>(s.id),
                      static_cast<long long>(s.tokens_seen), static_cast<unsigned long long>(s.cache_bytes), s.ms);
        std::cout << line;
    }
}

void write_cache_dump(const std::string& out, const Opened& o, const std::vector<std::int64_t>& prompt,
                      const Generation& g)
{
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (std::size_t l = 0; l < g.keys.size(); ++l) {
        const std::string layer = std::string("layer.") + std::to_string(l);
        tensors.emplace_back(layer + ".keys", g.keys[l]);
        tensors.emplace_back(layer + ".values", g.values[l]);
    }
    write_safetensors(out, tensors,
                      {{"model", o.model.name},
                       {"prompt_ids", ids_csv(prompt)},
                       {"generated_ids", ids_csv(g.ids)},
                       {"note", "each layer's KV cache, (n_heads, T, head_dim): the prompt and every generated "
                                "token but the last, which no step has read yet"}});
}

} // namespace

int cmd_generate(const std::vector<std::string>& argv)
{
    Args a(argv, {"model", "text", "ids", "tokens", "dump"}, {"no-cache", "compare", "json"});
    const std::string given = a.required("model");
    if (a.has("text") == a.has("ids"))
        throw UsageError("give the prompt with --text T or --ids I,J,..., one of them.");
    if (!a.has("tokens"))
        throw UsageError("generate needs --tokens N, how many tokens to generate.");
    if (a.flag("no-cache") && a.flag("compare"))
        throw UsageError("--compare runs with and without the cache already; drop --no-cache.");
    if (a.flag("no-cache") && a.has("dump"))
        throw UsageError("--dump writes the KV cache, which --no-cache does not keep; drop one of them.");
    const std::int64_t tokens = a.integer("tokens", 1, 1, 1 << 20);
    const std::string out = a.text("dump");
    if (a.has("dump") && out.empty())
        throw Error("--dump is empty; give the path of a .safetensors file.");
    if (a.has("text"))
        require_utf8(a.text("text"), "--text");
    const Opened o = open_model(given);
    const std::vector<std::int64_t> prompt = a.has("text") ? encode(o, a.text("text")) : parse_ids(a.text("ids"));
    if (prompt.empty())
        throw Error("--text has no tokens; give the prompt to continue, e.g. --text \"I HAD always\".");
    if (!out.empty())
        check_write_target(out); // refused before generating, not after
    const bool cached = !a.flag("no-cache"), full = a.flag("no-cache") || a.flag("compare");
    GenerateOptions options;
    options.tokens = tokens;
    options.keep_logits = a.flag("compare");
    options.keep_cache = !out.empty();
    options.budget = machine_memory_bytes();
    std::optional<Generation> with, without;
    if (cached)
        with = generate_greedy(o.model, o.eps, prompt, options);
    if (full) {
        options.cache = false;
        options.follow = with ? &with->ids : nullptr; // the same tokens, so the logits compare step for step
        without = generate_greedy(o.model, o.eps, prompt, options);
    }
    const Generation& g = with ? *with : *without;
    if (!out.empty())
        write_cache_dump(out, o, prompt, g);
    const std::optional<double> diff =
        with && without ? std::optional<double>(max_logit_difference(*with, *without)) : std::nullopt;
    if (a.flag("json")) {
        json doc = {{"model", o.model.name},
                    {"prompt_ids", prompt},
                    {"generated_ids", g.ids},
                    {"text", decode(o, prompt)},
                    {"generated_text", decode(o, g.ids)}};
        if (with)
            doc["steps"] = steps_json(*with), doc["mean_ms_with_cache"] = with->mean_ms();
        if (without)
            doc["steps_without_cache"] = steps_json(*without), doc["mean_ms_without_cache"] = without->mean_ms();
        doc["max_logit_difference"] = diff ? json(*diff) : json(nullptr);
        doc["max_abs_logit"] = diff ? json(largest_abs_logit(*with)) : json(nullptr);
        doc["dump"] = out.empty() ? json(nullptr) : json(out);
        std::cout << json_text(doc) << "\n";
        return 0;
    }
    std::cout << o.model.name << ": " << prompt.size() << " prompt tokens, " << g.ids.size() << " generated\n";
    if (with)
        print_steps(*with, "with the KV cache (tokens in the cache after the step):");
    if (without)
        print_steps(*without, "without the cache (tokens the whole forward read):");
    std::cout << "generated ids: " << ids_csv(g.ids) << "\ntext: " << printable(decode(o, prompt), 200) << " | "
              << printable(decode(o, g.ids), 400) << "\n";
    if (with)
        std::cout << "mean ms per token with the cache: " << with->mean_ms() << "\n";
    if (without)
        std::cout << "mean ms per token without the cache: " << without->mean_ms() << "\n";
    if (diff)
        std::cout << "largest |logit difference| cached vs full forward over all steps: " << *diff
                  << " (largest |logit| " << largest_abs_logit(*with) << ")\n";
    if (!out.empty())
        std::cout << "wrote the KV cache of " << g.keys.size() << " layers to " << out << "\n";
    return 0;
}

} // namespace cli
