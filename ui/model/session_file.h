#pragma once
// The whole state a student can come back to -- the document (settings, the lessons' choices, the followed element),
// where they were looking (the view state), Predict First's tally, the opened checkpoint and each feature's part -- as
// a versioned `.attnlab.json` file. The JSON is written with sorted keys, so the same state always gives the same
// bytes; a bad, truncated or newer file is refused with one sentence and nothing is changed. Capturing it from the
// window and applying it is features/session_state.h's, which knows the features.
#include "model/document.h"
#include "model/view_state.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace attnlab::ui {

// Version 2 adds "lessons" (the Debugging tab's choices); version 3 the heatmaps' colour scale and the
// trade-offs section (in "view"), the guided lessons' place and progress ("guide") and the features' parts
// ("comparison", "sweep"). Older files open with those parts' defaults.
inline constexpr int kSessionFormatVersion = 3;
inline constexpr const char* kSessionFormatName = "attention-lab-session";
inline constexpr const char* kSessionFileSuffix = ".attnlab.json";

struct SessionState {
    Document document;
    ViewState view;
    PredictState predict; // Predict First and its tally
    QString checkpoint;   // the opened GPT-2 checkpoint the text goes through, opened again; empty: none
    // The features' parts, as the file's top-level keys they own ("sweep", "comparison"), each already checked by its
    // feature; absent when a feature keeps nothing.
    QJsonObject features;
};

// A feature's part of the file: its top-level key, and the check that reads it without applying anything (one sentence
// in *error when it cannot be read).
struct SessionSection {
    const char* key;
    bool (*check)(const QJsonObject& file, QString* error);
};

// What the format needs of the features, which the model does not know: the tabs' ids ("view"'s "tab", by ViewMode)
// and their parts. The registry gives it (features/session_state.h: sessionFeatures()).
struct SessionFeatures {
    QStringList tabs;
    std::vector<SessionSection> sections;
};

QJsonObject sessionToJson(const SessionState& state, const SessionFeatures& features);
// nullopt and *error set to one sentence when the object is not a session this version can read.
std::optional<SessionState> sessionFromJson(const QJsonObject& object, const SessionFeatures& features, QString* error);

// Deterministic, indented, ends with a newline.
QByteArray serializeSession(const SessionState& state, const SessionFeatures& features);
std::optional<SessionState> parseSession(const QByteArray& bytes, const SessionFeatures& features, QString* error);

// Atomic (core/io/atomic_file.h): either the whole new file is there or the old one is untouched; a path
// holding a device, FIFO, link or folder is refused.
bool saveSessionFile(const QString& path, const SessionState& state, const SessionFeatures& features, QString* error);
std::optional<SessionState> loadSessionFile(const QString& path, const SessionFeatures& features, QString* error);

} // namespace attnlab::ui
