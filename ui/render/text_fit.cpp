#include "render/text_fit.h"

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

QFont pixelFont(double px, bool bold)
{
    QFont f;
    f.setPixelSize(std::max(9, static_cast<int>(std::lround(px))));
    f.setBold(bold);
    return f;
}

QString codeFamily()
{
    return QStringLiteral("DejaVu Sans Mono");
}

QFont pixelCodeFont(double px, bool bold)
{
    QFont f = pixelFont(px, bold);
    f.setFamily(codeFamily());
    f.setStyleHint(QFont::Monospace);
    return f;
}

FittedText fitTitle(const QString& title, QFont font, double width)
{
    const int px = font.pixelSize() > 0 ? font.pixelSize() : 16;
    for (int size = px; size >= (px * 3 + 3) / 4; --size) {
        font.setPixelSize(size);
        if (QFontMetricsF(font).horizontalAdvance(title) <= width)
            return {font, title};
    }
    return {font, QFontMetricsF(font).elidedText(title, Qt::ElideRight, std::max(0.0, width))};
}

std::optional<QFont> largestFitting(QFont font, int largestPx, int smallestPx,
                                    const std::function<bool(const QFontMetricsF&)>& fits)
{
    for (int px = largestPx; px >= smallestPx; --px) {
        font.setPixelSize(px);
        if (fits(QFontMetricsF(font)))
            return font;
    }
    return std::nullopt;
}

} // namespace attnlab::ui
