// libFuzzer harness for the call parser: any bytes are either refused with an error whose caret
// lies inside the text, or bind to a Config that validates without throwing and whose canonical
// and positional calls parse back to the same Config.
#include "call/call_parser.h"
#include "call/config.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace attnlab;

namespace {

[[noreturn]] void fail(const char* what, std::string_view input, const std::string& detail)
{
    std::fprintf(stderr, "fuzz_call_parser: %s\ninput: %.*s\n%s\n", what, static_cast<int>(input.size()), input.data(),
                 detail.c_str());
    std::abort();
}

void round_trip(const std::string& written, const Config& config, std::string_view input)
{
    const ParsedCall again = parse_call(written);
    if (!again.ok())
        fail("a call we wrote does not parse back", input, written + "\n" + again.error->message);
    if (!(*again.config == config) &&
        !(config.dropout != config.dropout && again.config->dropout != again.config->dropout))
        fail("a call we wrote parses back to a different config", input, written);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ParsedCall syntax = parse_call_syntax(text);
    const ParsedCall parsed = parse_call(text);
    if (parsed.ok() == parsed.error.has_value())
        fail("a call must either bind or carry an error, not both or neither", text, "");
    if (syntax.error && parsed.ok())
        fail("a call with a syntax error bound", text, syntax.error->message);
    if (parsed.error) {
        if (parsed.error->column > size)
            fail("the caret points past the end of the call", text, parsed.error->message);
        if (parsed.error->message.empty())
            fail("an error without a message", text, "");
        (void)parsed.error->with_caret(text);
        return 0;
    }
    const Config& config = *parsed.config;
    for (const auto& input : {InputShape{1, 6}, InputShape{0, 0}, InputShape{-1, INT64_MAX}})
        for (const Diagnostic& d : validate(config, input))
            if (d.message.empty())
                fail("a diagnostic without a message", text, diagnostic_code_name(d.code));
    (void)validate(config);
    round_trip(canonical_call(config), config, text);
    round_trip(positional_call(config), config, text);
    return 0;
}
