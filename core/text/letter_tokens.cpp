#include "text/letter_tokens.h"

#include "text/utf8.h"

namespace attnlab {

namespace {

bool is_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

// The id a letter-and-digits token names, or -1 when the digits make no id (a leading zero, too many).
std::int64_t letter_id(std::string_view token)
{
    const char letter = token[0];
    const std::int64_t index = letter >= 'a' ? letter - 'a' : letter - 'A';
    const std::string_view digits = token.substr(1);
    if (digits.empty())
        return index;
    if (digits[0] == '0' || digits.size() > 9)
        return -1; // A0 is not how letter_token writes 0, and A01 is not a number it writes
    return std::stoll(std::string(digits)) * 26 + index;
}

} // namespace

std::string letter_token(std::int64_t id)
{
    const std::string letter(1, static_cast<char>('A' + id % 26));
    return id < 26 ? letter : letter + std::to_string(id / 26);
}

std::string letter_text(const std::vector<std::int64_t>& ids)
{
    std::string out;
    for (std::int64_t id : ids)
        out.append(out.empty() ? "" : " ").append(letter_token(id));
    return out;
}

TokenizedText letter_tokenize(std::string_view text, std::int64_t vocab)
{
    TokenizedText t;
    t.unknown_as.clear();
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r') {
            ++i;
            continue;
        }
        std::size_t end = i + 1;
        if (is_letter(c)) {
            while (end < text.size() && is_digit(text[end]))
                ++end;
        } else {
            while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
                ++end; // the rest of one UTF-8 character
        }
        const std::string_view token = text.substr(i, end - i);
        const std::int64_t id = is_letter(c) ? letter_id(token) : -1;
        const bool unknown = id < 0 || id >= vocab;
        t.tokens.emplace_back(token);
        t.ids.push_back(unknown ? 0 : id);
        t.unknown.push_back(unknown);
        i = end;
    }
    return t;
}

std::string unknown_letter_sentence(const TokenizedText& t, std::int64_t vocab)
{
    for (std::size_t i = 0; i < t.tokens.size(); ++i) {
        if (!t.unknown[i])
            continue;
        const std::string last = letter_token(vocab - 1);
        return "token " + std::to_string(i + 1) + " of the text, '" + printable(t.tokens[i]) +
               "', is not one of this model's " + std::to_string(vocab) + " tokens; write the letters A to " + last +
               ", with spaces between them or not.";
    }
    return {};
}

} // namespace attnlab
