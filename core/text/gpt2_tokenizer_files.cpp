#include "text/gpt2_tokenizer_files.h"

#include "forward/experiment.h"
#include "forward/experiment_check.h"
#include "tensor/error.h"

#include <filesystem>
#include <mutex>

namespace attnlab {

namespace fs = std::filesystem;

std::vector<std::string> gpt2_tokenizer_dirs(const std::string& exe_dir)
{
    std::vector<std::string> dirs;
    if (!exe_dir.empty())
        dirs.push_back(
            (fs::path(exe_dir) / ".." / "share" / "attention-lab" / "tokenizers" / "gpt2").lexically_normal().string());
#ifdef ATTNLAB_SOURCE_TOKENIZERS_DIR
    dirs.push_back((fs::path(ATTNLAB_SOURCE_TOKENIZERS_DIR) / "gpt2").string());
#endif
    return dirs;
}

std::optional<Gpt2TokenizerFiles> gpt2_tokenizer_files_in(const std::string& folder)
{
    std::error_code ec;
    const fs::path dir(folder);
    // A complete pair is read even beside a stray half of the other (a vocab.json left by another tool next to
    // encoder.json + vocab.bpe); a half is refused only when no pair is whole.
    std::string half;
    for (const auto& [vocab, merges] :
         {std::pair{"vocab.json", "merges.txt"}, std::pair{"encoder.json", "vocab.bpe"}}) {
        const bool has_vocab = fs::exists(dir / vocab, ec), has_merges = fs::exists(dir / merges, ec);
        if (has_vocab && has_merges)
            return Gpt2TokenizerFiles{(dir / vocab).string(), (dir / merges).string()};
        if (has_vocab != has_merges && half.empty())
            half = folder + " has " + (has_vocab ? vocab : merges) + " but no " + (has_vocab ? merges : vocab) +
                   " beside it; a GPT-2 tokenizer is the two files vocab.json + merges.txt or encoder.json + "
                   "vocab.bpe.";
    }
    if (!half.empty())
        throw Error(half);
    return std::nullopt;
}

std::optional<Gpt2TokenizerFiles> gpt2_tokenizer_beside(const std::string& checkpoint_path)
{
    std::error_code ec;
    const fs::path path(checkpoint_path);
    const fs::path folder = fs::is_directory(path, ec) ? path : path.parent_path();
    return gpt2_tokenizer_files_in(folder.empty() ? std::string(".") : folder.string());
}

Gpt2TokenizerFiles resolve_gpt2_tokenizer(const std::string& name_or_folder, const std::vector<std::string>& dirs)
{
    const std::string valid = "give gpt2 (GPT-2's own, shipped with the app) or a folder with vocab.json + merges.txt "
                              "or encoder.json + vocab.bpe";
    if (name_or_folder == "gpt2") {
        std::string searched;
        for (const std::string& dir : dirs) {
            if (auto files = gpt2_tokenizer_files_in(dir))
                return *files;
            searched += (searched.empty() ? "" : ", ") + dir;
        }
        throw Error("GPT-2's tokenizer files are not in " + (searched.empty() ? std::string("any folder") : searched) +
                    "; reinstall the app, or give a folder with vocab.json + merges.txt or encoder.json + vocab.bpe.");
    }
    std::error_code ec;
    if (name_or_folder.empty())
        throw Error("the tokenizer name is empty; " + valid + ".");
    if (!fs::is_directory(name_or_folder, ec))
        throw Error(name_or_folder + (fs::exists(name_or_folder, ec) ? " is not a folder" : " does not exist") + "; " +
                    valid + ".");
    if (auto files = gpt2_tokenizer_files_in(name_or_folder))
        return *files;
    throw Error(name_or_folder + " holds no tokenizer files; " + valid + ".");
}

std::uint64_t gpt2_tokenizer_bytes(const Gpt2TokenizerFiles& files)
{
    // Bytes held per byte of each file at the peak of reading it: the text itself, then each token's entry, its
    // bytes and its place in the id map, and each merge's node. Measured (tests/cli/test_cli_gpt2_tokenize
    // peak_stays_within_the_count): GPT-2's own 1.04 MB + 0.46 MB take 8.5 MB, counted 21 MiB; 839,172 tokens of
    // one to three printable characters, each with its merge (entries as dense as a vocabulary has, 11 MB + 4 MB),
    // take 124.5 MiB, counted 213.5 MiB.
    constexpr std::uint64_t kPerVocabByte = 16, kPerMergesByte = 12;
    const auto size = [](const std::string& path) -> std::uint64_t {
        std::error_code ec;
        const std::uintmax_t bytes = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
        return ec ? 0 : static_cast<std::uint64_t>(bytes); // a file that is not there is named when it is read
    };
    return kPerVocabByte * size(files.vocab) + kPerMergesByte * size(files.merges);
}

Gpt2Tokenizer read_gpt2_tokenizer(const Gpt2TokenizerFiles& files, std::uint64_t budget)
{
    const std::uint64_t tokenizer = gpt2_tokenizer_bytes(files), need = tokenizer + process_baseline_bytes();
    const std::uint64_t machine = machine_memory_bytes(), limit = std::min(budget, machine);
    if (need > limit) {
        const auto [needText, limitText] = format_bytes_apart(need, limit);
        const bool machine_limits = machine < budget; // then a larger --max-memory changes nothing
        throw Error(
            "the tokenizer " + files.vocab + " + " + files.merges + " needs about " + needText + " (" +
            format_bytes(tokenizer) + " for its tables, " + format_bytes(need - tokenizer) +
            " for the program), more than the " + limitText +
            (machine_limits ? " this machine has" : " memory budget") + ", so nothing was read; " +
            (machine_limits ? "give a smaller tokenizer." : "give a smaller tokenizer or a larger --max-memory."));
    }
    return Gpt2Tokenizer::from_files(files);
}

Gpt2TokenizerFiles gpt2_tokenizer_files_for(const std::string& checkpoint_path, const std::string& exe_dir)
{
    if (auto beside = gpt2_tokenizer_beside(checkpoint_path))
        return *beside;
    return resolve_gpt2_tokenizer("gpt2", gpt2_tokenizer_dirs(exe_dir));
}

const Gpt2Tokenizer& shipped_gpt2_tokenizer(const std::string& exe_dir)
{
    // A failed load is not kept: the next call tries again and says why again.
    static std::mutex mutex;
    static std::optional<Gpt2Tokenizer> shipped;
    std::lock_guard lock(mutex);
    if (!shipped)
        shipped = Gpt2Tokenizer::from_files(resolve_gpt2_tokenizer("gpt2", gpt2_tokenizer_dirs(exe_dir)));
    return *shipped;
}

Gpt2Tokenizer gpt2_tokenizer_for(const std::string& checkpoint_path, const std::string& exe_dir)
{
    if (auto beside = gpt2_tokenizer_beside(checkpoint_path))
        return Gpt2Tokenizer::from_files(*beside);
    return shipped_gpt2_tokenizer(exe_dir);
}

} // namespace attnlab
