#include "render/color_vision.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace attnlab::ui::cvd {

namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

Rgb multiply(const Matrix3& m, const Rgb& c)
{
    return {m[0][0] * c.r + m[0][1] * c.g + m[0][2] * c.b, m[1][0] * c.r + m[1][1] * c.g + m[1][2] * c.b,
            m[2][0] * c.r + m[2][1] * c.g + m[2][2] * c.b};
}

double labF(double t)
{
    constexpr double delta = 6.0 / 29.0;
    return t > delta * delta * delta ? std::cbrt(t) : t / (3 * delta * delta) + 4.0 / 29.0;
}

// Hue angle in degrees, [0, 360); 0 for a neutral colour as the 2005 notes prescribe.
double hueDegrees(double b, double a)
{
    if (a == 0 && b == 0)
        return 0;
    const double h = std::atan2(b, a) / kDegree;
    return h < 0 ? h + 360 : h;
}

} // namespace

const char* visionName(Vision v)
{
    switch (v) {
    case Vision::Normal: return "normal";
    case Vision::Protanopia: return "protanopia";
    case Vision::Deuteranopia: return "deuteranopia";
    case Vision::Tritanopia: return "tritanopia";
    }
    return "";
}

double srgbToLinear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linearToSrgb(double c)
{
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

Rgb srgbToLinear(const Rgb& c)
{
    return {srgbToLinear(c.r), srgbToLinear(c.g), srgbToLinear(c.b)};
}

Rgb linearToSrgb(const Rgb& c)
{
    return {linearToSrgb(c.r), linearToSrgb(c.g), linearToSrgb(c.b)};
}

Rgb fromHex(unsigned rgb)
{
    return {((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0};
}

const Matrix3& machadoMatrix(Vision v)
{
    // Table 1 of Machado, Oliveira & Fernandes, "A Physiologically-based Model for Simulation of Color
    // Vision Deficiency", IEEE TVCG 15(6), 2009: the rows for severity 1.0.
    static const Matrix3 identity = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    static const Matrix3 protanopia = {
        {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
    static const Matrix3 deuteranopia = {
        {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
    static const Matrix3 tritanopia = {
        {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
    switch (v) {
    case Vision::Normal: return identity;
    case Vision::Protanopia: return protanopia;
    case Vision::Deuteranopia: return deuteranopia;
    case Vision::Tritanopia: return tritanopia;
    }
    return identity;
}

Rgb simulate(const Rgb& srgb, Vision v)
{
    const Rgb lin = multiply(machadoMatrix(v), srgbToLinear(srgb));
    auto clamp = [](double c) { return std::clamp(c, 0.0, 1.0); };
    return linearToSrgb(Rgb{clamp(lin.r), clamp(lin.g), clamp(lin.b)});
}

Lab srgbToLab(const Rgb& srgb)
{
    // IEC 61966-2-1 primaries; the white is the matrix's own row sums, so sRGB white is exactly L* = 100.
    static const Matrix3 toXyz = {
        {{0.4124564, 0.3575761, 0.1804375}, {0.2126729, 0.7151522, 0.0721750}, {0.0193339, 0.1191920, 0.9503041}}};
    const Rgb xyz = multiply(toXyz, srgbToLinear(srgb));
    const double xn = toXyz[0][0] + toXyz[0][1] + toXyz[0][2];
    const double yn = toXyz[1][0] + toXyz[1][1] + toXyz[1][2];
    const double zn = toXyz[2][0] + toXyz[2][1] + toXyz[2][2];
    const double fx = labF(xyz.r / xn), fy = labF(xyz.g / yn), fz = labF(xyz.b / zn);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double ciede2000(const Lab& x, const Lab& y)
{
    // Equations (1)-(17) of Sharma, Wu & Dalal (2005), with kL = kC = kH = 1.
    const double cBar = (std::hypot(x.a, x.b) + std::hypot(y.a, y.b)) / 2;
    const double c7 = std::pow(cBar, 7);
    const double g = 0.5 * (1 - std::sqrt(c7 / (c7 + std::pow(25.0, 7))));
    const double a1 = (1 + g) * x.a, a2 = (1 + g) * y.a;
    const double c1 = std::hypot(a1, x.b), c2 = std::hypot(a2, y.b);
    const double h1 = hueDegrees(x.b, a1), h2 = hueDegrees(y.b, a2);

    const double dL = y.L - x.L, dC = c2 - c1;
    double dh = 0;
    if (c1 * c2 != 0) {
        dh = h2 - h1;
        if (dh > 180)
            dh -= 360;
        else if (dh < -180)
            dh += 360;
    }
    const double dH = 2 * std::sqrt(c1 * c2) * std::sin(dh / 2 * kDegree);

    const double lBar = (x.L + y.L) / 2, cBarP = (c1 + c2) / 2;
    double hBar = h1 + h2;
    if (c1 * c2 != 0) {
        if (std::abs(h1 - h2) <= 180)
            hBar /= 2;
        else
            hBar = hBar < 360 ? (hBar + 360) / 2 : (hBar - 360) / 2;
    }
    const double t = 1 - 0.17 * std::cos((hBar - 30) * kDegree) + 0.24 * std::cos(2 * hBar * kDegree) +
                     0.32 * std::cos((3 * hBar + 6) * kDegree) - 0.20 * std::cos((4 * hBar - 63) * kDegree);
    const double dTheta = 30 * std::exp(-std::pow((hBar - 275) / 25, 2));
    const double cP7 = std::pow(cBarP, 7);
    const double rC = 2 * std::sqrt(cP7 / (cP7 + std::pow(25.0, 7)));
    const double l50 = (lBar - 50) * (lBar - 50);
    const double sL = 1 + 0.015 * l50 / std::sqrt(20 + l50);
    const double sC = 1 + 0.045 * cBarP;
    const double sH = 1 + 0.015 * cBarP * t;
    const double rT = -std::sin(2 * dTheta * kDegree) * rC;
    const double l = dL / sL, c = dC / sC, h = dH / sH;
    return std::sqrt(l * l + c * c + h * h + rT * c * h);
}

double relativeLuminance(const Rgb& srgb)
{
    const Rgb lin = srgbToLinear(srgb);
    return 0.2126 * lin.r + 0.7152 * lin.g + 0.0722 * lin.b;
}

double contrastRatio(const Rgb& a, const Rgb& b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace attnlab::ui::cvd
