#pragma once
// The join address as a QR code a phone's camera reads from the back of a lecture hall: libqrencode's modules
// drawn one pixel each (scaled without smoothing where shown), with the four-module quiet zone readers need.
#include <QImage>
#include <QString>

namespace attnlab::ui {

// Dark modules black on white whatever the theme (cameras read dark on light); a null image when the text
// does not fit a QR code.
QImage qrImage(const QString& text);

} // namespace attnlab::ui
