#pragma once
// Colour science for choosing colours that carry meaning: sRGB <-> linear light, the simulation of
// dichromatic vision of Machado, Oliveira & Fernandes (2009), CIELAB under D65 and the CIEDE2000
// colour difference (Sharma, Wu & Dalal 2005). Plain C++ on RGB triples in [0, 1], no Qt, so the
// head colours can be measured by a test exactly as a reviewer would measure them by hand.
#include <array>

namespace attnlab::ui::cvd {

struct Rgb { // sRGB-encoded or linear, each in [0, 1]
    double r = 0, g = 0, b = 0;
};

struct Lab { // CIELAB, D65 white
    double L = 0, a = 0, b = 0;
};

enum class Vision { Normal, Protanopia, Deuteranopia, Tritanopia };
inline constexpr std::array<Vision, 4> kAllVisions = {Vision::Normal, Vision::Protanopia, Vision::Deuteranopia,
                                                      Vision::Tritanopia};
const char* visionName(Vision v);

using Matrix3 = std::array<std::array<double, 3>, 3>;

double srgbToLinear(double c);
double linearToSrgb(double c);
Rgb srgbToLinear(const Rgb& c);
Rgb linearToSrgb(const Rgb& c);
Rgb fromHex(unsigned rgb); // 0xRRGGBB

// Machado et al. (2009), severity 1.0, applied to linear RGB. Normal vision is the identity.
const Matrix3& machadoMatrix(Vision v);
// What a viewer with the given dichromacy sees, as an sRGB colour (clamped to the gamut).
Rgb simulate(const Rgb& srgb, Vision v);

Lab srgbToLab(const Rgb& srgb);
double ciede2000(const Lab& a, const Lab& b);

// WCAG 2 relative luminance of an sRGB colour and the contrast ratio of two colours (1..21).
double relativeLuminance(const Rgb& srgb);
double contrastRatio(const Rgb& a, const Rgb& b);

} // namespace attnlab::ui::cvd
