#include "session_file.h"

#include "call_parser.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace attnlab::ui {

namespace {

constexpr double kLargestExactInteger = 9007199254740992.0; // 2^53: JSON numbers beyond it lose digits

const char* const kViewNames[] = {"stepper", "heatmaps", "debug", "designs", "tradeoffs"};
const char* const kHeatmapNames[] = {"scores", "masked_scores", "weights", "dropout"};

// Reads one whole number in [lo, hi]; false (and *error) names the key and what it holds.
bool readInteger(const QJsonObject& o, const char* key, double lo, double hi, double* out, QString* error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    const double d = v.toDouble(-1.0);
    if (!v.isDouble() || d != static_cast<double>(static_cast<long long>(d)) || d < lo || d > hi) {
        *error = QObject::tr("\"%1\" must be a whole number from %2 to %3.")
                     .arg(QLatin1String(key), QString::number(lo, 'f', 0), QString::number(hi, 'f', 0));
        return false;
    }
    *out = d;
    return true;
}

} // namespace

QString viewModeName(ViewMode view)
{
    return QLatin1String(kViewNames[static_cast<int>(view)]);
}

std::optional<ViewMode> viewModeFromName(const QString& name)
{
    for (int i = 0; i < 5; ++i)
        if (name == QLatin1String(kViewNames[i]))
            return static_cast<ViewMode>(i);
    return std::nullopt;
}

QJsonObject sessionToJson(const SessionState& s)
{
    const ExperimentSpec& spec = s.spec;
    QJsonObject weights{{"source", spec.weights_path.empty() ? "seeded" : "file"}};
    if (!spec.weights_path.empty()) {
        weights.insert("path", QString::fromStdString(spec.weights_path));
        weights.insert("layout", QString::fromStdString(layout_name(spec.layout)));
        weights.insert("layout_from_file", spec.layout_from_file);
        weights.insert("layer", spec.layer);
    }
    const QJsonObject settings{
        {"call", QString::fromStdString(canonical_call(spec.config))},
        {"call_line", s.callText},
        {"batch", static_cast<double>(spec.batch)},
        {"tokens", static_cast<double>(spec.num_tokens)},
        {"seed", static_cast<double>(spec.seed)},
        {"training", spec.training},
        {"memory_budget_bytes", static_cast<double>(spec.memory_budget)},
        {"input", s.bookInput ? "book" : "random"},
        {"weights", weights},
    };
    const QJsonObject view{
        {"stage", s.stage},
        {"head", s.head},
        {"batch_index", s.batchIndex},
        {"tab", viewModeName(s.view)},
        {"heatmap", QLatin1String(kHeatmapNames[static_cast<int>(s.heatmapKind)])},
    };
    return QJsonObject{
        {"format", kSessionFormatName}, {"version", kSessionFormatVersion}, {"settings", settings}, {"view", view}};
}

std::optional<SessionState> sessionFromJson(const QJsonObject& o, QString* error)
{
    QString local;
    QString& err = error ? *error : local;
    if (o.value("format").toString() != QLatin1String(kSessionFormatName)) {
        err = QObject::tr("this is not an Attention Lab session (its \"format\" is not \"%1\").")
                  .arg(QLatin1String(kSessionFormatName));
        return std::nullopt;
    }
    double version = 0;
    if (!readInteger(o, "version", 1, kLargestExactInteger, &version, &err))
        return std::nullopt;
    if (version > kSessionFormatVersion) {
        err = QObject::tr("this session was written by a newer Attention Lab (format version %1); this version "
                          "reads version %2, so update the app to open it.")
                  .arg(version)
                  .arg(kSessionFormatVersion);
        return std::nullopt;
    }
    const QJsonObject settings = o.value("settings").toObject();
    const QJsonObject view = o.value("view").toObject();
    SessionState s;
    const ParsedCall parsed = parse_call(settings.value("call").toString().toStdString());
    if (!parsed.ok()) {
        err = QObject::tr("the session's \"call\" does not parse: %1")
                  .arg(QString::fromStdString(parsed.ok() ? "" : parsed.error->message));
        return std::nullopt;
    }
    s.spec.config = *parsed.config;
    double batch = 0, tokens = 0, seed = 0, budget = 0, head = 0, batchIndex = 0;
    if (!readInteger(settings, "batch", 1, kLargestExactInteger, &batch, &err) ||
        !readInteger(settings, "tokens", 1, kLargestExactInteger, &tokens, &err) ||
        !readInteger(settings, "seed", 0, kLargestExactInteger, &seed, &err) ||
        !readInteger(settings, "memory_budget_bytes", 1, kLargestExactInteger, &budget, &err) ||
        !readInteger(view, "head", 0, 1 << 20, &head, &err) ||
        !readInteger(view, "batch_index", 0, kLargestExactInteger, &batchIndex, &err))
        return std::nullopt;
    s.spec.batch = static_cast<std::int64_t>(batch);
    s.spec.num_tokens = static_cast<std::int64_t>(tokens);
    s.spec.seed = static_cast<std::uint64_t>(seed);
    s.spec.memory_budget = static_cast<std::uint64_t>(budget);
    s.spec.training = settings.value("training").toBool(false);
    const QString input = settings.value("input").toString();
    if (input != QLatin1String("book") && input != QLatin1String("random")) {
        err = QObject::tr("\"input\" must be \"book\" or \"random\", not \"%1\".").arg(input);
        return std::nullopt;
    }
    s.bookInput = input == QLatin1String("book");
    const QJsonObject weights = settings.value("weights").toObject();
    if (weights.value("source").toString() == QLatin1String("file")) {
        s.spec.weights_path = weights.value("path").toString().toStdString();
        try {
            s.spec.layout = layout_from_name(weights.value("layout").toString().toStdString());
        } catch (const std::exception& e) {
            err = QString::fromUtf8(e.what());
            return std::nullopt;
        }
        s.spec.layout_from_file = weights.value("layout_from_file").toBool(true);
        s.spec.layer = weights.value("layer").toInt(0);
    } else if (weights.value("source").toString() != QLatin1String("seeded")) {
        err = QObject::tr("\"weights\" must name its \"source\": \"seeded\" or \"file\".");
        return std::nullopt;
    }
    s.callText = settings.value("call_line").toString(QString::fromStdString(positional_call(s.spec.config)));
    s.stage = view.value("stage").toString();
    s.head = static_cast<int>(head);
    s.batchIndex = static_cast<int>(batchIndex);
    const auto tab = viewModeFromName(view.value("tab").toString(QStringLiteral("stepper")));
    if (!tab) {
        err = QObject::tr("\"tab\" must be one of stepper, heatmaps, debug, designs, tradeoffs.");
        return std::nullopt;
    }
    s.view = *tab;
    const QString heatmap = view.value("heatmap").toString(QStringLiteral("weights"));
    s.heatmapKind = HeatmapKind::Weights;
    bool known = false;
    for (int i = 0; i < 4; ++i)
        if (heatmap == QLatin1String(kHeatmapNames[i])) {
            s.heatmapKind = static_cast<HeatmapKind>(i);
            known = true;
        }
    if (!known) {
        err = QObject::tr("\"heatmap\" must be one of scores, masked_scores, weights, dropout.");
        return std::nullopt;
    }
    return s;
}

QByteArray serializeSession(const SessionState& state)
{
    // QJsonObject keeps its keys sorted, so equal states serialise to equal bytes.
    return QJsonDocument(sessionToJson(state)).toJson(QJsonDocument::Indented);
}

std::optional<SessionState> parseSession(const QByteArray& bytes, QString* error)
{
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = parseError.error != QJsonParseError::NoError
                         ? QObject::tr("it is not valid JSON (%1 at byte %2), perhaps cut short.")
                               .arg(parseError.errorString())
                               .arg(parseError.offset)
                         : QObject::tr("its JSON is not an object, so it is not an Attention Lab session.");
        return std::nullopt;
    }
    return sessionFromJson(doc.object(), error);
}

bool saveSessionFile(const QString& path, const SessionState& state, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(serializeSession(state)) < 0 || !file.commit()) {
        if (error)
            *error = QObject::tr("Could not save the session to %1: %2.").arg(path, file.errorString());
        return false;
    }
    return true;
}

std::optional<SessionState> loadSessionFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QObject::tr("Could not open %1: %2.").arg(path, file.errorString());
        return std::nullopt;
    }
    QString why;
    auto state = parseSession(file.read(16 << 20), &why);
    if (!state && error)
        *error = QObject::tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), why);
    return state;
}

} // namespace attnlab::ui
