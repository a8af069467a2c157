#include "render/head_colors.h"

#include "render/render_style.h"

#include "render/color_vision.h"

#include <array>

namespace attnlab::ui {

namespace {

// Twelve colours, ordered so that the first n of them serve n heads. Found by
// tests/reference/head_colors_search.py: a local search over an sRGB grid that maximises, for every
// prefix size 2..12, the smallest CIEDE2000 distance between any two colours as seen with normal
// vision and with simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity 1).
// Every colour has relative luminance 0.1645..0.25, so it keeps 3:1 (WCAG's figure for graphics) against
// white, Fusion's #efefef window, black and the Dark theme's #26282c window: a frame or chip stays
// visible on a light or a dark page. That narrow band (L* 47..57) is what limits the distances; with
// the light bound at 0.295 (white only) the search reached 9.5 instead of 7.0 for twelve heads. Chroma
// C*ab >= 25 keeps them clear of the grey that means "masked". tests/ui/test_head_colors.cpp measures
// the distances: the smallest ΔE00 over the four visions is 51.4 for 2 heads, 16.6 for 3, 12.7 for 4,
// 9.5 for 6, 8.6 for 8 and 7.0 for 12.
constexpr std::array<QRgb, kDistinctHeadColors> kHeadColors = {
    0xffc34b00, 0xff1e87ff, 0xffb47887, 0xff7869a5, 0xff1e873c, 0xffe15a69,
    0xffa55a78, 0xffff1e3c, 0xffe100c3, 0xff0f69f0, 0xffa578a5, 0xff4b9669,
};

int wrapped(int head)
{
    const int n = kDistinctHeadColors;
    return ((head % n) + n) % n;
}

} // namespace

QColor headColor(int head)
{
    return QColor::fromRgb(kHeadColors[static_cast<std::size_t>(wrapped(head))]);
}

QColor headColor(int head, int /*numHeads: the colour of a head does not change with the count*/)
{
    return headColor(head);
}

QString headLabel(int head)
{
    return QStringLiteral("head %1").arg(head);
}

QString headShortLabel(int head)
{
    return QStringLiteral("h%1").arg(head);
}

QColor headLabelInk(const QColor& fill)
{
    return blackOrWhiteOn(fill);
}

} // namespace attnlab::ui
