#pragma once
// The whole state a student can come back to -- settings (call, batch, tokens, seed, input and
// weights source) and where they were looking (stage, head, batch element, view) -- as a versioned
// `.attnlab.json` file. The JSON is written with sorted keys, so the same state always gives the same
// bytes; a bad, truncated or newer file is refused with one sentence and nothing is changed.
#include "forward/experiment.h"
#include "model/session.h"
#include "model/sweep_results.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace attnlab::ui {

// Version 2 adds "lessons" (the Debugging tab's choices); version 3 the heatmaps' colour scale and the
// trade-offs section (in "view"), the guided lessons' place and progress ("guide") and the recording
// compared with the book ("comparison"). Older files open with those parts' defaults.
inline constexpr int kSessionFormatVersion = 3;
inline constexpr const char* kSessionFormatName = "attention-lab-session";
inline constexpr const char* kSessionFileSuffix = ".attnlab.json";

struct SessionState {
    ExperimentSpec spec;
    QString callText;
    bool bookInput = false;
    QString stage; // canonical stage name; empty: the first
    int head = 0;
    int batchIndex = 0;
    ViewMode view = ViewMode::Stepper;
    AttentionMatrix heatmapKind = AttentionMatrix::Weights;
    HeatmapScaleMode heatmapScale = HeatmapScaleMode::Auto;
    TradeoffsSection tradeoffsSection = TradeoffsSection::Counted;
    LessonState lessons;
    GuideState guide;
    QString comparedRecording;         // Compare With My Code's file; empty: none
    std::int64_t comparedNumHeads = 0; // the num_heads given for it; 0: the recording's own
    ElementSelection selection;        // the element followed; empty: none
    PredictState predict;              // Predict First and its tally
    std::optional<SweepResults> sweep; // the sweep trained in the Trade-offs tab: curves and table, no weights
    QString checkpoint;                // the opened GPT-2 checkpoint the text goes through, opened again; empty: none
};

SessionState captureState(const Session& session);
// Settings at once (one recomputation); stage, head and batch element as soon as the trace holds them;
// a compared recording is read again (a file that is gone says so in Debugging > Your code).
void applyState(Session& session, const SessionState& state);

QJsonObject sessionToJson(const SessionState& state);
// nullopt and *error set to one sentence when the object is not a session this version can read.
std::optional<SessionState> sessionFromJson(const QJsonObject& object, QString* error);

QByteArray serializeSession(const SessionState& state); // deterministic, indented, ends with a newline
std::optional<SessionState> parseSession(const QByteArray& bytes, QString* error);

// Atomic (core/io/atomic_file.h): either the whole new file is there or the old one is untouched; a path
// holding a device, FIFO, link or folder is refused.
bool saveSessionFile(const QString& path, const SessionState& state, QString* error);
std::optional<SessionState> loadSessionFile(const QString& path, QString* error);

QString viewModeName(ViewMode view); // the tab's id in the page registry: "stepper", "heatmaps", ...
std::optional<ViewMode> viewModeFromName(const QString& name);

} // namespace attnlab::ui
