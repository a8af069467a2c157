#include "call/call_literals.h"

#include "call/call_messages.h"

#include <algorithm>
#include <charconv>

namespace attnlab {

using namespace lex;

namespace {

bool digit10(char c)
{
    return is_digit(c);
}
bool digit16(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool digit8(char c)
{
    return c >= '0' && c <= '7';
}
bool digit2(char c)
{
    return c == '0' || c == '1';
}

class NumberScanner {
public:
    NumberScanner(std::string_view text, std::size_t begin) : t_(text), begin_(begin), pos_(begin) {}
    LiteralScan scan();

private:
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < t_.size() ? t_[pos_ + ahead] : '\0'; }
    std::string found() const { return pos_ < t_.size() ? describe_char(t_[pos_]) : "the end of the call"; }
    std::string written() const { return clip(t_.substr(begin_, pos_ - begin_)); }
    bool fail(std::size_t column, std::string message)
    {
        result_.error = std::move(message);
        result_.error_column = column;
        return false;
    }
    bool digits(bool (*digit)(char), const char* what);
    bool body();

    std::string_view t_;
    std::size_t begin_;
    std::size_t pos_;
    LiteralScan result_;
};

// Digits with single underscores between them, as Python allows (1_024); at least one digit.
bool NumberScanner::digits(bool (*digit)(char), const char* what)
{
    if (!digit(peek()))
        return fail(pos_, std::string("expected ") + what + " digits here, but found " + found() + ".");
    while (digit(peek()) || peek() == '_') {
        if (peek() == '_' && !digit(peek(1)))
            return fail(pos_, "an underscore in a number must sit between two digits, as in 1_024.");
        ++pos_;
    }
    return true;
}

bool NumberScanner::body()
{
    result_.kind = LiteralKind::Int;
    const char prefix = static_cast<char>(peek(1) | 0x20);
    if (peek() == '0' && (prefix == 'x' || prefix == 'o' || prefix == 'b')) {
        pos_ += peek(2) == '_' ? 3 : 2; // Python allows 0x_ff
        return prefix == 'x'   ? digits(digit16, "hexadecimal")
               : prefix == 'o' ? digits(digit8, "octal")
                               : digits(digit2, "binary");
    }
    if (peek() != '.' && !digits(digit10, "decimal"))
        return false;
    if (peek() == '.') {
        result_.kind = LiteralKind::Float;
        ++pos_;
        if (is_digit(peek()) && !digits(digit10, "decimal"))
            return false;
    }
    if (peek() == 'e' || peek() == 'E') {
        result_.kind = LiteralKind::Float;
        ++pos_;
        if (peek() == '+' || peek() == '-')
            ++pos_;
        if (!digits(digit10, "exponent"))
            return false;
    }
    // Python 3 reads 012 as an error, not as octal.
    if (result_.kind == LiteralKind::Int && t_[begin_] == '0' &&
        std::any_of(t_.begin() + begin_, t_.begin() + pos_, [](char c) { return c != '0' && c != '_'; }))
        return fail(begin_,
                    "Python does not allow leading zeros in an integer such as '" + written() + "'; drop them.");
    return true;
}

LiteralScan NumberScanner::scan()
{
    if (body() && (is_ident_char(peek()) || peek() == '.'))
        fail(pos_, "unexpected " + found() + " right after the number '" + written() +
                       "'; that is not a valid Python number.");
    result_.end = pos_;
    return result_;
}

} // namespace

LiteralScan scan_python_number(std::string_view text, std::size_t begin)
{
    return NumberScanner(text, begin).scan();
}

LiteralScan scan_python_string(std::string_view text, std::size_t begin)
{
    LiteralScan result;
    const char quote = text[begin];
    std::size_t pos = begin + 1;
    for (; pos < text.size() && text[pos] != quote && text[pos] != '\n'; ++pos)
        if (text[pos] == '\\')
            ++pos;
    if (pos >= text.size() || text[pos] != quote) {
        result.error = "this string has no closing " + describe_char(quote) + ".";
        result.error_column = begin;
    }
    result.end = std::min(pos + 1, text.size());
    return result;
}

std::optional<std::int64_t> python_int_value(std::string_view text)
{
    std::string digits;
    bool negative = false;
    for (char c : text) {
        if (c == '-')
            negative = !negative;
        else if (c != '+' && c != '_' && !lex::is_space(c))
            digits += c;
    }
    int base = 10;
    const char prefix = digits.size() > 1 && digits[0] == '0' ? static_cast<char>(digits[1] | 0x20) : '\0';
    if (prefix == 'x' || prefix == 'o' || prefix == 'b') {
        base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
        digits.erase(0, 2);
    }
    std::uint64_t magnitude = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
    if (ec != std::errc() || ptr != digits.data() + digits.size() || magnitude > limit)
        return std::nullopt;
    return negative ? static_cast<std::int64_t>(~magnitude + 1) : static_cast<std::int64_t>(magnitude);
}

std::optional<double> python_float_value(std::string_view text)
{
    std::string s;
    for (char c : text)
        if (c != '_' && c != '+' && !lex::is_space(c))
            s += c;
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec == std::errc() && ptr == s.data() + s.size())
        return value;
    // Out of range: tiny values round to zero as in Python, huge ones are refused. The decimal
    // exponent of the leading digit tells which; saturate it so absurd exponents stay harmless.
    const std::size_t e = s.find_first_of("eE");
    const std::string mantissa = s.substr(0, e);
    long long exponent = 0;
    if (e != std::string::npos) {
        const std::string exp_text = s.substr(e + 1);
        for (char c : exp_text)
            if (c >= '0' && c <= '9')
                exponent = std::min(exponent * 10 + (c - '0'), 1'000'000'000LL);
        if (exp_text.find('-') != std::string::npos)
            exponent = -exponent;
    }
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first = mantissa.find_first_of("123456789");
    if (first == std::string::npos)
        return s[0] == '-' ? -0.0 : 0.0;
    const long long lead =
        first < point ? static_cast<long long>(point - first) - 1 : -static_cast<long long>(first - point);
    if (lead + exponent < 0)
        return s[0] == '-' ? -0.0 : 0.0;
    return std::nullopt;
}

} // namespace attnlab
