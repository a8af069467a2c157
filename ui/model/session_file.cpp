#include "model/session_file.h"

#include "call/call_parser.h"
#include "gpt/gpt_input.h"
#include "model/json_fields.h"

#include <QJsonDocument>

#include <algorithm>
#include <iterator>

namespace attnlab::ui {

namespace {

constexpr double kLargestExactInteger = 9007199254740992.0; // 2^53: JSON numbers beyond it lose digits
constexpr double kLargestIndex = 1 << 20;                   // head and batch element: far beyond any trace, within int
constexpr double kLargestLayer = 10000;                     // as the CLI's --layer

const char* const kHeatmapNames[] = {"scores", "masked_scores", "weights", "dropout"};
const char* const kScaleNames[] = {"auto", "linear", "largest", "log"}; // HeatmapScaleMode's order

// The parts version 3 added; each is optional, so a hand-trimmed file still opens.
bool readVersion3(const QJsonObject& o, const QJsonObject& view, const SessionFeatures& features, SessionState& s,
                  QString& err)
{
    namespace f = json_fields;
    QString scale, section;
    if (!f::string(view, "heatmap_scale", &scale, &err, QStringLiteral("auto")) ||
        !f::string(view, "tradeoffs", &section, &err, QStringLiteral("counted")))
        return false;
    const auto* found = std::find_if(std::begin(kScaleNames), std::end(kScaleNames),
                                     [&](const char* n) { return scale == QLatin1String(n); });
    if (found == std::end(kScaleNames)) {
        err =
            QObject::tr("\"heatmap_scale\" must be one of auto, linear, largest, log, not %1.").arg(f::describe(scale));
        return false;
    }
    s.view.heatmapScale = static_cast<HeatmapScaleMode>(found - std::begin(kScaleNames));
    const auto tradeoffs = tradeoffsSectionFromName(section);
    if (!tradeoffs) {
        err = QObject::tr("\"tradeoffs\" must be counted, measured or trained, not %1.").arg(f::describe(section));
        return false;
    }
    s.view.tradeoffsSection = *tradeoffs;
    if (o.contains("guide")) {
        QJsonObject guide;
        if (!f::object(o, "guide", &guide, &err))
            return false;
        auto g = guideFromJson(guide, &err);
        if (!g)
            return false;
        s.view.guide = *g;
    }
    for (const SessionSection& section : features.sections) {
        if (!o.contains(QLatin1String(section.key)))
            continue;
        if (!section.check(o, &err))
            return false;
        s.features.insert(QLatin1String(section.key), o.value(QLatin1String(section.key)));
    }
    for (const char* key : {"selection", "predict"}) {
        if (!o.contains(key))
            continue;
        QJsonObject part;
        if (!f::object(o, key, &part, &err))
            return false;
        if (QLatin1String(key) == QLatin1String("selection")) {
            auto selection = selectionFromJson(part, &err);
            if (!selection)
                return false;
            s.document.selection = *selection;
        } else {
            auto predict = predictFromJson(part, &err);
            if (!predict)
                return false;
            s.predict = *predict;
        }
    }
    return true;
}

} // namespace

QJsonObject sessionToJson(const SessionState& s, const SessionFeatures& features)
{
    const ExperimentSpec& spec = s.document.spec;
    QJsonObject weights{{"source", spec.weights_path.empty() ? "seeded" : "file"}};
    if (!spec.weights_path.empty()) {
        weights.insert("path", QString::fromStdString(spec.weights_path));
        weights.insert("layout", QString::fromStdString(layout_name(spec.layout)));
        weights.insert("layout_from_file", spec.layout_from_file);
        weights.insert("layer", spec.layer);
    }
    QJsonObject settings{
        {"call", QString::fromStdString(canonical_call(spec.config))},
        {"call_line", s.document.callText},
        {"batch", static_cast<double>(spec.batch)},
        {"tokens", static_cast<double>(spec.num_tokens)},
        {"seed", static_cast<double>(spec.seed)},
        {"training", spec.training},
        {"memory_budget_bytes", static_cast<double>(spec.memory_budget)},
        {"input", spec.input == InputSource::Text ? "text"
                  : s.document.bookInput          ? "book"
                                                  : "random"},
        {"weights", weights},
    };
    if (spec.dropout_seed) // absent otherwise, so files without one keep their bytes
        settings.insert("dropout_seed", static_cast<double>(*spec.dropout_seed));
    if (spec.input == InputSource::Text) { // the sentence and which trained model's layer it goes through
        QJsonObject text{{"text", QString::fromStdString(spec.text)},
                         {"model", QString::fromStdString(spec.gpt_model_path)},
                         {"layer", spec.gpt_layer}};
        if (!s.checkpoint.isEmpty()) // absent otherwise, so files of the Verdict GPTs keep their bytes
            text.insert("checkpoint", s.checkpoint);
        settings.insert("text_input", text);
    }
    const ViewState& v = s.view;
    const QJsonObject view{
        {"stage", v.stage},
        {"head", v.head},
        {"batch_index", v.batchIndex},
        {"tab", features.tabs.value(static_cast<int>(v.tab))},
        {"heatmap", QLatin1String(kHeatmapNames[static_cast<int>(v.heatmapKind)])},
        {"heatmap_scale", QLatin1String(kScaleNames[static_cast<int>(v.heatmapScale)])},
        {"tradeoffs", tradeoffsSectionName(v.tradeoffsSection)},
    };
    QJsonObject o{{"format", kSessionFormatName},
                  {"version", kSessionFormatVersion},
                  {"settings", settings},
                  {"view", view},
                  {"lessons", lessonsToJson(s.document.lessons, v.debugSection)},
                  {"guide", guideToJson(v.guide)}};
    if (!s.document.selection.empty()) // absent otherwise, like the parts below, so files without them keep their bytes
        o.insert("selection", selectionToJson(s.document.selection));
    if (s.predict != PredictState{})
        o.insert("predict", predictToJson(s.predict));
    for (auto part = s.features.begin(); part != s.features.end(); ++part)
        o.insert(part.key(), part.value());
    return o;
}

std::optional<SessionState> sessionFromJson(const QJsonObject& o, const SessionFeatures& features, QString* error)
{
    namespace f = json_fields;
    QString local;
    QString& err = error ? *error : local;
    if (o.value("format").toString() != QLatin1String(kSessionFormatName)) {
        err = QObject::tr("this is not an Attention Lab session (its \"format\" is not \"%1\").")
                  .arg(QLatin1String(kSessionFormatName));
        return std::nullopt;
    }
    double version = 0;
    if (!f::integer(o, "version", 1, kLargestExactInteger, &version, &err))
        return std::nullopt;
    if (version > kSessionFormatVersion) {
        err = QObject::tr("this session was written by a newer Attention Lab (format version %1); this version "
                          "reads version %2, so update the app to open it.")
                  .arg(version)
                  .arg(kSessionFormatVersion);
        return std::nullopt;
    }
    QJsonObject settings, view, weights;
    QString call, input, source, tab, heatmap;
    if (!f::object(o, "settings", &settings, &err) || !f::object(o, "view", &view, &err) ||
        !f::string(settings, "call", &call, &err))
        return std::nullopt;
    SessionState s;
    const ParsedCall parsed = parse_call(call.toStdString());
    if (!parsed.ok()) {
        err =
            QObject::tr("the session's \"call\" does not parse: %1").arg(QString::fromStdString(parsed.error->message));
        return std::nullopt;
    }
    s.document.spec.config = *parsed.config;
    double batch = 0, tokens = 0, seed = 0, budget = 0, head = 0, batchIndex = 0;
    if (!f::integer(settings, "batch", 1, kLargestExactInteger, &batch, &err) ||
        !f::integer(settings, "tokens", 1, kLargestExactInteger, &tokens, &err) ||
        !f::integer(settings, "seed", 0, kLargestExactInteger, &seed, &err) ||
        !f::integer(settings, "memory_budget_bytes", 1, kLargestExactInteger, &budget, &err) ||
        !f::boolean(settings, "training", &s.document.spec.training, &err, false) ||
        !f::string(settings, "input", &input, &err) || !f::object(settings, "weights", &weights, &err) ||
        !f::string(weights, "source", &source, &err) ||
        !f::string(settings, "call_line", &s.document.callText, &err,
                   QString::fromStdString(positional_call(s.document.spec.config))) ||
        !f::integer(view, "head", 0, kLargestIndex, &head, &err) ||
        !f::integer(view, "batch_index", 0, kLargestIndex, &batchIndex, &err) ||
        !f::string(view, "stage", &s.view.stage, &err, QString()) ||
        !f::string(view, "tab", &tab, &err, QStringLiteral("stepper")) ||
        !f::string(view, "heatmap", &heatmap, &err, QStringLiteral("weights")))
        return std::nullopt;
    s.document.spec.batch = static_cast<std::int64_t>(batch);
    s.document.spec.num_tokens = static_cast<std::int64_t>(tokens);
    s.document.spec.seed = static_cast<std::uint64_t>(seed);
    if (settings.contains("dropout_seed")) {
        double dropoutSeed = 0;
        if (!f::integer(settings, "dropout_seed", 0, kLargestExactInteger, &dropoutSeed, &err))
            return std::nullopt;
        s.document.spec.dropout_seed = static_cast<std::uint64_t>(dropoutSeed);
    }
    s.document.spec.memory_budget = static_cast<std::uint64_t>(budget);
    s.view.head = static_cast<int>(head);
    s.view.batchIndex = static_cast<int>(batchIndex);
    if (input != QLatin1String("book") && input != QLatin1String("random") && input != QLatin1String("text")) {
        err = QObject::tr("\"input\" must be \"book\", \"random\" or \"text\", not %1.").arg(f::describe(input));
        return std::nullopt;
    }
    if (input == QLatin1String("text")) {
        QJsonObject t;
        QString text, model;
        double layer = 0;
        if (!f::object(settings, "text_input", &t, &err) || !f::string(t, "text", &text, &err) ||
            !f::string(t, "model", &model, &err) || !f::integer(t, "layer", 0, kLargestLayer, &layer, &err, 0) ||
            !f::string(t, "checkpoint", &s.checkpoint, &err, QString()))
            return std::nullopt;
        if (const auto problem = text_problem(text.toStdString())) {
            err = QObject::tr("its \"text_input\" cannot be used: %1").arg(QString::fromStdString(*problem));
            return std::nullopt;
        }
        s.document.spec.input = InputSource::Text;
        s.document.spec.text = text.toStdString();
        s.document.spec.gpt_model_path = model.toStdString();
        s.document.spec.gpt_layer = static_cast<int>(layer);
    }
    s.document.bookInput = input == QLatin1String("book");
    if (source == QLatin1String("file")) {
        QString path, layout;
        double layer = 0;
        bool fromFile = true;
        if (!f::string(weights, "path", &path, &err) || !f::string(weights, "layout", &layout, &err) ||
            !f::boolean(weights, "layout_from_file", &fromFile, &err, true) ||
            !f::integer(weights, "layer", 0, kLargestLayer, &layer, &err, 0))
            return std::nullopt;
        if (path.isEmpty()) {
            err = QObject::tr("\"weights\" has an empty \"path\"; name a .safetensors file or use \"seeded\".");
            return std::nullopt;
        }
        try {
            s.document.spec.layout = layout_from_name(layout.toStdString());
        } catch (const std::exception& e) {
            err = QString::fromUtf8(e.what());
            return std::nullopt;
        }
        s.document.spec.weights_path = path.toStdString();
        s.document.spec.layout_from_file = fromFile;
        s.document.spec.layer = static_cast<int>(layer);
    } else if (source != QLatin1String("seeded")) {
        err = QObject::tr("\"source\" of \"weights\" must be \"seeded\" or \"file\", not %1.").arg(f::describe(source));
        return std::nullopt;
    }
    const int tabIndex = static_cast<int>(features.tabs.indexOf(tab));
    if (tabIndex < 0) {
        err = QObject::tr("\"tab\" must be one of %1, not %2.")
                  .arg(features.tabs.join(QStringLiteral(", ")), f::describe(tab));
        return std::nullopt;
    }
    s.view.tab = static_cast<ViewMode>(tabIndex);
    if (version >= 2) {
        QJsonObject lessons;
        if (!f::object(o, "lessons", &lessons, &err))
            return std::nullopt;
        auto state = lessonsFromJson(lessons, &s.view.debugSection, &err);
        if (!state)
            return std::nullopt;
        s.document.lessons = *state;
    }
    if (version >= 3 && !readVersion3(o, view, features, s, err))
        return std::nullopt;
    for (int i = 0; i < 4; ++i)
        if (heatmap == QLatin1String(kHeatmapNames[i])) {
            s.view.heatmapKind = static_cast<AttentionMatrix>(i);
            return s;
        }
    err = QObject::tr("\"heatmap\" must be one of scores, masked_scores, weights, dropout, not %1.")
              .arg(f::describe(heatmap));
    return std::nullopt;
}

QByteArray serializeSession(const SessionState& state, const SessionFeatures& features)
{
    // QJsonObject keeps its keys sorted, so equal states serialise to equal bytes.
    return QJsonDocument(sessionToJson(state, features)).toJson(QJsonDocument::Indented);
}

} // namespace attnlab::ui
