#pragma once
// Loading the PyTorch reference cases of the debugging lessons (tests/data/*_cases.json), shared by
// the core tests.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "tensor/tensor.h"

namespace testing {

// The "cases" array of a JSON file under tests/data; empty when unreadable (callers assert non-empty).
inline QList<QJsonObject> lesson_cases(const QString& file)
{
    QFile f(QStringLiteral(ATTNLAB_TEST_DATA_DIR "/") + file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> cases;
    for (const auto& c : QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray())
        cases.push_back(c.toObject());
    return cases;
}

inline attnlab::Shape shape_of(const QJsonValue& value)
{
    attnlab::Shape shape;
    for (const auto& v : value.toArray())
        shape.push_back(v.toInteger());
    return shape;
}

} // namespace testing
