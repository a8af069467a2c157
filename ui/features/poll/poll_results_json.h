#pragma once
// The class's results in a session file ("class": every question asked, whole -- its fields and right answers, so a
// result reads the same when the app has moved on -- and each round's answers, without the devices' ids): written
// deterministically, and read back checked (each question's right answers and each saved answer read against its
// fields, every list bounded), so a hand-edited or hostile file is refused with one sentence.
#include "poll/poll_tally.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace attnlab::ui {

QJsonObject resultsToJson(const std::vector<poll::Tally>& asked);
std::optional<std::vector<poll::Tally>> resultsFromJson(const QJsonObject& object, QString* error);

} // namespace attnlab::ui
