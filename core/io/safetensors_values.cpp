// What the safetensors reader turns bytes into: floats from half and bfloat16 bits, and names fit to quote.
#include "io/safetensors.h"

#include "text/utf8.h"

#include <bit>
#include <cmath>

namespace attnlab {

float half_to_float(std::uint16_t bits)
{
    const std::uint32_t sign = (bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    const std::uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0) { // zero or subnormal: mantissa * 2^-24, exact in float
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) // inf, or NaN keeping its payload
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bfloat16_to_float(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

bool json_nested_deeper_than(std::string_view text, std::size_t limit)
{
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (in_string) {
            if (ch == '\\')
                ++i;
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if ((ch == '[' || ch == '{') && ++depth > limit) {
            return true;
        } else if ((ch == ']' || ch == '}') && depth > 0) {
            --depth;
        }
    }
    return false;
}

std::string printable_name(std::string_view name)
{
    // Long enough for any real tensor name; a longer one is hostile or a mistake, and would bury the sentence.
    return printable(name, 120);
}

} // namespace attnlab
