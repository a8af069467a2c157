#include "render/colormap.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace attnlab::ui {

namespace {

template <std::size_t N> QRgb interpolate(const std::array<QRgb, N>& stops, double t)
{
    if (!(t > 0.0))
        return stops.front();
    if (t >= 1.0)
        return stops.back();
    const double x = t * static_cast<double>(N - 1);
    const auto i = static_cast<std::size_t>(x);
    const double f = x - static_cast<double>(i);
    const QRgb a = stops[i], b = stops[i + 1];
    auto mix = [f](int u, int v) { return static_cast<int>(std::lround(u + (v - u) * f)); };
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

// matplotlib's viridis at t = 0, 0.1, ..., 1.
constexpr std::array<QRgb, 11> kViridis = {0xff440154, 0xff482475, 0xff414487, 0xff355f8d, 0xff2a788e, 0xff21918c,
                                           0xff22a884, 0xff44bf70, 0xff7ad151, 0xffbddf26, 0xfffde725};
// ColorBrewer RdBu (11 classes), from strong blue (-1) through near-white (0) to strong red (+1).
constexpr std::array<QRgb, 11> kRdBu = {0xff053061, 0xff2166ac, 0xff4393c3, 0xff92c5de, 0xffd1e5f0, 0xfff7f7f7,
                                        0xfffddbc7, 0xfff4a582, 0xffd6604d, 0xffb2182b, 0xff67001f};

} // namespace

QRgb viridis(double t)
{
    return interpolate(kViridis, t);
}

QRgb diverging(double t)
{
    return interpolate(kRdBu, (t + 1.0) / 2.0);
}

QRgb maskedColor(int x, int y)
{
    return ((x + y) / 4) % 2 == 0 ? kMaskedLight : kMaskedDark;
}

QImage maskedHatch(QSize size)
{
    QImage hatch(size, QImage::Format_RGB32);
    for (int y = 0; y < hatch.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(hatch.scanLine(y));
        for (int x = 0; x < hatch.width(); ++x)
            line[x] = maskedColor(x, y);
    }
    return hatch;
}

bool isMaskedColor(QRgb rgb)
{
    return (rgb | 0xff000000) == kMaskedLight || (rgb | 0xff000000) == kMaskedDark;
}

QRgb ColorScale::map(double value) const
{
    if (kind == Kind::Sequential && logarithmic)
        return viridis(value > lo && hi > lo ? std::log(value / lo) / std::log(hi / lo) : 0.0);
    if (kind == Kind::Sequential)
        return viridis(hi > lo ? (value - lo) / (hi - lo) : 0.0);
    const double half = std::max(std::abs(lo), std::abs(hi));
    return diverging(half > 0 ? value / half : 0.0);
}

QString ColorScale::kindName() const
{
    return kind == Kind::Diverging ? QStringLiteral("diverging, centred on 0") : QStringLiteral("sequential");
}

double ColorScale::valueAt(double t) const
{
    if (kind == Kind::Sequential && logarithmic && lo > 0 && hi > lo)
        return lo * std::pow(hi / lo, t);
    return lo + (hi - lo) * t;
}

namespace {

ColorScale sequential(double lo, double hi, bool logarithmic, const QString& scaleName)
{
    ColorScale s;
    s.lo = lo;
    s.hi = hi;
    s.label = QStringLiteral("attention weight");
    s.logarithmic = logarithmic;
    s.scaleName = scaleName;
    return s;
}

} // namespace

ColorScale ColorScale::weights(double max)
{
    // Softmax rows sum to 1, so [0, 1] is the honest range; dropout's 1/(1-p) scaling can exceed it.
    return sequential(0.0, std::max(1.0, max), false, QStringLiteral("linear"));
}

ColorScale ColorScale::weightsToLargest(double max)
{
    return sequential(0.0, max > 0 ? max : 1.0, false, QStringLiteral("linear, to max"));
}

ColorScale ColorScale::weightsLog(double minPositive, double max)
{
    const double hi = max > 0 ? max : 1.0;
    // Below a millionth of the largest, differences are invisible noise: clamp there.
    const double lo = std::clamp(minPositive, hi * 1e-6, hi * 0.5);
    return sequential(lo, hi, true, QStringLiteral("log scale"));
}

ColorScale ColorScale::scores(double maxAbs)
{
    const double m = maxAbs > 0 ? maxAbs : 1.0;
    ColorScale s;
    s.kind = Kind::Diverging;
    s.lo = -m;
    s.hi = m;
    s.label = QStringLiteral("score (q · k)");
    s.scaleName = QStringLiteral("linear, ±max");
    return s;
}

} // namespace attnlab::ui
