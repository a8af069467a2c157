#pragma once
// Text arrives as bytes (a command line, a file); what the programs show and save is UTF-8. A text
// that is not UTF-8 is refused at the door with where it goes wrong, rather than failing later when
// it is printed as JSON or written into a file's header.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

struct Utf8Problem {
    std::size_t offset = 0; // of the first byte that does not begin a whole character
    unsigned char byte = 0;
};

// The first place `text` is not well-formed UTF-8 (overlong forms, surrogates and code points past
// U+10FFFF included), or nullopt when it is.
std::optional<Utf8Problem> first_utf8_problem(std::string_view text);
// The length of the malformed part starting at byte `i` (the lead byte and the continuation bytes that
// still fit it, at least 1), or 0 when a whole character starts there.
std::size_t utf8_malformed_length(std::string_view text, std::size_t i);

// "<what> is not UTF-8 text: byte 0xFF at position 6 does not begin a whole UTF-8 character; give the
// text as UTF-8.", or nullopt for valid text.
std::optional<std::string> utf8_problem_sentence(std::string_view text, const std::string& what);
// Throws Error with that sentence; does nothing for valid text.
void require_utf8(std::string_view text, const std::string& what);

// `text` as a message may quote it: control bytes and bytes that are not UTF-8 as \xnn (a NUL would
// cut the sentence short, an escape sequence would colour the terminal), and at most `max_chars`
// characters, the rest counted ("... (12,345 more characters)") so a huge argument is not echoed whole.
std::string printable(std::string_view text, std::size_t max_chars = 80);

} // namespace attnlab
