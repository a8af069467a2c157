#include "features/poll/poll_results_json.h"

#include "tensor/error.h"

#include <QJsonArray>

#include <algorithm>

namespace attnlab::ui {

namespace {

constexpr int kMostQuestions = 500, kMostFields = 16, kMostRounds = 99, kMostChoices = 8, kMostNames = 32;
constexpr int kLongestText = 2000;

QString text(const std::string& s)
{
    return QString::fromStdString(s);
}

QJsonObject fieldToJson(const poll::Field& f)
{
    QJsonObject o{{"name", text(f.name)},
                  {"label", text(f.label)},
                  {"kind", QString::fromUtf8(poll::kind_name(f.kind))},
                  {"right", text(f.right)}};
    if (!f.choices.empty()) {
        QJsonArray choices;
        for (const std::string& c : f.choices)
            choices.append(text(c));
        o.insert("choices", choices);
    }
    if (!f.names.empty()) {
        QJsonObject names;
        for (const auto& [name, size] : f.names)
            names.insert(text(name), static_cast<double>(size));
        o.insert("names", names);
    }
    if (f.grid > 0)
        o.insert("grid", static_cast<double>(f.grid));
    if (!f.also_right.empty()) {
        QJsonArray also;
        for (const std::string& a : f.also_right)
            also.append(text(a));
        o.insert("also_right", also);
    }
    if (!f.explanation.empty())
        o.insert("explanation", text(f.explanation));
    return o;
}

// Throws Error naming what is wrong; `where` says which question.
std::string readText(const QJsonObject& o, const char* key, bool needed, const std::string& where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && !needed)
        return {};
    if (!v.isString() || v.toString().size() > kLongestText)
        throw Error(where + " needs \"" + key + "\" as text of at most " + std::to_string(kLongestText) +
                    " characters.");
    return v.toString().toStdString();
}

std::vector<std::string> readTexts(const QJsonObject& o, const char* key, int most, const std::string& where)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        return {};
    if (!v.isArray() || v.toArray().size() > most)
        throw Error(where + " needs \"" + key + "\" as a list of at most " + std::to_string(most) + " texts.");
    std::vector<std::string> out;
    for (const QJsonValue& item : v.toArray()) {
        if (!item.isString() || item.toString().size() > kLongestText)
            throw Error(where + " has a \"" + key + "\" entry that is not text.");
        out.push_back(item.toString().toStdString());
    }
    return out;
}

// The app names fields and axes as identifiers ("axis-0", "num_heads"); anything else in a file was not written by
// it, and would be quoted in the refusals of every answer the field reads.
bool isPlainName(const QString& name)
{
    if (name.isEmpty() || name.size() > 64)
        return false;
    for (const QChar c : name)
        if (!(c.isLetterOrNumber() && c.unicode() < 0x80) && c != QLatin1Char('_') && c != QLatin1Char('-'))
            return false;
    return true;
}

poll::Field fieldFromJson(const QJsonValue& value, const std::string& where)
{
    if (!value.isObject())
        throw Error(where + " has a field that is not an object.");
    const QJsonObject o = value.toObject();
    poll::Field f;
    f.name = readText(o, "name", true, where);
    if (!isPlainName(QString::fromStdString(f.name)))
        throw Error(where + " has a field whose name is not 1 to 64 letters, digits, _ or -.");
    f.label = readText(o, "label", true, where);
    f.right = readText(o, "right", true, where);
    f.explanation = readText(o, "explanation", false, where);
    const std::string kind = readText(o, "kind", true, where);
    bool known = false;
    for (auto k : {poll::FieldKind::Size, poll::FieldKind::YesNo, poll::FieldKind::Choice, poll::FieldKind::Cells})
        if (poll::kind_name(k) == kind) {
            f.kind = k;
            known = true;
        }
    if (!known)
        throw Error(where + " has a field of kind " + poll::quoted(kind) +
                    "; the kinds are size, yes-no, choice and cells.");
    f.choices = readTexts(o, "choices", kMostChoices, where);
    f.also_right = readTexts(o, "also_right", kMostChoices, where);
    const QJsonValue names = o.value(QLatin1String("names"));
    if (!names.isUndefined()) {
        if (!names.isObject() || names.toObject().size() > kMostNames)
            throw Error(where + " needs \"names\" as an object of at most " + std::to_string(kMostNames) + " sizes.");
        const QJsonObject n = names.toObject();
        for (auto it = n.begin(); it != n.end(); ++it) {
            if (!isPlainName(it.key()))
                throw Error(where + " has an axis name that is not 1 to 64 letters, digits, _ or -.");
            const double size = it.value().toDouble(-1);
            if (!it.value().isDouble() || size < 1 || size > 1e12 ||
                size != static_cast<double>(static_cast<std::int64_t>(size)))
                throw Error(where + " gives the axis name " + poll::quoted(it.key().toStdString()) +
                            " a size that is not a whole number from 1.");
            f.names[it.key().toStdString()] = static_cast<std::int64_t>(size);
        }
    }
    const QJsonValue grid = o.value(QLatin1String("grid"));
    if (!grid.isUndefined()) {
        const double g = grid.toDouble(-1);
        if (!grid.isDouble() || g < 1 || g > 8 || g != static_cast<double>(static_cast<int>(g)))
            throw Error(where + " needs \"grid\" as a whole number from 1 to 8.");
        f.grid = static_cast<std::int64_t>(g);
    }
    if ((f.kind == poll::FieldKind::Choice) != !f.choices.empty() ||
        (f.kind == poll::FieldKind::Cells) != (f.grid > 0) || (f.kind != poll::FieldKind::Size && !f.names.empty()) ||
        (f.kind != poll::FieldKind::Choice && !f.also_right.empty()))
        throw Error(where + " has a " + kind + " field with parts another kind has.");
    return f;
}

} // namespace

QJsonObject resultsToJson(const std::vector<poll::Tally>& asked)
{
    QJsonArray questions;
    for (const poll::Tally& t : asked) {
        QJsonArray fields;
        for (const poll::Field& f : t.question().fields)
            fields.append(fieldToJson(f));
        QJsonArray rounds;
        for (int round = 1; round <= t.round(); ++round) {
            QJsonArray answers;
            for (const auto& [device, answer] : t.answers(round)) {
                QJsonObject a;
                for (const auto& [field, value] : answer)
                    a.insert(text(field), text(value));
                answers.append(a);
            }
            rounds.append(answers);
        }
        questions.append(QJsonObject{
            {"question",
             QJsonObject{{"id", text(t.question().id)}, {"prompt", text(t.question().prompt)}, {"fields", fields}}},
            {"rounds", rounds}});
    }
    return {{"asked", questions}};
}

std::optional<std::vector<poll::Tally>> resultsFromJson(const QJsonObject& object, QString* error)
{
    try {
        const QJsonValue asked = object.value(QLatin1String("asked"));
        if (!asked.isArray() || asked.toArray().size() > kMostQuestions)
            throw Error("The class's results need \"asked\" as a list of at most " + std::to_string(kMostQuestions) +
                        " questions.");
        std::vector<poll::Tally> out;
        int index = 0;
        for (const QJsonValue& entry : asked.toArray()) {
            const std::string where = "Question " + std::to_string(++index) + " of the class's results";
            const QJsonObject o = entry.toObject();
            const QJsonObject q = o.value(QLatin1String("question")).toObject();
            poll::Question question;
            question.id = readText(q, "id", true, where);
            question.prompt = readText(q, "prompt", true, where);
            const QJsonValue fields = q.value(QLatin1String("fields"));
            if (!fields.isArray() || fields.toArray().isEmpty() || fields.toArray().size() > kMostFields)
                throw Error(where + " needs 1 to " + std::to_string(kMostFields) + " fields.");
            for (const QJsonValue& f : fields.toArray())
                question.fields.push_back(fieldFromJson(f, where));
            poll::Answer right;
            for (const poll::Field& f : question.fields)
                if (!right.emplace(f.name, f.right).second)
                    throw Error(where + " names the field " + poll::quoted(f.name) + " twice.");
            if (poll::read_answer(question, right) != right) // its right answers read as the fields take them
                throw Error(where + " has right answers its fields do not take as written.");
            const QJsonValue rounds = o.value(QLatin1String("rounds"));
            if (!rounds.isArray() || rounds.toArray().isEmpty() || rounds.toArray().size() > kMostRounds)
                throw Error(where + " needs 1 to " + std::to_string(kMostRounds) + " rounds.");
            poll::Tally tally(question);
            int round = 0;
            for (const QJsonValue& answers : rounds.toArray()) {
                if (++round > 1)
                    tally.next_round();
                if (!answers.isArray() || answers.toArray().size() > static_cast<qsizetype>(poll::Tally::kMostDevices))
                    throw Error(where + " needs each round as a list of at most " +
                                std::to_string(poll::Tally::kMostDevices) + " answers.");
                int device = 0;
                for (const QJsonValue& a : answers.toArray()) {
                    poll::Answer answer;
                    const QJsonObject values = a.toObject();
                    for (auto it = values.begin(); it != values.end(); ++it) {
                        if (!it.value().isString())
                            throw Error(where + " has an answer that is not text.");
                        answer[it.key().toStdString()] = it.value().toString().toStdString();
                    }
                    // The devices' ids are not kept: numbered again, in the order written (which is their order).
                    std::string id = std::to_string(device++);
                    id = "saved-" + std::string(4 - std::min<std::size_t>(4, id.size()), '0').append(id);
                    if (tally.record(id, round, answer) != answer)
                        throw Error(where + " has an answer not written as the app writes it.");
                }
            }
            out.push_back(std::move(tally));
        }
        return out;
    } catch (const Error& e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
}

} // namespace attnlab::ui
