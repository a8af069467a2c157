#pragma once
// Python's literal rules for the call reader: where a number or string literal ends, whether it is
// well formed, and the value Python would compute for it.
#include "call/call_parser.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnlab {

namespace lex {
inline bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
inline bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}
inline bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_ident_char(char c)
{
    return is_ident_start(c) || is_digit(c);
}
} // namespace lex

struct LiteralScan {
    std::size_t end = 0; // one past the literal
    LiteralKind kind = LiteralKind::Other;
    std::string error; // empty when the literal is well formed
    std::size_t error_column = 0;
};

// A number starting at `begin` (a digit, or '.' then a digit): 1_024, 0x300, .5, 1e-1, 1.
LiteralScan scan_python_number(std::string_view text, std::size_t begin);
// A quoted string starting at `begin` (the quote). Only read so it can be refused by name.
LiteralScan scan_python_string(std::string_view text, std::size_t begin);

// An int literal as scanned above, with an optional sign. nullopt if it does not fit in int64.
std::optional<std::int64_t> python_int_value(std::string_view text);
// A float literal: nullopt when it overflows (Python would give inf); tiny values round to 0.0.
std::optional<double> python_float_value(std::string_view text);

} // namespace attnlab
