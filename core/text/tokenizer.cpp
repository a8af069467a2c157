#include "text/tokenizer.h"

#include "tensor/error.h"

#include <algorithm>
#include <set>

namespace attnlab {
namespace {

bool is_split_punct(char c)
{
    switch (c) {
    case ',':
    case '.':
    case ':':
    case ';':
    case '?':
    case '_':
    case '!':
    case '"':
    case '(':
    case ')':
    case '\'': return true;
    default: return false;
    }
}

// ASCII whitespace, as Python's \s and str.strip() see it for the story's characters.
bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view strip(std::string_view s)
{
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

void keep(std::vector<std::string>& out, std::string_view piece)
{
    piece = strip(piece);
    if (!piece.empty())
        out.emplace_back(piece);
}

} // namespace

std::vector<std::string> split_text(std::string_view text)
{
    // The regex's alternatives in its order at each position: one punctuation character, then "--",
    // then one whitespace character; whatever lies between two matches is a word.
    std::vector<std::string> out;
    std::size_t start = 0, i = 0;
    while (i < text.size()) {
        std::size_t len = 0;
        if (is_split_punct(text[i]))
            len = 1;
        else if (text[i] == '-' && i + 1 < text.size() && text[i + 1] == '-')
            len = 2;
        else if (is_space(text[i]))
            len = 1;
        if (len == 0) {
            ++i;
            continue;
        }
        keep(out, text.substr(start, i - start));
        keep(out, text.substr(i, len));
        i += len;
        start = i;
    }
    keep(out, text.substr(start));
    return out;
}

SimpleTokenizer SimpleTokenizer::from_corpus(std::string_view corpus)
{
    const std::vector<std::string> pieces = split_text(corpus);
    const std::set<std::string> unique(pieces.begin(), pieces.end()); // byte order, as Python sorts ASCII
    SimpleTokenizer t;
    t.tokens_.assign(unique.begin(), unique.end());
    t.tokens_.emplace_back(kEndOfText);
    t.tokens_.emplace_back(kUnknownToken);
    for (std::size_t i = 0; i < t.tokens_.size(); ++i)
        t.ids_.emplace(t.tokens_[i], static_cast<std::int64_t>(i));
    return t;
}

TokenizedText SimpleTokenizer::tokenize(std::string_view text) const
{
    TokenizedText out;
    out.tokens = split_text(text);
    for (const std::string& token : out.tokens) {
        auto it = ids_.find(token);
        out.unknown.push_back(it == ids_.end());
        out.ids.push_back(it == ids_.end() ? unknown_id() : it->second);
    }
    return out;
}

const std::string& SimpleTokenizer::token(std::int64_t id) const
{
    if (id < 0 || id >= vocab_size())
        throw Error("token id " + std::to_string(id) + " is outside the vocabulary; ids run from 0 to " +
                    std::to_string(vocab_size() - 1) + ".");
    return tokens_[static_cast<std::size_t>(id)];
}

std::string SimpleTokenizer::decode(const std::vector<std::int64_t>& ids) const
{
    // The book joins with spaces and then removes the space(s) before , . ? ! " ( ) '.
    std::string out;
    for (std::int64_t id : ids) {
        const std::string& t = token(id);
        const bool glue = t.size() == 1 && std::string_view(",.:;?!\"()'").find(t[0]) != std::string_view::npos;
        if (!out.empty() && !glue)
            out += ' ';
        out += t;
    }
    return out;
}

std::string verdict_first_sentence()
{
    const std::string_view story = verdict_story();
    const std::size_t dot = story.find('.');
    return std::string(story.substr(0, dot == std::string_view::npos ? story.size() : dot + 1));
}

const SimpleTokenizer& verdict_tokenizer()
{
    static const SimpleTokenizer tokenizer = SimpleTokenizer::from_corpus(verdict_story());
    return tokenizer;
}

} // namespace attnlab
