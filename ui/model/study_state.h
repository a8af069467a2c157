#pragma once
// Two things the student does to a stage that the Session keeps (saved in session files): the element
// they follow through the layout steps (undone like a setting), and Predict First -- whether each stage
// asks before it shows, and the tally of the shapes they predicted.
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace attnlab::ui {

struct ElementSelection {
    QString stage; // canonical name; empty: nothing selected
    QList<qint64> index;
    bool empty() const { return stage.isEmpty(); }
    std::vector<std::int64_t> coordinates() const { return {index.begin(), index.end()}; }
    bool operator==(const ElementSelection&) const = default;
};

struct PredictState {
    bool on = false;
    // The first answer given to each question, right or not, by "<canonical call> <stage>": the same
    // stage of other settings is another question.
    QMap<QString, bool> answers;
    int right() const;
    int asked() const { return static_cast<int>(answers.size()); }
    bool operator==(const PredictState&) const = default;
};

// The session file's "selection" and "predict" objects; nullopt and *error set to one sentence when not one.
QJsonObject selectionToJson(const ElementSelection& selection);
std::optional<ElementSelection> selectionFromJson(const QJsonObject& object, QString* error);
QJsonObject predictToJson(const PredictState& state);
std::optional<PredictState> predictFromJson(const QJsonObject& object, QString* error);

} // namespace attnlab::ui
