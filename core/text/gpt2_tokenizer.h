#pragma once
// GPT-2's byte-level BPE, as OpenAI's encoder.py (and tiktoken's "gpt2" encoding) computes it: the text is
// cut into pieces by GPT-2's pattern (text/gpt2_pretokenize.h), each piece's UTF-8 bytes start as one token a
// byte, and the merges join neighbours, the lowest rank first, until none applies. The vocabulary comes
// from Hugging Face's vocab.json + merges.txt or OpenAI's encoder.json + vocab.bpe (the same data under
// other names); text/gpt2_tokenizer_files.h finds them beside a checkpoint or the copies shipped with the app.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

inline constexpr std::int64_t kGpt2EndOfTextId = 50256; // <|endoftext|> in GPT-2's own vocabulary
inline constexpr std::int64_t kGpt2VocabSize = 50257;

struct Gpt2TokenizerFiles {
    std::string vocab;  // vocab.json or encoder.json: a JSON object, token -> id
    std::string merges; // merges.txt or vocab.bpe: "#version: 0.2", then one merge "a b" a line, by rank
};

class Gpt2Tokenizer {
public:
    // Reads and checks both files. Throws Error naming the file and what is wrong: missing or unreadable,
    // not JSON, not an object of whole-number ids 0..N-1, a token outside GPT-2's byte alphabet, no token for
    // some byte, a merges line that is not two tokens, a merge whose tokens or result the vocabulary lacks.
    static Gpt2Tokenizer from_files(const Gpt2TokenizerFiles& files);
    // The same checks on the files' contents; `names` names them in the messages.
    static Gpt2Tokenizer from_text(std::string_view vocab_json, std::string_view merges,
                                   const Gpt2TokenizerFiles& names);

    // allow_special: each "<|endoftext|>" in the text is that one token (tiktoken's allowed_special);
    // otherwise it is ordinary text (<, |, endoftext, |, >). Throws Error when `text` is not UTF-8.
    std::vector<std::int64_t> encode(std::string_view text, bool allow_special) const;
    // The pieces' bytes joined: decode(encode(t)) == t. Ids that cut a character leave bytes that are not
    // UTF-8. Throws Error for an id outside the vocabulary.
    std::string decode(const std::vector<std::int64_t>& ids) const;
    // decode() as Python's bytes.decode("utf-8", errors="replace") reads it: each malformed part as U+FFFD.
    std::string decode_text(const std::vector<std::int64_t>& ids) const;

    std::int64_t vocab_size() const;
    std::size_t merge_count() const;
    std::int64_t end_of_text_id() const; // -1 when the vocabulary has no <|endoftext|>
    const Gpt2TokenizerFiles& files() const;

    // One token (Error for an id outside the vocabulary): its bytes; as the vocabulary file writes it
    // ("Ġthe"); readable (readable_piece: "␣the").
    const std::string& piece_bytes(std::int64_t id) const;
    std::string piece_symbols(std::int64_t id) const;
    std::string piece_text(std::int64_t id) const;
    std::optional<std::int64_t> id_of(std::string_view bytes) const;

    struct Data; // the vocabulary, the merges and the cache of pieces already merged (gpt2_tokenizer.cpp)

private:
    explicit Gpt2Tokenizer(std::shared_ptr<Data> data) : data_(std::move(data)) {}
    std::shared_ptr<Data> data_; // copies share it: the tables never change after loading
};

// A token's bytes for a chip or a terminal: a space as "␣", a newline as "↵", a tab as "⇥", other control
// bytes and bytes that do not make a whole UTF-8 character (a piece of an emoji) as \xNN; the rest as is.
std::string readable_piece(std::string_view bytes);

// `bytes` as UTF-8 text, each malformed part as U+FFFD (the maximal subparts, as Python and the Unicode
// standard's practice have it).
std::string replace_malformed_utf8(std::string_view bytes);

} // namespace attnlab
