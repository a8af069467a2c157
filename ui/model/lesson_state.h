#pragma once
// The Debugging tab's choices -- the injected bug, the weight-transfer lines as the student writes them, the call
// pasted into the contract lesson and the input it is checked against. They are part of the document: session files
// save them and undo covers them like any settings edit; which section of the tab is open is view state.
#include "lessons/bugs.h"
#include "lessons/transfer.h"
#include "model/view_state.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace attnlab::ui {

// The transfer lesson's weights: SelfAttention_v2 initialised from this seed, copied into a SelfAttention_v1.
inline constexpr std::uint64_t kTransferSeed = 123;
// The same lines on a GPT-2 checkpoint's c_attn, at GPT-2 small's embedding width.
inline constexpr std::int64_t kTransferGpt2Width = 768;

struct LessonState {
    Bug bug = Bug::SkipHeadTranspose;
    TransferSpec transfer;               // widths and the three assignments, as the boxes say
    std::optional<QString> contractCall; // what the student pasted; nullopt: the session's own call
    // The input the contract is checked against, as the student set it; nullopt: the session's d_in / tokens.
    std::optional<std::int64_t> contractDIn, contractTokens;
    bool operator==(const LessonState&) const = default;
};

// The "lessons" object of a session file, which also names the open section; nullopt and *error set to one sentence
// when it is not one.
QJsonObject lessonsToJson(const LessonState& state, DebugSection section);
std::optional<LessonState> lessonsFromJson(const QJsonObject& object, DebugSection* section, QString* error);

} // namespace attnlab::ui
