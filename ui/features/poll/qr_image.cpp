#include "features/poll/qr_image.h"

#include <qrencode.h>

#include <memory>

namespace attnlab::ui {

QImage qrImage(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    // Medium error correction: a projected code loses a few modules to glare and keystone.
    std::unique_ptr<QRcode, void (*)(QRcode*)> code(
        QRcode_encodeString(utf8.constData(), 0, QR_ECLEVEL_M, QR_MODE_8, 1), QRcode_free);
    if (!code)
        return {};
    constexpr int kQuiet = 4;
    const int side = code->width + 2 * kQuiet;
    QImage image(side, side, QImage::Format_Grayscale8);
    image.fill(255);
    for (int y = 0; y < code->width; ++y)
        for (int x = 0; x < code->width; ++x)
            if (code->data[y * code->width + x] & 1)
                image.setPixel(x + kQuiet, y + kQuiet, qRgb(0, 0, 0));
    return image;
}

} // namespace attnlab::ui
