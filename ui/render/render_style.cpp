#include "render/render_style.h"

#include "render/color_vision.h"

#include <QFont>
#include <QFontInfo>
#include <QPainter>

namespace attnlab::ui {

namespace {

// The accents' starting hues; withContrast then darkens or lightens each to the theme's target.
struct Hues {
    QColor same, differs, warning, info, moved, line;
};
constexpr QRgb kLine = 0xffffd54f; // amber, the usual "you are here" marker

Hues huesFor(bool dark)
{
    if (dark)
        return {QColor(0x5f, 0xd3, 0x9a), QColor(0xff, 0x8a, 0x80), QColor(0xff, 0xb7, 0x4d),
                QColor(0x8a, 0xb4, 0xf8), QColor(0xff, 0x9e, 0x57), QColor(kLine)};
    return {QColor(0x00, 0x70, 0x4a), QColor(0xb3, 0x26, 0x1e), QColor(0x8a, 0x4b, 0x00),
            QColor(0x0b, 0x53, 0x94), QColor(0xb8, 0x4a, 0x00), QColor(kLine)};
}

} // namespace

namespace {
cvd::Rgb toRgb(const QColor& c)
{
    const QColor rgb = c.toRgb();
    return {rgb.redF(), rgb.greenF(), rgb.blueF()};
}
} // namespace

double relativeLuminance(const QColor& c)
{
    return cvd::relativeLuminance(toRgb(c));
}

double contrastRatio(const QColor& a, const QColor& b)
{
    return cvd::contrastRatio(toRgb(a), toRgb(b));
}

QColor blackOrWhiteOn(const QColor& fill)
{
    return contrastRatio(Qt::black, fill) >= contrastRatio(Qt::white, fill) ? QColor(Qt::black) : QColor(Qt::white);
}

bool isLargeText(const QFont& font)
{
    const double px = font.pixelSize() > 0 ? font.pixelSize() : QFontInfo(font).pixelSize();
    return px >= 24 || (font.bold() && px >= 18.66);
}

double requiredContrast(bool largeText)
{
    return largeText ? 3.0 : 4.5;
}

QColor mixColors(const QColor& a, const QColor& b, double t)
{
    const QColor x = a.toRgb(), y = b.toRgb();
    auto lerp = [t](double u, double v) { return static_cast<float>(u + (v - u) * t); };
    return QColor::fromRgbF(lerp(x.redF(), y.redF()), lerp(x.greenF(), y.greenF()), lerp(x.blueF(), y.blueF()));
}

QColor withContrast(const QColor& ink, const QColor& background, double ratio)
{
    if (contrastRatio(ink, background) >= ratio)
        return ink;
    // Away from the background: dark ink on a light surface, light ink on a dark one.
    const QColor pole = blackOrWhiteOn(background);
    for (int step = 1; step <= 20; ++step) {
        const QColor c = mixColors(ink, pole, step / 20.0);
        if (contrastRatio(c, background) >= ratio)
            return c;
    }
    return pole;
}

RenderStyle RenderStyle::fromPalette(const QPalette& palette, QPalette::ColorRole surface)
{
    RenderStyle s;
    s.background = palette.color(surface);
    const QPalette::ColorRole inkRole =
        surface == QPalette::Base || surface == QPalette::AlternateBase ? QPalette::Text : QPalette::WindowText;
    s.dark = relativeLuminance(s.background) < 0.18;
    // A high-contrast palette is pure black and white in its window colours (presentation.cpp's); a light
    // theme's white Base with black text is not one, its window is grey.
    const auto pure = [](const QColor& c) { return relativeLuminance(c) < 0.001 || relativeLuminance(c) > 0.999; };
    s.highContrast = pure(palette.color(QPalette::Window)) && pure(palette.color(QPalette::WindowText)) &&
                     pure(s.background) && contrastRatio(palette.color(inkRole), s.background) > 20.0;
    s.panel = s.highContrast ? s.background : mixColors(s.background, palette.color(inkRole), s.dark ? 0.08 : 0.045);
    s.text = withContrast(palette.color(inkRole), s.panel, s.target());
    s.text = withContrast(s.text, s.background, s.target());
    s.muted = s.highContrast ? s.text : mixColors(s.text, s.background, 0.3);
    s.muted = withContrast(withContrast(s.muted, s.panel, s.target()), s.background, s.target());
    s.frame = s.highContrast ? s.text : mixColors(s.text, s.background, 0.35);
    s.grid = mixColors(s.text, s.background, 0.75);

    const Hues h = huesFor(s.dark);
    const double fill = s.highContrast ? 0.0 : (s.dark ? 0.22 : 0.13);
    auto accent = [&](const QColor& hue, QColor& ink, QColor& tinted) {
        tinted = s.tint(hue, fill);
        ink = withContrast(withContrast(hue, tinted, s.target()), s.background, s.target());
    };
    accent(h.same, s.same, s.sameFill);
    accent(h.differs, s.differs, s.differsFill);
    accent(h.warning, s.warning, s.warningFill);
    accent(h.info, s.info, s.infoFill);
    QColor unused;
    accent(h.moved, s.moved, unused);
    s.lineFill = s.highContrast ? palette.color(QPalette::Highlight) : s.tint(h.line, s.dark ? 0.3 : 0.6);
    s.lineText =
        withContrast(s.highContrast ? palette.color(QPalette::HighlightedText) : s.text, s.lineFill, s.target());
    return s;
}

QPalette RenderStyle::printPalette()
{
    QPalette p;
    const QColor paper(Qt::white), ink(0x1e, 0x1e, 0x1e);
    for (auto role : {QPalette::Window, QPalette::Base, QPalette::Button, QPalette::AlternateBase})
        p.setColor(role, paper);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(role, ink);
    p.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

RenderStyle RenderStyle::print()
{
    return fromPalette(printPalette());
}

double RenderStyle::target(bool large) const
{
    return highContrast ? (large ? 4.5 : 7.0) : requiredContrast(large);
}

QColor RenderStyle::tint(const QColor& hue, double amount) const
{
    return mixColors(background, hue, amount);
}

QColor RenderStyle::inkOn(const QColor& fill) const
{
    if (contrastRatio(text, fill) >= target())
        return text;
    // Black or white: one of them always reaches 4.58:1, whatever the fill.
    return blackOrWhiteOn(fill);
}

QColor RenderStyle::readable(const QColor& ink, const QColor& fill, bool large) const
{
    return withContrast(ink, fill, target(large));
}

void RenderStyle::note(const QColor& ink, const QColor& background, bool large, const QString& what) const
{
    if (log)
        log->push_back({ink, background, large, what});
}

void RenderStyle::drawText(QPainter& p, const QRectF& r, int flags, const QString& s, const QColor& ink,
                           const QColor& bg) const
{
    p.setPen(ink);
    p.drawText(r, flags, s);
    note(ink, bg, isLargeText(p.font()), s);
}

void RenderStyle::drawText(QPainter& p, const QPointF& at, const QString& s, const QColor& ink, const QColor& bg) const
{
    p.setPen(ink);
    p.drawText(at, s);
    note(ink, bg, isLargeText(p.font()), s);
}

} // namespace attnlab::ui
