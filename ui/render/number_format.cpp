#include "render/number_format.h"

#include <QLocale>

#include <array>
#include <cmath>

namespace attnlab::ui {

QString groupedCount(std::int64_t n)
{
    return QLocale(QLocale::English).toString(static_cast<qlonglong>(n));
}

QString shortCount(double n)
{
    static constexpr std::array<const char*, 6> units = {"", " k", " M", " G", " T", " P"};
    std::size_t u = 0;
    while (std::abs(n) >= 1000 && u + 1 < units.size()) {
        n /= 1000;
        ++u;
    }
    if (u == 0)
        return QString::number(n, 'f', 0);
    return QString::number(n, 'f', std::abs(n) >= 100 ? 0 : 1) + QLatin1String(units[u]);
}

QString shortBytes(double bytes)
{
    static constexpr std::array<const char*, 7> units = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB"};
    std::size_t u = 0;
    while (bytes >= 1024 && u + 1 < units.size()) {
        bytes /= 1024;
        ++u;
    }
    if (u == 0)
        return QString::number(bytes, 'f', 0) + QLatin1String(units[u]);
    return QString::number(bytes, 'f', bytes >= 100 ? 0 : 1) + QLatin1String(units[u]);
}

} // namespace attnlab::ui
