#pragma once
// The monospaced type code is shown in, at the window's type size: presentation mode and zoom grow the
// application font, and code set in a fixed pixel size stayed at desktop size on the projector.
#include <QFont>

class QWidget;

namespace attnlab::ui {

// DejaVu Sans Mono at `relative` times the application font's pixel size, at least `floorPx` (and 9) px.
QFont codeFont(double relative = 1.0, int floorPx = 9);
// Gives `widget` codeFont(relative, floorPx) now and again whenever the application font changes.
void useCodeFont(QWidget* widget, double relative = 1.0, int floorPx = 9);

} // namespace attnlab::ui
