#include "text/gpt2_pretokenize.h"

#include "tensor/error.h"
#include "text/utf8.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <memory>

namespace attnlab {

namespace {

// Python's `regex`, which GPT-2's encoder ran on, reads \s as Unicode's White_Space property; PCRE2's \s also
// takes U+180E MONGOLIAN VOWEL SEPARATOR (white space before Unicode 6.3, a format character since). So the
// pattern names the property itself; every class stays a single class, which PCRE2 matches without keeping a
// backtracking frame a character.
constexpr std::string_view kPcre2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+)"
    R"(|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+)";

struct CodeDeleter {
    void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
struct MatchDataDeleter {
    void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};

std::string pcre2_message(int code)
{
    PCRE2_UCHAR buffer[256];
    if (pcre2_get_error_message(code, buffer, sizeof buffer) < 0)
        return "error " + std::to_string(code);
    return reinterpret_cast<const char*>(buffer);
}

// Compiled once; matching with it from several threads is safe, each with its own match data.
const pcre2_code* gpt2_pattern()
{
    static const std::unique_ptr<pcre2_code, CodeDeleter> code = [] {
        int error = 0;
        PCRE2_SIZE offset = 0;
        pcre2_code* compiled = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(kPcre2Pattern.data()), kPcre2Pattern.size(),
                                             PCRE2_UTF | PCRE2_UCP, &error, &offset, nullptr);
        if (!compiled)
            throw Error("GPT-2's pre-tokenizer pattern does not compile in this PCRE2: " + pcre2_message(error) +
                        " at offset " + std::to_string(offset) + ".");
        pcre2_jit_compile(compiled, PCRE2_JIT_COMPLETE); // when JIT is missing, the interpreter gives the same
        return std::unique_ptr<pcre2_code, CodeDeleter>(compiled);
    }();
    return code.get();
}

} // namespace

std::vector<std::string_view> gpt2_pretokenize(std::string_view text)
{
    require_utf8(text, "the text");
    const pcre2_code* code = gpt2_pattern();
    const std::unique_ptr<pcre2_match_data, MatchDataDeleter> match(
        pcre2_match_data_create_from_pattern(code, nullptr));
    if (!match)
        throw Error("out of memory while splitting the text into GPT-2's pieces.");
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::vector<std::string_view> pieces;
    std::size_t at = 0;
    while (at < text.size()) {
        // Checked once above: without NO_UTF_CHECK every call would check the rest of the text again.
        int found = pcre2_match(code, subject, text.size(), at, PCRE2_NO_UTF_CHECK, match.get(), nullptr);
        // JIT code keeps a position a character on a small stack: a run of hundreds of thousands of letters
        // overflows it. The interpreter keeps them on the heap and gives the same match.
        if (found == PCRE2_ERROR_JIT_STACKLIMIT)
            found =
                pcre2_match(code, subject, text.size(), at, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, match.get(), nullptr);
        if (found == PCRE2_ERROR_NOMATCH)
            break;
        if (found < 0)
            throw Error("the text could not be split into GPT-2's pieces at byte " + std::to_string(at) +
                        ": PCRE2 says " + pcre2_message(found) + ".");
        const PCRE2_SIZE* span = pcre2_get_ovector_pointer(match.get());
        if (span[1] <= span[0]) // every alternative takes at least one character; never loop in place
            break;
        pieces.push_back(text.substr(span[0], span[1] - span[0]));
        at = span[1];
    }
    return pieces;
}

const std::array<char32_t, 256>& gpt2_byte_to_unicode()
{
    static const std::array<char32_t, 256> table = [] {
        std::array<char32_t, 256> map{};
        char32_t next = 256;
        for (unsigned b = 0; b < 256; ++b) {
            const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            map[b] = printable ? char32_t(b) : next++;
        }
        return map;
    }();
    return table;
}

std::string gpt2_byte_symbols(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char c : bytes) {
        const char32_t u = gpt2_byte_to_unicode()[static_cast<unsigned char>(c)];
        if (u < 0x80)
            out += static_cast<char>(u);
        else { // all below U+0800: two bytes
            out += static_cast<char>(0xC0 | (u >> 6));
            out += static_cast<char>(0x80 | (u & 0x3F));
        }
    }
    return out;
}

} // namespace attnlab
