#pragma once
// Where the student looks, as one value: the tab, the stage, the head and batch element, the heatmaps' kind, scale and
// keyboard cell, which section of a tab is open, and where they are in the guided lessons. It is saved in session files
// ("view", "guide" and the lessons' "section") but never undone: undo changes the work, not where one looks at it.
// ViewModel (model/view_model.h) holds it for the window, clamped to the trace on screen.
#include "forward/trace.h"
#include "model/view_mode.h"
#include "render/heatmap_source.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace attnlab::ui {

enum class TradeoffsSection { Counted, Measured, Trained };
enum class DebugSection { Contract, Bugs, Transfer, YourCode, ClassCode };

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
    // What of the current step's answer is held back until the teacher reveals it ("divergence", "diagnosis": the
    // step's LessonStep::holds); empty when nothing is. Entering a step, or opening a session at it
    // (LessonsPanel::holdAgain), holds its answer again, so neither is saved.
    QString held;
    bool holdAnswers = true; // whether entering a step with an answer holds it back (the lessons panel's box)
    bool operator==(const GuideState&) const = default;
};

struct ViewState {
    ViewMode tab = ViewMode::Stepper;
    QString stage; // canonical stage name; empty: the first
    int head = 0;
    int batchIndex = 0;
    AttentionMatrix heatmapKind = AttentionMatrix::Weights;
    HeatmapScaleMode heatmapScale = HeatmapScaleMode::Auto;
    HeatmapCell heatmapCell;
    TradeoffsSection tradeoffsSection = TradeoffsSection::Counted;
    DebugSection debugSection = DebugSection::Contract;
    GuideState guide;
    bool presentation = false; // presentation mode (not saved: a projector is not a property of the work)
    bool operator==(const ViewState&) const = default;
};

QString tradeoffsSectionName(TradeoffsSection section); // "counted", "measured", "trained"
std::optional<TradeoffsSection> tradeoffsSectionFromName(const QString& name);
QString debugSectionName(DebugSection section); // "contract", "bugs", "transfer", "your-code", "class-code"
std::optional<DebugSection> debugSectionFromName(const QString& name);

// The "guide" object of a session file; nullopt and *error set to one sentence when it is not one.
QJsonObject guideToJson(const GuideState& guide);
std::optional<GuideState> guideFromJson(const QJsonObject& object, QString* error);

} // namespace attnlab::ui
