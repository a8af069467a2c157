#pragma once
// How every painter sizes its type: pixel fonts with a readable floor, titles shrunk then elided, and
// the largest size at which a label (a head's number, a title) fits its room. One place, so a label
// shrinks by the same rules in the shape diagram, the heatmaps and the design comparison.
#include <QFont>
#include <QFontMetricsF>
#include <QString>

#include <functional>
#include <optional>

namespace attnlab::ui {

QFont pixelFont(double px, bool bold = false); // rounded, never under 9 px
// The one monospaced face code, calls and numbers are set in (bundled with Debian's fonts-dejavu-core).
QString codeFamily();
QFont pixelCodeFont(double px, bool bold = false); // pixelFont in codeFamily()

// A title in `font`, shrunk (to 3/4 of its size at most) and then elided until it fits `width`.
struct FittedText {
    QFont font;
    QString text;
};
FittedText fitTitle(const QString& title, QFont font, double width);

// `font` at the largest pixel size from `largestPx` down to `smallestPx` for which `fits` holds.
std::optional<QFont> largestFitting(QFont font, int largestPx, int smallestPx,
                                    const std::function<bool(const QFontMetricsF&)>& fits);

} // namespace attnlab::ui
