#include "render/head_colors.h"

#include <array>

namespace attnlab::ui {

QColor headColor(int head, int numHeads)
{
    // Okabe-Ito: distinguishable with every common colour-vision deficiency. Grey is left out
    // because grey means "masked" in the heatmaps.
    static constexpr std::array<QRgb, 7> okabeIto = {0xffe69f00, 0xff56b4e9, 0xff009e73, 0xfff0e442,
                                                     0xff0072b2, 0xffd55e00, 0xffcc79a7};
    if (numHeads <= static_cast<int>(okabeIto.size()))
        return QColor::fromRgb(okabeIto[static_cast<std::size_t>(head) % okabeIto.size()]);
    // Beyond seven no palette stays colour-blind safe, so neighbours at least differ in hue and
    // lightness (the head number is always printed beside the colour as well).
    const int hue = static_cast<int>((head * 360.0) / numHeads);
    const int lightness = head % 2 == 0 ? 120 : 160;
    return QColor::fromHsl(hue, 170, lightness);
}

} // namespace attnlab::ui
