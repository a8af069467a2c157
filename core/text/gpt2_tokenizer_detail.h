#pragma once
// What a loaded GPT-2 tokenizer holds (gpt2_tokenizer_load.cpp fills it, gpt2_tokenizer.cpp reads it).
#include "text/gpt2_tokenizer.h"

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

struct Gpt2Tokenizer::Data {
    struct Merge {
        std::int32_t rank; // the merges file's order: lower merges first
        std::int32_t id;   // the token the two become
    };
    static std::uint64_t pair_key(std::int32_t left, std::int32_t right)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
    }

    Gpt2TokenizerFiles files;
    std::vector<std::string> pieces; // id -> bytes
    std::unordered_map<std::string, std::int32_t> ids;
    std::array<std::int32_t, 256> byte_ids{}; // every piece starts as these
    std::unordered_map<std::uint64_t, Merge> merges;
    std::int64_t end_of_text = -1;

    // Words come back again and again in a text; each piece is merged once. Bounded, so a long text of
    // distinct words does not grow it without end.
    static constexpr std::size_t kCacheLimit = 1 << 16;
    static constexpr std::size_t kCachedPieceBytes = 64;
    mutable std::mutex cache_mutex;
    mutable std::unordered_map<std::string, std::vector<std::int32_t>> cache;
};

// The vocabulary file's entries in file order (gpt2_tokenizer_vocab.cpp): token as written, id. Throws Error
// naming `file` when it is not JSON or not an object of whole numbers; `valid` says what would be.
struct VocabEntry {
    std::string token;
    std::int64_t id;
};
std::vector<VocabEntry> read_vocab_entries(std::string_view text, const std::string& file, const std::string& valid);

} // namespace attnlab
