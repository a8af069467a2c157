// GPT-2 checkpoints from the command line: `run --model PATH` dumps one layer's attention input x and
// every stage, from the whole forward (core/gpt/gpt_forward.h), and `--top` prints the five likeliest next
// ids; `inspect PATH` says what a checkpoint holds and how it would be read, the transfer code included.
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "forward/experiment.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "io/atomic_file.h"
#include "io/safetensors.h"
#include "tensor/error.h"
#include "tensor/threads.h"
#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_files.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <optional>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

// The ids to run: --ids as given, or --text through the tokenizer `files` (those beside the checkpoint, else GPT-2's
// own), with <|endoftext|> as its id; read only once the memory check has counted them.
std::vector<std::int64_t> checkpoint_ids(const Args& a, const std::optional<Gpt2TokenizerFiles>& files,
                                         std::uint64_t budget)
{
    if (files) {
        const std::string text = a.text("text");
        require_utf8(text, "--text");
        const std::vector<std::int64_t> ids = read_gpt2_tokenizer(*files, budget).encode(text, true);
        if (ids.empty())
            throw Error("--text is empty; give the text to run, e.g. --text \"Hello, world\".");
        return ids;
    }
    return parse_ids(a.text("ids"));
}

} // namespace

std::vector<std::int64_t> parse_ids(const std::string& text)
{
    std::vector<std::int64_t> ids;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        ids.push_back(parse_integer("ids", text.substr(start, comma - start), 0, std::numeric_limits<int>::max()));
        start = comma + 1;
    }
    return ids;
}

bool is_whole_gpt_checkpoint(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return true;
    const SafetensorsFile f = open_safetensors(path, {.skip_non_float = true}); // the header alone
    // By name in any dtype: an I64 wte.weight is a checkpoint's, for plan_gpt2_checkpoint to name its dtype.
    for (const char* name : {"wte.weight", "transformer.wte.weight", "tok_emb.weight"})
        if (f.dtypes.count(name))
            return true;
    return false;
}

int run_gpt2_checkpoint(const Args& a, const std::string& path)
{
    const bool top = a.flag("top");
    const std::string out = a.text("dump");
    if (!top && !a.has("dump"))
        throw UsageError("run --model needs --dump OUT.safetensors, --top, or both.");
    if (a.has("dump") && out.empty())
        throw Error("--dump is empty; give the path of a .safetensors file.");
    if (a.has("text") && a.has("ids"))
        throw UsageError("give either --text or --ids, not both.");
    if (!a.has("text") && !a.has("ids"))
        throw UsageError("run --model with a GPT-2 checkpoint needs --text T or --ids I,J,... (the token ids to run).");
    const int layer = static_cast<int>(a.integer("layer", 0, 0, 10000));
    const std::uint64_t budget = a.bytes("max-memory", std::numeric_limits<std::uint64_t>::max());
    const Gpt2Plan plan = plan_gpt2_checkpoint(path);
    if (layer >= plan.settings.n_layers)
        throw Error("--layer " + std::to_string(layer) + " does not exist; " + plan.name + " has layers 0 to " +
                    std::to_string(plan.settings.n_layers - 1) + ".");
    GptForwardOptions options;
    options.full_traces = {layer};
    options.last_layer = top ? -1 : layer; // only the dump is wanted: the later blocks need not run
    // The tokenizer's files are counted by their sizes before either they or the weights are read (a 261 MB
    // vocab.json was read whole, 1.94 GB at its peak, before a 100 MB budget refused the weights).
    const std::optional<Gpt2TokenizerFiles> files =
        a.has("text") ? std::optional(gpt2_tokenizer_files_for(path, exe_dir())) : std::nullopt;
    const std::uint64_t tokenizer = files ? gpt2_tokenizer_bytes(*files) : 0;
    check_gpt2_memory(plan, 1, options, budget, !out.empty(), tokenizer); // the fewest tokens a run has
    const std::vector<std::int64_t> ids = checkpoint_ids(a, files, budget);
    check_gpt2_memory(plan, static_cast<std::int64_t>(ids.size()), options, budget, !out.empty(), tokenizer);
    if (!out.empty())
        check_write_target(out); // refused before the pass, not after
    const GptModel model = load_gpt2_checkpoint(plan, budget);
    const GptForward result = gpt_forward(model, plan.layer_norm_eps, ids, options);
    const Trace& trace = *result.layers.at(static_cast<std::size_t>(layer)).trace;
    if (!out.empty())
        write_dump(out, trace,
                   {{"model", plan.name},
                    {"checkpoint", plan.file},
                    {"layout", gpt2_layout_name(plan.layout)},
                    {"layer", std::to_string(layer)},
                    {"token_ids", ids_csv(ids)},
                    {"note", "x is the layer's attention input: embeddings through the earlier blocks, then norm1"}});
    if (a.flag("json")) {
        json doc = {{"dump", out.empty() ? json(nullptr) : json(out)},
                    {"model", plan.name},
                    {"checkpoint", plan.file},
                    {"layout", gpt2_layout_name(plan.layout)},
                    {"layer", layer},
                    {"num_tokens", ids.size()},
                    {"token_ids", ids},
                    {"stages", trace.stages.size()},
                    {"call", canonical_call(trace.config)}};
        if (top) {
            doc["next"] = json::array();
            for (const NextToken& n : result.next)
                doc["next"].push_back({{"id", n.id}, {"logit", n.logit}, {"probability", n.probability}});
        }
        doc["threads"] = engine_threads();
        std::cout << cli::json_text(doc) << "\n";
        return 0;
    }
    if (!out.empty())
        std::cout << "wrote " << trace.stages.size() << " stages of " << plan.name << " layer " << layer << " on "
                  << ids.size() << " tokens to " << out << "\n";
    if (top) {
        std::cout << "next token after the " << ids.size() << " ids, likeliest first:\n";
        for (const NextToken& n : result.next)
            std::cout << "  id " << std::left << std::setw(7) << n.id << " p=" << std::fixed << std::setprecision(4)
                      << n.probability << "  logit " << std::setprecision(3) << n.logit << "\n";
    }
    return 0;
}

int inspect_gpt2_checkpoint(const std::string& path, bool as_json)
{
    const Gpt2Plan p = plan_gpt2_checkpoint(path);
    const std::vector<std::string> code = gpt2_mapping_code(p);
    const std::uint64_t read = p.sources.size();
    if (as_json) {
        json doc = {{"file", path},
                    {"checkpoint", p.file},
                    {"config", p.config_path.empty() ? json(nullptr) : json(p.config_path)},
                    {"layout", gpt2_layout_name(p.layout)},
                    {"prefix", p.prefix},
                    {"n_layer", p.settings.n_layers},
                    {"n_head", p.settings.n_heads},
                    {"n_head_from", p.heads_from},
                    {"n_embd", p.settings.emb_dim},
                    {"n_positions", p.settings.context_length},
                    {"vocab_size", p.settings.vocab_size},
                    {"layer_norm_epsilon", p.layer_norm_eps},
                    {"qkv_bias", p.settings.qkv_bias},
                    {"dtypes", p.dtypes},
                    {"tied_head", p.tied_head},
                    {"tensors_read", read},
                    {"tensors_ignored", p.ignored},
                    {"weight_bytes", p.weight_bytes},
                    {"load_bytes", gpt2_load_bytes(p)},
                    {"mapping", code}};
        std::cout << cli::json_text(doc) << "\n";
        return 0;
    }
    std::string dtypes;
    for (const std::string& t : p.dtypes)
        dtypes += (dtypes.empty() ? "" : " and ") + t;
    std::cout << path << ": " << describe_gpt2_plan(p) << "\n"
              << "  weights: " << p.file << "\n"
              << "  config:  " << (p.config_path.empty() ? "none beside it" : p.config_path) << "\n"
              << "  read as the book's GPTModel: " << read << " tensors, each read once (" << dtypes
              << (p.dtypes == std::vector<std::string>{"F32"} ? "" : " widened to F32") << ")"
              << (p.ignored ? ", " + std::to_string(p.ignored) + " not needed (mask buffers and the like)" : "")
              << "; about " << format_bytes(gpt2_load_bytes(p)) << " to open\n"
              << "  every block's attention: "
              << "MultiHeadAttention(" << p.settings.emb_dim << ", " << p.settings.emb_dim << ", "
              << p.settings.context_length << ", 0.0, " << p.settings.n_heads
              << (p.settings.qkv_bias ? ", qkv_bias=True" : "") << ")\n"
              << "the chapter 5 weight transfer, as code:\n";
    for (const std::string& line : code)
        std::cout << "    " << line << "\n";
    return 0;
}

} // namespace cli
