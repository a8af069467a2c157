#pragma once
// The window's room on the screens classrooms have: a 1280×720 projector, a 1366×768 laptop, a
// 1920×1080 monitor. The app is designed at 1600×1000; on a smaller screen it opens as large as the
// screen's available geometry allows (no further than the panels and docks of the desktop), centred.
// Pure functions of the geometry, so the tests can check the arithmetic for any screen.
#include <QMargins>
#include <QRect>
#include <QSize>

class QWidget;

namespace attnlab::ui {

inline constexpr QSize kDesignedWindowSize{1600, 1000};

// The client geometry for a window that wants `preferred` on a screen whose available geometry is
// `available`, with `frame` the window manager's decorations around it: as large as preferred, no
// larger than the available room less the frame, centred in it.
QRect fittedWindowGeometry(QSize preferred, const QRect& available, const QMargins& frame = {});

// `geometry` (a remembered one, perhaps from a larger monitor) moved and shrunk into `available`.
QRect keptWithin(const QRect& geometry, const QRect& available, const QMargins& frame = {});

// Sizes `window` for the screen it is on (the primary one before it is shown).
void fitToScreen(QWidget* window, QSize preferred = kDesignedWindowSize);
// Moves and shrinks `window` into its screen's available geometry if it reaches past it.
void keepOnScreen(QWidget* window);

} // namespace attnlab::ui
