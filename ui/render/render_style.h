#pragma once
// Every colour the painters and the pages draw with, derived from one QPalette, so Light, Dark, High
// Contrast and the platform's own palette all read: Qt's own examples paint with palette() for the same
// reason. Data colours (viridis, RdBu, the mask hatch, head colours) stay fixed; text drawn on them
// takes inkOn(cell). Painters draw text through drawText(), which records each (ink, background) pair
// into an optional log, so a test checks the contrast of what was actually drawn.
#include <QColor>
#include <QPalette>
#include <QString>

#include <memory>
#include <vector>

class QFont;
class QPainter;
class QPointF;
class QRectF;

namespace attnlab::ui {

// WCAG 2.x: relative luminance of sRGB, and (L1 + 0.05) / (L2 + 0.05) with L1 the lighter.
double relativeLuminance(const QColor& c);
double contrastRatio(const QColor& a, const QColor& b);
QColor blackOrWhiteOn(const QColor& fill); // whichever of the two contrasts more (always ≥ 4.58:1)
// WCAG's large text: at least 18 pt (24 px), or 14 pt (18.67 px) bold; 3:1 suffices for it.
bool isLargeText(const QFont& font);
double requiredContrast(bool largeText);                      // 4.5 or 3
QColor mixColors(const QColor& a, const QColor& b, double t); // t = 0 gives a, 1 gives b
// `ink` moved towards black or white (whichever `background` is further from) until it reaches `ratio`.
QColor withContrast(const QColor& ink, const QColor& background, double ratio);

struct TextContrast {
    QColor ink;
    QColor background;
    bool large = false;
    QString text; // what was drawn, so a failure names it
};
using ContrastLog = std::vector<TextContrast>;

struct RenderStyle {
    bool dark = false;
    bool highContrast = false;
    QColor text, muted;       // ink on background and on panel
    QColor background, panel; // the surface painted on; plates and cards on it
    QColor frame, grid;       // outlines; faint lines
    QColor same, sameFill;    // "as expected" ink and its tinted fill
    QColor differs, differsFill;
    QColor warning, warningFill;
    QColor info, infoFill;            // views, neutral notices
    QColor moved;                     // axes that trade places
    QColor lineFill, lineText;        // the highlighted source line
    std::shared_ptr<ContrastLog> log; // when set, drawText records every pair it draws

    // `surface` is the role the widget fills its background with (QWidget::backgroundRole()).
    static RenderStyle fromPalette(const QPalette& palette, QPalette::ColorRole surface = QPalette::Window);
    static RenderStyle print(); // dark ink on white paper, whatever the screen's theme
    static QPalette printPalette();

    double target(bool large = false) const;             // 4.5 / 3, or 7 / 4.5 in high contrast
    QColor tint(const QColor& hue, double amount) const; // hue mixed into the background
    QColor inkOn(const QColor& fill) const;              // text when it reads on fill, else black or white
    QColor readable(const QColor& ink, const QColor& fill, bool large = false) const; // withContrast to target

    // Draws with `ink` on `background` (what is under the text) and logs the pair.
    void drawText(QPainter& p, const QRectF& r, int flags, const QString& s, const QColor& ink,
                  const QColor& background) const;
    void drawText(QPainter& p, const QPointF& at, const QString& s, const QColor& ink, const QColor& background) const;
    void note(const QColor& ink, const QColor& background, bool large, const QString& what) const;
};

} // namespace attnlab::ui
