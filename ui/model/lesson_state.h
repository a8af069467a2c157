#pragma once
// The Debugging tab's choices -- which lesson section is open, the injected bug, the weight-transfer
// lines as the student writes them, the call pasted into the contract lesson. The Session owns them,
// session files save them and undo covers them like any settings edit; the views only show them.
#include "lessons/bugs.h"
#include "lessons/transfer.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace attnlab::ui {

enum class DebugSection { Contract, Bugs, Transfer, YourCode };

// The transfer lesson's weights: SelfAttention_v2 initialised from this seed, copied into a SelfAttention_v1.
inline constexpr std::uint64_t kTransferSeed = 123;
// The same lines on a GPT-2 checkpoint's c_attn, at GPT-2 small's embedding width.
inline constexpr std::int64_t kTransferGpt2Width = 768;

struct LessonState {
    DebugSection section = DebugSection::Contract;
    Bug bug = Bug::SkipHeadTranspose;
    TransferSpec transfer;               // widths and the three assignments, as the boxes say
    std::optional<QString> contractCall; // what the student pasted; nullopt: the session's own call
    // The input the contract is checked against, as the student set it; nullopt: the session's d_in / tokens.
    std::optional<std::int64_t> contractDIn, contractTokens;
    bool operator==(const LessonState&) const = default;
};

QString debugSectionName(DebugSection section); // "contract", "bugs", "transfer"
std::optional<DebugSection> debugSectionFromName(const QString& name);

// The "lessons" object of a session file; nullopt and *error set to one sentence when it is not one.
QJsonObject lessonsToJson(const LessonState& state);
std::optional<LessonState> lessonsFromJson(const QJsonObject& object, QString* error);

} // namespace attnlab::ui
