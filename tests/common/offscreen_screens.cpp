#include "common/offscreen_screens.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFont>
#include <QScreen>
#include <QStyleFactory>

namespace testing {

QString screenSizeName(QSize s)
{
    return QStringLiteral("%1x%2").arg(s.width()).arg(s.height());
}

QScreen* screenOfSize(QSize size)
{
    for (QScreen* s : QGuiApplication::screens())
        if (s->geometry().size() == size)
            return s;
    return nullptr;
}

QString useOffscreenScreens(const QList<QSize>& sizes, const QString& stem)
{
    const QString config =
        QDir::temp().filePath(QStringLiteral("%1-%2.json").arg(stem).arg(QCoreApplication::applicationPid()));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    QByteArray screens;
    int x = 0;
    for (QSize s : sizes) {
        screens += QStringLiteral("%1{\"name\": \"%2\", \"x\": %3, \"y\": 0, \"width\": %4, \"height\": %5, "
                                  "\"logicalDpi\": 96, \"logicalBaseDpi\": 96, \"dpr\": 1}")
                       .arg(screens.isEmpty() ? "" : ", ", screenSizeName(s))
                       .arg(x)
                       .arg(s.width())
                       .arg(s.height())
                       .toUtf8();
        x += s.width();
    }
    f.write("{\"screens\": [" + screens + "]}");
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toUtf8());
    return config;
}

void useAppLook()
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(16);
    QApplication::setFont(font);
}

} // namespace testing
