#pragma once
// The two fixed parts of GPT-2's byte-level BPE, as OpenAI's encoder.py has them: the pattern that cuts a
// text into pieces before any merge (contractions, letters, numbers, other symbols, white space), and the
// map from each byte to the printable character the vocabulary files write it as.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

// GPT-2's pattern as OpenAI wrote it for Python's `regex` module. gpt2_pretokenize() runs it with PCRE2's
// Unicode classes (PCRE2_UTF | PCRE2_UCP), \s spelled as the White_Space property the `regex` module means by it.
inline constexpr std::string_view kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// The pieces re.findall(pattern, text) gives, as views into `text`, in order; together they are the whole
// text. `text` must be UTF-8 (check it first: require_utf8). Throws Error if PCRE2 fails on it.
std::vector<std::string_view> gpt2_pretokenize(std::string_view text);

// bytes_to_unicode(): the printable bytes stand for themselves ('!'..'~', U+00A1..U+00AC, U+00AE..U+00FF),
// the other 68, in order, for U+0100 onwards (a space is U+0120 'Ġ', a newline U+010A 'Ċ').
const std::array<char32_t, 256>& gpt2_byte_to_unicode();

// `bytes` as the vocabulary files write it: each byte's character from gpt2_byte_to_unicode(), in UTF-8.
std::string gpt2_byte_symbols(std::string_view bytes);

} // namespace attnlab
