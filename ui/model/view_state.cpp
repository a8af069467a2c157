// The view state's names and its parts of a session file ("guide", the view's "tradeoffs", the lessons' "section").
#include "model/view_state.h"

#include "model/json_fields.h"

#include <QJsonArray>

#include <algorithm>
#include <array>

namespace attnlab::ui {

namespace {

constexpr std::array<const char*, 3> kSectionNames = {"counted", "measured", "trained"};
constexpr std::array<const char*, 5> kDebugSectionNames = {"contract", "bugs", "transfer", "your-code", "class-code"};
constexpr double kLargestStep = 1000; // far beyond any lesson, within int
constexpr int kMostPassed = 1000;

} // namespace

QString tradeoffsSectionName(TradeoffsSection section)
{
    return QString::fromLatin1(kSectionNames[static_cast<std::size_t>(section)]);
}

std::optional<TradeoffsSection> tradeoffsSectionFromName(const QString& name)
{
    for (std::size_t i = 0; i < kSectionNames.size(); ++i)
        if (name == QLatin1String(kSectionNames[i]))
            return static_cast<TradeoffsSection>(i);
    return std::nullopt;
}

QString debugSectionName(DebugSection section)
{
    return QString::fromLatin1(kDebugSectionNames[static_cast<std::size_t>(section)]);
}

std::optional<DebugSection> debugSectionFromName(const QString& name)
{
    for (std::size_t i = 0; i < kDebugSectionNames.size(); ++i)
        if (name == QLatin1String(kDebugSectionNames[i]))
            return static_cast<DebugSection>(i);
    return std::nullopt;
}

QJsonObject guideToJson(const GuideState& g)
{
    QJsonArray passed;
    for (int step : g.passed)
        passed.append(step);
    return QJsonObject{{"lesson", g.lesson}, {"step", g.step}, {"passed", passed}};
}

std::optional<GuideState> guideFromJson(const QJsonObject& o, QString* error)
{
    namespace f = json_fields;
    GuideState g;
    double step = 0;
    if (!f::string(o, "lesson", &g.lesson, error, QString()) ||
        !f::integer(o, "step", 0, kLargestStep, &step, error, 0))
        return std::nullopt;
    g.step = static_cast<int>(step);
    const QJsonValue passed = o.value("passed");
    if (!passed.isUndefined()) {
        if (!passed.isArray() || passed.toArray().size() > kMostPassed) {
            *error =
                QObject::tr("\"passed\" of \"guide\" must be a list of step numbers, not %1.").arg(f::describe(passed));
            return std::nullopt;
        }
        for (const QJsonValue& v : passed.toArray()) {
            const double d = v.toDouble(-1);
            if (!v.isDouble() || d < 0 || d > kLargestStep || d != static_cast<int>(d)) {
                *error = QObject::tr("\"passed\" of \"guide\" holds %1 where a step number (from 0) belongs.")
                             .arg(f::describe(v));
                return std::nullopt;
            }
            if (!g.passed.contains(static_cast<int>(d)))
                g.passed.append(static_cast<int>(d));
        }
        std::sort(g.passed.begin(), g.passed.end());
    }
    return g;
}

} // namespace attnlab::ui
