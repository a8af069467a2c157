#include "features/poll/poll_request.h"

#include "text/utf8.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace attnlab::ui {

namespace {

std::optional<QString> text(const QJsonObject& o, const char* key, int most, bool needed, QString* error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && !needed)
        return QString();
    if (!v.isString()) {
        *error = QStringLiteral("The answer needs \"%1\" as text.").arg(QLatin1String(key));
        return std::nullopt;
    }
    if (v.toString().size() > most) {
        *error = QStringLiteral("The answer's \"%1\" is longer than %2 characters.").arg(QLatin1String(key)).arg(most);
        return std::nullopt;
    }
    return v.toString();
}

} // namespace

bool isDeviceId(const QString& device)
{
    if (device.size() < 8 || device.size() > 64)
        return false;
    for (QChar c : device)
        if (!(c.isDigit() || (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || c == u'-' || c == u'_') ||
            c.unicode() > 127)
            return false;
    return true;
}

std::optional<AnswerRequest> readAnswerRequest(const QByteArray& body, QString* error)
{
    if (body.size() > kMostAnswerBytes) {
        *error =
            QStringLiteral("An answer is at most %1 bytes; this one has %2.").arg(kMostAnswerBytes).arg(body.size());
        return std::nullopt;
    }
    if (first_utf8_problem(std::string_view(body.constData(), static_cast<std::size_t>(body.size())))) {
        *error = QStringLiteral("The answer is not UTF-8 text.");
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("The answer is not a JSON object.");
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    AnswerRequest r;
    const auto question = text(o, "question", 200, true, error);
    const auto device = text(o, "device", 64, true, error);
    const auto name = question && device ? text(o, "name", kMostNameChars, false, error) : std::nullopt;
    if (!question || !device || !name)
        return std::nullopt;
    if (!isDeviceId(*device)) {
        *error = QStringLiteral("The device id is 8 to 64 letters, digits, '-' or '_'.");
        return std::nullopt;
    }
    const QJsonValue round = o.value(QLatin1String("round"));
    const double n = round.toDouble(-1);
    if (!round.isDouble() || n < 1 || n > 99 || n != static_cast<double>(static_cast<int>(n))) { // range first: no UB
        *error = QStringLiteral("The answer needs \"round\" as a whole number from 1 to 99.");
        return std::nullopt;
    }
    const QJsonValue answers = o.value(QLatin1String("answers"));
    if (!answers.isObject() || answers.toObject().size() > kMostAnswerFields) {
        *error = QStringLiteral("The answer needs \"answers\": an object of at most %1 fields.").arg(kMostAnswerFields);
        return std::nullopt;
    }
    const QJsonObject values = answers.toObject();
    for (auto it = values.begin(); it != values.end(); ++it) {
        if (!it.value().isString() || it.value().toString().size() > kMostValueChars || it.key().size() > 64) {
            *error = QStringLiteral("Each answer is text of at most %1 characters.").arg(kMostValueChars);
            return std::nullopt;
        }
        r.values[it.key().toStdString()] = it.value().toString().toStdString();
    }
    r.question = *question;
    r.device = *device;
    r.name = name->simplified();
    r.round = static_cast<int>(n);
    return r;
}

QJsonObject questionJson(const poll::Question& question, int round)
{
    QJsonArray fields;
    for (const poll::Field& f : question.fields) {
        QJsonObject field{{"name", QString::fromStdString(f.name)},
                          {"label", QString::fromStdString(f.label)},
                          {"kind", QString::fromUtf8(poll::kind_name(f.kind))}};
        if (f.kind == poll::FieldKind::Size) {
            QJsonArray names;
            for (const auto& [name, size] : f.names)
                names.append(QString::fromStdString(name));
            field.insert("names", names);
        } else if (f.kind == poll::FieldKind::Choice) {
            QJsonArray choices;
            for (const std::string& c : f.choices)
                choices.append(QString::fromStdString(c));
            field.insert("choices", choices);
        } else if (f.kind == poll::FieldKind::Cells) {
            field.insert("grid", static_cast<double>(f.grid));
        }
        fields.append(field);
    }
    return {{"id", QString::fromStdString(question.id)},
            {"round", round},
            {"prompt", QString::fromStdString(question.prompt)},
            {"context", QString::fromStdString(question.context)},
            {"fields", fields}};
}

QByteArray refusalJson(const QString& sentence)
{
    return QJsonDocument(QJsonObject{{"error", sentence}}).toJson(QJsonDocument::Compact);
}

} // namespace attnlab::ui
