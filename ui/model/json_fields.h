#pragma once
// Typed reads of one field of a JSON object, each refusing with one sentence that names the key,
// says what it must be and what it holds instead -- so a session file's missing keys, wrong types
// and out-of-range numbers all read the same way. Optional fields take a fallback when absent (but
// are still refused when present with the wrong type).
#include <QJsonObject>
#include <QString>

#include <optional>

namespace attnlab::ui::json_fields {

// "the string \"abc\"", "the number 1e+400", "an array of 30000 elements", "null", ...: what a value is.
QString describe(const QJsonValue& value);

bool object(const QJsonObject& o, const char* key, QJsonObject* out, QString* error);
// A whole number in [lo, hi] (JSON numbers are doubles: hi at most 2^53 keeps every digit).
bool integer(const QJsonObject& o, const char* key, double lo, double hi, double* out, QString* error,
             std::optional<double> fallback = std::nullopt);
bool string(const QJsonObject& o, const char* key, QString* out, QString* error,
            std::optional<QString> fallback = std::nullopt);
bool boolean(const QJsonObject& o, const char* key, bool* out, QString* error, std::optional<bool> fallback);

} // namespace attnlab::ui::json_fields
