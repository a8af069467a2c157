#pragma once
// Choices that pages show but the Session owns, so lessons, session files and tests reach them without
// reaching into a widget: which section of the trade-offs tab is open, and where the student is in the
// guided lessons and which steps they have passed.
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace attnlab::ui {

enum class TradeoffsSection { Counted, Measured, Trained };

// The heatmaps' keyboard cell: one query row and key column, the same in every head's matrix.
struct HeatmapCell {
    int query = 0;
    int key = 0;
    bool operator==(const HeatmapCell&) const = default;
};

struct GuideState {
    QString lesson;    // the lesson's id (lessons.h); empty: none chosen yet
    int step = 0;      // from 0
    QList<int> passed; // steps whose check passed, ascending
    bool operator==(const GuideState&) const = default;
};

QString tradeoffsSectionName(TradeoffsSection section); // "counted", "measured", "trained"
std::optional<TradeoffsSection> tradeoffsSectionFromName(const QString& name);

// The "guide" object of a session file; nullopt and *error set to one sentence when it is not one.
QJsonObject guideToJson(const GuideState& guide);
std::optional<GuideState> guideFromJson(const QJsonObject& object, QString* error);

} // namespace attnlab::ui
