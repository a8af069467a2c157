// `tokenize --tokenizer gpt2|FOLDER`: GPT-2's byte-level BPE on a text, each token with its id and its piece
// shown readably (a space as ␣, a newline as ↵; bytes of a cut character as \xNN).
#include "cli/cli_commands.h"
#include "cli/cli_json.h"

#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_files.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <limits>

namespace cli {

namespace {

using json = nlohmann::ordered_json;
using namespace attnlab;

std::string hex_bytes(const std::string& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

} // namespace

int tokenize_gpt2(const Args& a, const std::string& which, const std::string& text, const std::string& exe_dir)
{
    // Its files are counted by their sizes against --max-memory before a byte of them is read.
    const Gpt2Tokenizer tokenizer =
        read_gpt2_tokenizer(resolve_gpt2_tokenizer(which, gpt2_tokenizer_dirs(exe_dir)),
                            a.bytes("max-memory", std::numeric_limits<std::uint64_t>::max()));
    const bool allow_special = !a.flag("special-as-text");
    const std::vector<std::int64_t> ids = tokenizer.encode(text, allow_special);
    const std::int64_t end_of_text = tokenizer.end_of_text_id(); // -1 for a vocabulary without <|endoftext|>
    if (a.flag("json")) {
        json tokens = json::array();
        for (std::int64_t id : ids) {
            const std::string& bytes = tokenizer.piece_bytes(id);
            // A piece that cuts a character is not text: null, with its bytes in "bytes".
            const bool whole = tokenizer.decode_text({id}) == bytes;
            tokens.push_back({{"id", id},
                              {"piece", tokenizer.piece_text(id)},
                              {"text", whole ? json(bytes) : json(nullptr)},
                              {"bytes", hex_bytes(bytes)}});
        }
        std::cout << cli::json_text(json{{"tokenizer", "gpt2-byte-level-bpe"},
                                         {"vocab", tokenizer.files().vocab},
                                         {"merges", tokenizer.files().merges},
                                         {"vocab_size", tokenizer.vocab_size()},
                                         {"end_of_text", end_of_text < 0 ? "absent"
                                                         : allow_special ? "special"
                                                                         : "text"},
                                         {"num_tokens", ids.size()},
                                         {"ids", ids},
                                         {"tokens", tokens}})
                  << "\n";
        return 0;
    }
    // A vocabulary without <|endoftext|> reads it as text whatever --special-as-text says (it said "as its token -1").
    const std::string special = end_of_text < 0 ? "not in this vocabulary, so read as text"
                                : allow_special ? "as its token " + std::to_string(end_of_text)
                                                : std::string("as text");
    std::cout << ids.size() << " tokens; GPT-2's byte-level BPE, vocabulary of " << tokenizer.vocab_size()
              << " ids from " << tokenizer.files().vocab << " with the merges of " << tokenizer.files().merges
              << " (<|endoftext|> " << special << ")\n";
    for (std::size_t i = 0; i < ids.size(); ++i)
        std::cout << i << "\t" << ids[i] << "\t" << tokenizer.piece_text(ids[i]) << "\n";
    return 0;
}

} // namespace cli
