#include "model/json_fields.h"

#include "text/utf8.h"

#include <QJsonArray>

#include <cmath>

namespace attnlab::ui::json_fields {

namespace {

// Present and of the right kind: true. Absent or wrong: false, with *error naming the key.
bool present(const QJsonObject& o, const char* key, const QString& mustBe, bool rightKind, QString* error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        *error = QObject::tr("\"%1\" is missing; it must be %2.").arg(QLatin1String(key), mustBe);
    else if (!rightKind)
        *error = QObject::tr("\"%1\" must be %2, not %3.").arg(QLatin1String(key), mustBe, describe(v));
    return !v.isUndefined() && rightKind;
}

} // namespace

QString describe(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QObject::tr("the number %1").arg(QString::number(v.toDouble(), 'g', 15));
    case QJsonValue::String: {
        // Cut (a 100,000-character value would drown the sentence) and with control characters escaped
        // (a newline would break it in two).
        const QString s = QString::fromStdString(printable(v.toString().toStdString(), 40));
        return QObject::tr("the string \"%1\"").arg(s);
    }
    case QJsonValue::Array: return QObject::tr("an array of %1 elements").arg(v.toArray().size());
    case QJsonValue::Object: return QObject::tr("an object");
    case QJsonValue::Undefined: break;
    }
    return QObject::tr("nothing");
}

bool object(const QJsonObject& o, const char* key, QJsonObject* out, QString* error)
{
    if (!present(o, key, QObject::tr("an object"), o.value(QLatin1String(key)).isObject(), error))
        return false;
    *out = o.value(QLatin1String(key)).toObject();
    return true;
}

bool integer(const QJsonObject& o, const char* key, double lo, double hi, double* out, QString* error,
             std::optional<double> fallback)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && fallback) {
        *out = *fallback;
        return true;
    }
    const double d = v.toDouble(std::nan(""));
    const bool whole = v.isDouble() && std::isfinite(d) && d == std::floor(d) && d >= lo && d <= hi;
    const QString mustBe =
        QObject::tr("a whole number from %1 to %2").arg(QString::number(lo, 'f', 0), QString::number(hi, 'f', 0));
    if (!present(o, key, mustBe, whole, error))
        return false;
    *out = d;
    return true;
}

bool string(const QJsonObject& o, const char* key, QString* out, QString* error, std::optional<QString> fallback)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && fallback) {
        *out = *fallback;
        return true;
    }
    if (!present(o, key, QObject::tr("a string"), v.isString(), error))
        return false;
    *out = v.toString();
    return true;
}

bool boolean(const QJsonObject& o, const char* key, bool* out, QString* error, std::optional<bool> fallback)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && fallback) {
        *out = *fallback;
        return true;
    }
    if (!present(o, key, QObject::tr("true or false"), v.isBool(), error))
        return false;
    *out = v.toBool();
    return true;
}

} // namespace attnlab::ui::json_fields
