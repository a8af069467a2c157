// The lesson state's names and its part of a session file ("lessons", format version 2).
#include "model/lesson_state.h"

#include "model/json_fields.h"

#include <exception>

namespace attnlab::ui {

namespace {

constexpr std::int64_t kLargestTransferWidth = 4096;
constexpr double kLargestContractInput = 1 << 20; // the spin boxes' range is far below

} // namespace

QJsonObject lessonsToJson(const LessonState& s, DebugSection section)
{
    QJsonObject transfer{{"d_in", static_cast<double>(s.transfer.d_in)},
                         {"d_out", static_cast<double>(s.transfer.d_out)}};
    for (TransferRole role : {TransferRole::Query, TransferRole::Key, TransferRole::Value})
        transfer.insert(
            QString::fromStdString(role_name(role)),
            QJsonObject{{"written", s.transfer.line(role).written}, {"transpose", s.transfer.line(role).transpose}});
    QJsonObject o{{"section", debugSectionName(section)},
                  {"bug", QString::fromStdString(bug_info(s.bug).name)},
                  {"transfer", transfer}};
    if (s.contractCall)
        o.insert("contract_call", *s.contractCall);
    if (s.contractDIn)
        o.insert("contract_d_in", static_cast<double>(*s.contractDIn));
    if (s.contractTokens)
        o.insert("contract_tokens", static_cast<double>(*s.contractTokens));
    return o;
}

std::optional<LessonState> lessonsFromJson(const QJsonObject& o, DebugSection* openSection, QString* error)
{
    namespace f = json_fields;
    LessonState s;
    QString section, bug;
    QJsonObject transfer;
    double d_in = 0, d_out = 0;
    if (!f::string(o, "section", &section, error) || !f::string(o, "bug", &bug, error) ||
        !f::object(o, "transfer", &transfer, error) ||
        !f::integer(transfer, "d_in", 1, kLargestTransferWidth, &d_in, error) ||
        !f::integer(transfer, "d_out", 1, kLargestTransferWidth, &d_out, error))
        return std::nullopt;
    const auto sec = debugSectionFromName(section);
    if (!sec) {
        *error =
            QObject::tr("\"section\" of \"lessons\" must be contract, bugs, transfer, your-code or class-code, not %1.")
                .arg(f::describe(section));
        return std::nullopt;
    }
    *openSection = *sec;
    try {
        s.bug = bug_from_name(bug.toStdString());
    } catch (const std::exception& e) {
        *error = QObject::tr("\"bug\" of \"lessons\": %1").arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    s.transfer.d_in = static_cast<std::int64_t>(d_in);
    s.transfer.d_out = static_cast<std::int64_t>(d_out);
    for (TransferRole role : {TransferRole::Query, TransferRole::Key, TransferRole::Value}) {
        const std::string name = role_name(role);
        QJsonObject line;
        if (!f::object(transfer, name.c_str(), &line, error) ||
            !f::boolean(line, "written", &s.transfer.line(role).written, error, std::nullopt) ||
            !f::boolean(line, "transpose", &s.transfer.line(role).transpose, error, std::nullopt))
            return std::nullopt;
    }
    if (o.contains("contract_call")) {
        QString call;
        if (!f::string(o, "contract_call", &call, error))
            return std::nullopt;
        s.contractCall = call;
    }
    for (auto [key, out] :
         {std::pair{"contract_d_in", &s.contractDIn}, std::pair{"contract_tokens", &s.contractTokens}})
        if (o.contains(key)) {
            double v = 0;
            if (!f::integer(o, key, 1, kLargestContractInput, &v, error))
                return std::nullopt;
            *out = static_cast<std::int64_t>(v);
        }
    return s;
}

} // namespace attnlab::ui
