#include "text/utf8.h"

#include "tensor/error.h"

#include <cstdio>

namespace attnlab {

std::size_t utf8_malformed_length(std::string_view text, std::size_t i)
{
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80)
        return 0;
    // The lead byte fixes the length and the range the second byte may take (RFC 3629's table),
    // which rules out overlong forms, UTF-16 surrogates and code points past U+10FFFF.
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        length = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else
        return 1;
    std::size_t k = 1;
    for (; k < length && i + k < text.size(); ++k) { // cut short or malformed: the bytes that still fit
        const auto next = static_cast<unsigned char>(text[i + k]);
        if (next < (k == 1 ? lo : 0x80) || next > (k == 1 ? hi : 0xBF))
            break;
    }
    return k == length ? 0 : k;
}

std::optional<Utf8Problem> first_utf8_problem(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (utf8_malformed_length(text, i))
            return Utf8Problem{i, c};
        i += c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    }
    return std::nullopt;
}

std::optional<std::string> utf8_problem_sentence(std::string_view text, const std::string& what)
{
    const auto problem = first_utf8_problem(text);
    if (!problem)
        return std::nullopt;
    char where[64];
    std::snprintf(where, sizeof where, "byte 0x%02X at position %zu", problem->byte, problem->offset);
    return what + " is not UTF-8 text: " + where + " does not begin a whole UTF-8 character; give the text as UTF-8.";
}

void require_utf8(std::string_view text, const std::string& what)
{
    if (auto sentence = utf8_problem_sentence(text, what))
        throw Error(std::move(*sentence));
}

std::string printable(std::string_view text, std::size_t max_chars)
{
    std::string out;
    std::size_t chars = 0, i = 0;
    while (i < text.size() && chars < max_chars) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = 1;
        if (c >= 0x80) {
            const auto problem = first_utf8_problem(text.substr(i, 4));
            length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (problem && problem->offset < length)
                length = 0; // not the start of a whole character: escape this byte alone
        }
        if (length == 0 || c < 0x20 || c == 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c); // as Python's repr writes it
            out += escaped;
            length = 1;
        } else
            out.append(text.substr(i, length));
        i += length;
        ++chars;
    }
    if (i < text.size()) {
        std::size_t rest = 0;
        for (std::size_t k = i; k < text.size(); ++k)
            rest += (static_cast<unsigned char>(text[k]) & 0xC0) != 0x80 ? 1 : 0;
        out += "... (" + std::to_string(rest) + " more characters)";
    }
    return out;
}

} // namespace attnlab
