// The trained Verdict GPTs from the command line: `tokenize` shows what the chapter 2 tokenizer makes
// of a text (or GPT-2's, cli_tokenize_gpt2.cpp); `run --model` runs one layer's attention with its trained weights on
// the input the GPT gives it (embeddings through the earlier blocks and that block's norm1) and dumps every stage.
#include "tensor/threads.h"
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "forward/experiment.h"
#include "io/atomic_file.h"
#include "forward/trace.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_text.h"
#include "gpt/model_paths.h"
#include "tensor/error.h"
#include "text/tokenizer.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace cli {

std::string exe_dir()
{
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::string ids_csv(const std::vector<std::int64_t>& ids)
{
    std::string out;
    for (std::int64_t id : ids)
        out += (out.empty() ? "" : ",") + std::to_string(id);
    return out;
}

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

} // namespace

// A command line holds at most 128 KiB an argument, less than a chapter: --text-file reads a file, or standard input
// for "-", up to kLongestTextFile (a whole book is a few MiB).
constexpr std::size_t kLongestTextFile = 64u << 20;

std::string text_of(const Args& a)
{
    if (a.has("text") == a.has("text-file"))
        throw UsageError("give the text with --text T or --text-file FILE ('-' for standard input), one of them.");
    if (a.has("text"))
        return a.text("text");
    const std::string path = a.text("text-file");
    std::error_code ec;
    if (path != "-" && !std::filesystem::is_regular_file(path, ec))
        throw Error("--text-file " + printable(path, 60) +
                    (std::filesystem::exists(path, ec) ? " is not a regular file" : " does not exist") +
                    "; give a text file, or '-' for standard input.");
    std::ifstream file;
    if (path != "-")
        file.open(path, std::ios::binary);
    std::istream& in = path == "-" ? std::cin : file;
    if (!in)
        throw Error("--text-file " + printable(path, 60) + " cannot be read.");
    // In blocks, as long as the text is: a buffer of the limit's size was 64 MiB zeroed for a one-line file.
    std::string text;
    char block[1 << 16];
    while (text.size() <= kLongestTextFile && in.read(block, sizeof block).gcount() > 0)
        text.append(block, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kLongestTextFile)
        throw Error("--text-file " + printable(path, 60) + " holds more than " +
                    std::to_string(kLongestTextFile >> 20) + " MiB; give a shorter text.");
    if (in.bad())
        throw Error("--text-file " + printable(path, 60) + " could not be read to its end.");
    return text;
}

int cmd_tokenize(const std::vector<std::string>& argv)
{
    Args a(argv, {"text", "text-file", "tokenizer", "max-memory"}, {"json", "special-as-text"});
    const std::string text = text_of(a);
    require_utf8(text, a.has("text") ? "--text" : "--text-file");
    if (const std::string which = a.text("tokenizer", "book"); which != "book")
        return tokenize_gpt2(a, which, text, exe_dir());
    if (a.has("max-memory"))
        throw Error("--max-memory is for GPT-2's tokenizer (--tokenizer gpt2 or a folder), whose files it bounds; the "
                    "book's tokenizer is built in.");
    if (a.flag("special-as-text"))
        throw Error("--special-as-text is for GPT-2's tokenizer (--tokenizer gpt2 or a folder); the book's tokenizer "
                    "always reads <|endoftext|> as its token.");
    const SimpleTokenizer& tokenizer = verdict_tokenizer();
    const TokenizedText t = tokenizer.tokenize(text);
    std::size_t unknown = 0;
    for (bool u : t.unknown)
        unknown += u ? 1 : 0;
    if (a.flag("json")) {
        json tokens = json::array();
        for (std::size_t i = 0; i < t.tokens.size(); ++i)
            tokens.push_back({{"token", t.tokens[i]}, {"id", t.ids[i]}, {"unknown", static_cast<bool>(t.unknown[i])}});
        std::cout << cli::json_text(json{{"tokenizer", text_reader_name(TextReader::BookWords)},
                                         {"vocab_size", tokenizer.vocab_size()},
                                         {"num_tokens", t.tokens.size()},
                                         {"unknown", unknown},
                                         {"ids", t.ids},
                                         {"tokens", tokens}})
                  << "\n";
        return 0;
    }
    std::cout << t.tokens.size() << " tokens (" << unknown << " unknown, shown as " << kUnknownToken
              << "); vocabulary of " << tokenizer.vocab_size() << " ids from The Verdict\n";
    for (std::size_t i = 0; i < t.tokens.size(); ++i)
        std::cout << i << "\t" << t.ids[i] << "\t" << t.tokens[i] << (t.unknown[i] ? "\t-> <|unk|>" : "") << "\n";
    return 0;
}

// Not only the Verdict GPTs: induction-gpt-h4 and every model of train --save read a text too, in their letters.
constexpr const char* kTrainedHereTakeText =
    "the GPTs trained here (the Verdict GPTs, induction-gpt-h4, a model of train --save) take --text: words for a "
    "Verdict GPT, letters such as 'A B C' for one trained on a task";

int cmd_run_gpt(const std::vector<std::string>& argv)
{
    Args a(argv, {"model", "layer", "text", "dump", "ids", "max-memory"}, {"json", "top"});
    const std::string given = a.required("model");
    std::error_code ec;
    const std::string path =
        std::filesystem::is_directory(given, ec) ? given : resolve_gpt_model(given, gpt_model_dirs(exe_dir()));
    if (is_gpt2_checkpoint(path))
        return run_gpt2_checkpoint(a, path);
    for (const char* option : {"ids", "max-memory"})
        if (a.has(option))
            throw Error(std::string("--") + option + " is for GPT-2 checkpoints; " + kTrainedHereTakeText + ".");
    if (a.flag("top"))
        throw Error(std::string("--top is for GPT-2 checkpoints; ") + kTrainedHereTakeText + ", and --dump.");
    const std::string out = a.required("dump");
    if (out.empty())
        throw Error("--dump is empty; give the path of a .safetensors file.");
    const GptModel model = load_gpt_model(path);
    const int layer = static_cast<int>(a.integer("layer", 0, 0, 10000));
    const std::string text = a.has("text") ? a.text("text") : example_text(model);
    require_utf8(text, "--text");
    const TokenizedText tokens = tokenize_for(model, text);
    if (const std::string unreadable = unreadable_token_sentence(model, tokens); !unreadable.empty())
        throw Error("--text: " + unreadable);
    const GptLayerInput in = gpt_layer_input(model, tokens.ids, layer);
    check_write_target(out); // refused before the pass, not after
    const Trace trace = trace_forward(in.config, in.weights, in.x);
    write_dump(out, trace,
               {{"model", model.name},
                {"layer", std::to_string(layer)},
                {"text", text},
                {"token_ids", ids_csv(tokens.ids)},
                {"note", "x is the layer's attention input: embeddings through the earlier blocks, then norm1"}});
    if (a.flag("json"))
        std::cout << cli::json_text(json{{"dump", out},
                                         {"model", model.name},
                                         {"layer", layer},
                                         {"num_tokens", tokens.ids.size()},
                                         {"stages", trace.stages.size()},
                                         {"call", canonical_call(in.config)},
                                         {"threads", engine_threads()}})
                  << "\n";
    else
        std::cout << "wrote " << trace.stages.size() << " stages of " << model.name << " layer " << layer << " on "
                  << tokens.ids.size() << " tokens to " << out << "\n";
    return 0;
}

} // namespace cli
