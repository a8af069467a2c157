#pragma once
// Reads a Python-style constructor call such as `MultiHeadAttention(768, 768, 1024, 0.0, 12)` or
// with keywords, names every value by the slot it fills (left to right), and refuses what Python
// (or the module) would refuse, saying what and where. Two steps, so the argument-contract lesson
// can look at a call whose values do not bind: lex/parse into CallSyntax, then bind to a Config.
#include "call/config.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab {

enum class LiteralKind { Int, Float, Bool, None, Other };

struct CallArgument {
    std::optional<std::string> keyword; // set for `name=value`
    std::string text;                   // the value as written, e.g. "0.0", "True", "1_024", "(768)"
    // The literal Python computes from it when that is not the text itself: "768" for "((768))", "True"
    // for "not False". Empty when the text is the literal.
    std::string literal;
    const std::string& value() const { return literal.empty() ? text : literal; }
    LiteralKind kind = LiteralKind::Other;
    std::size_t begin = 0; // 0-based byte offsets of the whole argument in the call text
    std::size_t end = 0;
    std::size_t value_begin = 0; // offsets of the value alone
    std::string slot;            // filled by bind_call: the slot this value lands in
};

struct CallSyntax {
    std::string class_name;
    std::size_t class_begin = 0;
    std::vector<CallArgument> arguments;
};

struct CallError {
    std::string message;                                      // one sentence: what, where, what would be valid
    std::size_t column = 0;                                   // 0-based byte offset the caret points at
    std::string with_caret(std::string_view call_text) const; // message, the call, a caret line
};

struct ParsedCall {
    std::optional<Config> config;   // set when the call binds
    std::optional<CallError> error; // set when it does not
    CallSyntax syntax;              // as far as it could be read; slots filled where known
    bool ok() const { return config.has_value(); }
};

// Syntax only (class name, arguments, literal kinds). Throws nothing; errors come back in .error.
ParsedCall parse_call_syntax(std::string_view text);
// Syntax + binding to the module's slots with Python's rules: positional then keywords, missing,
// extra, duplicate and unknown keywords, floats where ints belong, out-of-range integers.
ParsedCall parse_call(std::string_view text);

} // namespace attnlab
