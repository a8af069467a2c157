#pragma once
// Screen tests run on Qt's offscreen platform with screens of the sizes classrooms have, side by side.
// The platform reads its screens from a file when it starts, so main() writes it before QApplication.
#include <QList>
#include <QSize>
#include <QString>

class QScreen;

namespace testing {

QString screenSizeName(QSize s);   // "1280x720"
QScreen* screenOfSize(QSize size); // the configured screen of that size, null when there is none

// Writes the offscreen platform's configuration for `sizes` (named by screenSizeName, left to right) to a
// temporary file named after `stem` and points QT_QPA_PLATFORM at it. Returns the file, to remove once the
// application has started; empty when it could not be written.
QString useOffscreenScreens(const QList<QSize>& sizes, const QString& stem);

// The look gui_main sets up, Fusion and 16 px DejaVu Sans, so sizes are the app's; after QApplication.
void useAppLook();

} // namespace testing
