#include "model/study_state.h"

#include "model/json_fields.h"

#include <QJsonArray>
#include <QObject>

namespace attnlab::ui {

namespace {

constexpr double kLargestIndex = 1 << 30; // more than any axis the app can hold
constexpr int kMostAxes = 8;
constexpr int kMostAnswers = 10000;

} // namespace

int PredictState::right() const
{
    int n = 0;
    for (bool r : answers)
        n += r;
    return n;
}

QJsonObject selectionToJson(const ElementSelection& s)
{
    QJsonArray index;
    for (qint64 i : s.index)
        index.append(static_cast<double>(i));
    return {{"stage", s.stage}, {"index", index}};
}

std::optional<ElementSelection> selectionFromJson(const QJsonObject& o, QString* error)
{
    namespace f = json_fields;
    ElementSelection s;
    if (!f::string(o, "stage", &s.stage, error))
        return std::nullopt;
    const QJsonValue index = o.value("index");
    if (!index.isArray() || index.toArray().size() > kMostAxes) {
        *error = QObject::tr("\"index\" of \"selection\" must be an array of at most %1 whole numbers, not %2.")
                     .arg(kMostAxes)
                     .arg(f::describe(index));
        return std::nullopt;
    }
    for (const QJsonValue& v : index.toArray()) {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 0 || d > kLargestIndex || d != static_cast<double>(static_cast<qint64>(d))) {
            *error =
                QObject::tr("\"index\" of \"selection\" must hold whole numbers from 0, not %1.").arg(f::describe(v));
            return std::nullopt;
        }
        s.index.append(static_cast<qint64>(d));
    }
    return s;
}

QJsonObject predictToJson(const PredictState& p)
{
    QJsonObject answers;
    for (auto it = p.answers.begin(); it != p.answers.end(); ++it)
        answers.insert(it.key(), it.value());
    return {{"on", p.on}, {"answers", answers}};
}

std::optional<PredictState> predictFromJson(const QJsonObject& o, QString* error)
{
    namespace f = json_fields;
    PredictState p;
    QJsonObject answers;
    if (!f::boolean(o, "on", &p.on, error, false))
        return std::nullopt;
    if (o.contains("answers") && !f::object(o, "answers", &answers, error))
        return std::nullopt;
    if (answers.size() > kMostAnswers) {
        *error = QObject::tr("\"answers\" of \"predict\" holds %1 answers; at most %2 are kept.")
                     .arg(answers.size())
                     .arg(kMostAnswers);
        return std::nullopt;
    }
    for (auto it = answers.begin(); it != answers.end(); ++it) {
        if (!it.value().isBool()) {
            *error = QObject::tr("each answer in \"predict\" must be true or false, not %1 for %2.")
                         .arg(f::describe(it.value()), it.key());
            return std::nullopt;
        }
        p.answers.insert(it.key(), it.value().toBool());
    }
    return p;
}

} // namespace attnlab::ui
