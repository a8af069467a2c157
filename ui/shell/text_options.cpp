#include "shell/text_options.h"
#include "shell/shown_value.h"

#include "gpt/gpt_input.h"
#include "gpt/model_paths.h"
#include "model/model_job.h"
#include "features/session.h"
#include "tensor/error.h"
#include "model/document_model.h"
#include "model/trace_state.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QObject>

namespace attnlab::ui {

void addTextOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("model"),
         QStringLiteral("Study a GPT trained on The Verdict: h1, h2, h4 or h8 (its num_heads); induction-h4, the "
                        "shipped GPT trained here on the induction task, whose heads differ clearly; or open a GPT-2 "
                        "checkpoint (a folder or .safetensors file) as File > Open Model does; --layer picks the "
                        "layer (default 0)."),
         QStringLiteral("NAME|PATH")},
        {QStringLiteral("text"),
         QStringLiteral(
             "With --model: the text to feed it (default: the story's first sentence; for a model trained "
             "on a synthetic task, a sequence of that task, in letters such as 'A B C'; induction: a run and the same "
             "run again)."),
         QStringLiteral("T")},
    });
}

namespace {

// Opened as File > Open Model opens it: read off the GUI thread, the layer chosen once it is in.
QString openStartupCheckpoint(const QCommandLineParser& parser, Session& session, const QString& path)
{
    std::optional<Gpt2Plan> plan;
    try {
        plan = plan_gpt2_checkpoint(path.toStdString());
    } catch (const Error& e) {
        return QObject::tr("--model: %1").arg(QString::fromUtf8(e.what()));
    }
    int layer = 0;
    if (parser.isSet(QStringLiteral("layer"))) {
        bool ok = false;
        layer = parser.value(QStringLiteral("layer")).toInt(&ok);
        if (!ok || layer < 0 || layer >= plan->settings.n_layers)
            return QObject::tr("--layer takes 0 to %1 for %2, not '%3'.")
                .arg(plan->settings.n_layers - 1)
                .arg(QString::fromStdString(plan->name), shownValue(parser.value("layer")));
    }
    if (parser.isSet(QStringLiteral("text")))
        session.trace()->setInputText(parser.value(QStringLiteral("text")));
    QObject::connect(
        session.trace()->modelJob(), &ModelJob::opened, &session,
        [&session, layer] { session.document()->setGptLayer(layer); }, Qt::SingleShotConnection);
    session.trace()->openModel(*plan);
    return {};
}

} // namespace

QString applyStartupText(const QCommandLineParser& parser, Session& session)
{
    if (!parser.isSet(QStringLiteral("model"))) {
        if (parser.isSet(QStringLiteral("text")))
            return QObject::tr("--text needs --model h1|h2|h4|h8|induction-h4.");
        return {};
    }
    if (parser.isSet(QStringLiteral("weights")))
        return QObject::tr("use either --weights or --model, not both.");
    const QString name = parser.value(QStringLiteral("model"));
    int heads = 0;
    for (int h : shipped_gpt_heads())
        if (name == QStringLiteral("h%1").arg(h) || name == QString::fromStdString(gpt_model_name(h)))
            heads = h;
    if (heads == 0 && QFileInfo::exists(name))
        return openStartupCheckpoint(parser, session, name);
    if (heads == 0) { // a shipped model by its name: "induction-h4"
        const std::vector<std::string> dirs = gpt_model_dirs(QCoreApplication::applicationDirPath().toStdString());
        try {
            return openStartupCheckpoint(parser, session,
                                         QString::fromStdString(resolve_gpt_model(name.toStdString(), dirs)));
        } catch (const Error&) {
            return QObject::tr("--model takes h1, h2, h4, h8 or induction-h4, or a GPT-2 checkpoint's folder or file, "
                               "not '%1'.")
                .arg(shownValue(name));
        }
    }
    int layer = 0;
    if (parser.isSet(QStringLiteral("layer"))) {
        bool ok = false;
        layer = parser.value(QStringLiteral("layer")).toInt(&ok);
        if (!ok || layer < 0 || layer > 1)
            return QObject::tr("--layer takes 0 or 1 for the trained GPTs, not '%1'.")
                .arg(shownValue(parser.value("layer")));
    }
    if (parser.isSet(QStringLiteral("text"))) {
        const QString text = parser.value(QStringLiteral("text"));
        if (const auto problem = text_problem(text.toStdString()))
            return QObject::tr("--text: %1").arg(QString::fromStdString(*problem));
        session.trace()->setInputText(text);
    }
    session.trace()->useTrainedModel(heads, layer);
    return {};
}

} // namespace attnlab::ui
