#include "call/python_repr.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace attnlab {

std::string python_float_repr(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    if (value == 0.0)
        return std::signbit(value) ? "-0.0" : "0.0";

    // to_chars gives the shortest round-tripping digits; Python only differs in where it switches
    // between plain and exponent notation, so re-lay the digits out by Python's rule.
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value), std::chars_format::scientific);
    const std::string text(buffer, result.ptr);
    const std::size_t e = text.find('e');
    std::string digits;
    for (std::size_t i = 0; i < e; ++i)
        if (text[i] != '.')
            digits += text[i];
    int exponent = 0;
    std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(), exponent);

    const int point = exponent + 1; // digits d1 d2 ... read as 0.d1d2... * 10^point
    const int count = static_cast<int>(digits.size());
    std::string out = value < 0 ? "-" : "";
    if (point <= -4 || point > 16) {
        out += digits[0];
        if (count > 1)
            out.append(".").append(digits, 1);
        const int magnitude = std::abs(exponent);
        out += exponent < 0 ? "e-" : "e+";
        if (magnitude < 10)
            out += '0';
        out += std::to_string(magnitude);
    } else if (point <= 0) {
        out += "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
    } else if (point >= count) {
        out += digits + std::string(static_cast<std::size_t>(point - count), '0') + ".0";
    } else {
        out += digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
    }
    return out;
}

} // namespace attnlab
