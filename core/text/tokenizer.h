#pragma once
// The simple word tokenizer of chapter 2 of the book: split on punctuation, the double dash and
// whitespace (keeping the punctuation as tokens), drop the whitespace. Its vocabulary is the sorted
// unique tokens of "The Verdict" plus <|endoftext|> and <|unk|>, 1,132 ids -- the same ids the
// trained models in resources/models were trained on (resources/training/simple_tokenizer.py).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

inline constexpr std::string_view kEndOfText = "<|endoftext|>";
inline constexpr std::string_view kUnknownToken = "<|unk|>";

// The book's re.split(r'([,.:;?_!"()\']|--|\s)', text) with empty and whitespace pieces dropped.
std::vector<std::string> split_text(std::string_view text);

struct TokenizedText {
    std::vector<std::string> tokens; // as written in the text
    std::vector<std::int64_t> ids;   // unknown tokens map to <|unk|>
    std::vector<bool> unknown;       // per token: not in the vocabulary
    // What the model reads for an unknown token; "" when it has no such token and cannot read the text
    // at all (a task model's letters, text/letter_tokens.h).
    std::string unknown_as = std::string(kUnknownToken);
};

class SimpleTokenizer {
public:
    // Vocabulary: sorted unique tokens of `corpus`, then <|endoftext|> and <|unk|>.
    static SimpleTokenizer from_corpus(std::string_view corpus);

    TokenizedText tokenize(std::string_view text) const;
    std::vector<std::int64_t> encode(std::string_view text) const { return tokenize(text).ids; }
    std::string decode(const std::vector<std::int64_t>& ids) const; // the book's join-then-fix-spaces
    std::int64_t vocab_size() const { return static_cast<std::int64_t>(tokens_.size()); }
    const std::string& token(std::int64_t id) const; // throws Error when out of range
    std::int64_t unknown_id() const { return vocab_size() - 1; }

private:
    std::vector<std::string> tokens_; // id -> token
    std::map<std::string, std::int64_t, std::less<>> ids_;
};

// The story the vocabulary comes from, embedded at build time (resources/text/the-verdict.txt).
std::string_view verdict_story();
// Its first sentence, up to and including the first full stop: the app's default text.
std::string verdict_first_sentence();
// Built once, on first use.
const SimpleTokenizer& verdict_tokenizer();

} // namespace attnlab
