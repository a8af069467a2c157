#pragma once
// Colour scales chosen so a projector and colour-blind students read them the same way: viridis
// (perceptually uniform, monotonic in lightness) for weights, ColorBrewer's RdBu (diverging, colour-
// blind safe) for signed scores, and a grey hatch for masked cells, a colour neither scale contains.
#include <QColor>
#include <QImage>
#include <QSize>
#include <QString>

namespace attnlab::ui {

QRgb viridis(double t);   // t in [0, 1]
QRgb diverging(double t); // t in [-1, 1]: blue for negative, near-white for 0, red for positive

// The two greys of the masked hatch; (x + y) picks one, so masked regions read as striped at any size.
inline constexpr QRgb kMaskedLight = 0xffc8c8c8;
inline constexpr QRgb kMaskedDark = 0xff8c8c8c;
QRgb maskedColor(int x, int y);
bool isMaskedColor(QRgb rgb);
// A swatch of the hatch, `size` pixels: the heatmap legend's, and what a thumbnail's masked half shows.
QImage maskedHatch(QSize size);

struct ColorScale {
    enum class Kind { Sequential, Diverging };
    Kind kind = Kind::Sequential;
    double lo = 0.0;
    double hi = 1.0;
    QString label; // what the legend says the colours stand for
    // Sequential only: colours spread over log(value) from lo (> 0) to hi, so weights near 1/N are
    // told apart at 1,024 tokens; values at or below lo (an exact 0 included) take the lowest colour.
    bool logarithmic = false;
    QString scaleName; // what the legend says about the mapping: "linear 0–1", "log", ...

    QRgb map(double value) const;
    QString kindName() const;                       // "sequential" or "diverging, centred on 0": what the legend says
    double valueAt(double t) const;                 // the value drawn at position t in [0, 1] of the legend
    static ColorScale weights(double max);          // [0, max(1, max)]
    static ColorScale scores(double maxAbs);        // symmetric around 0
    static ColorScale weightsToLargest(double max); // [0, max]: the brightest cell is the largest shown
    static ColorScale weightsLog(double minPositive, double max); // log from minPositive to max
};

} // namespace attnlab::ui
