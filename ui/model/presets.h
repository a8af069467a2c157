#pragma once
// Named starting points (the book's six-token example, the GPT-2 sizes), read from :/presets.json so
// a teacher can add one without touching code. Each preset is a call the core parses, plus an input.
#include "call/config.h"

#include <QList>
#include <optional>
#include <QString>

namespace attnlab::ui {

struct Preset {
    QString id;    // "book", "gpt2-small", ... (what --preset takes)
    QString title; // what the preset menu shows
    QString call;  // a constructor call, as the book writes it
    Config config; // that call, parsed by the core
    std::int64_t batch = 1;
    std::int64_t numTokens = 6;
    bool bookInput = false;   // the book's embedded six tokens instead of seeded random values
    std::uint64_t seed = 123; // torch.manual_seed before the constructor, as the book's listing calls it
    bool training = false;
    std::optional<std::uint64_t> dropoutSeed; // torch.manual_seed right before the forward
};

const QList<Preset>& presets();
const Preset* findPreset(const QString& id);
QStringList presetIds();

} // namespace attnlab::ui
