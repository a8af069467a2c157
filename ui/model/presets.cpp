#include "model/presets.h"

#include "call/call_parser.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace attnlab::ui {

namespace {

QList<Preset> loadPresets()
{
    QList<Preset> out;
    QFile file(QStringLiteral(":/presets.json"));
    if (!file.open(QIODevice::ReadOnly))
        return out;
    const QJsonArray array = QJsonDocument::fromJson(file.readAll()).array();
    for (const QJsonValue& value : array) {
        const QJsonObject o = value.toObject();
        Preset p;
        p.id = o.value("id").toString();
        p.title = o.value("title").toString();
        p.call = o.value("call").toString();
        const ParsedCall parsed = parse_call(p.call.toStdString());
        if (!parsed.ok())
            continue; // a broken preset file must not take the app down; the preset just does not appear
        p.config = *parsed.config;
        p.batch = o.value("batch").toInteger(1);
        p.numTokens = o.value("tokens").toInteger(6);
        p.bookInput = o.value("input").toString() == QLatin1String("book");
        p.seed = static_cast<std::uint64_t>(o.value("seed").toInteger(123));
        p.training = o.value("training").toBool(false);
        if (o.contains("dropout_seed"))
            p.dropoutSeed = static_cast<std::uint64_t>(o.value("dropout_seed").toInteger());
        out.push_back(p);
    }
    return out;
}

} // namespace

const QList<Preset>& presets()
{
    static const QList<Preset> all = loadPresets();
    return all;
}

const Preset* findPreset(const QString& id)
{
    for (const Preset& p : presets())
        if (p.id == id)
            return &p;
    return nullptr;
}

QStringList presetIds()
{
    QStringList ids;
    for (const Preset& p : presets())
        ids << p.id;
    return ids;
}

} // namespace attnlab::ui
