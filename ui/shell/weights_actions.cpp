#include "shell/weights_actions.h"
#include "shell/shown_value.h"

#include "widgets/load_weights_dialog.h"
#include "features/session.h"
#include "model/document_model.h"

#include <QAction>
#include <QCommandLineParser>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>

namespace attnlab::ui {

void addWeightsOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("weights"),
         QStringLiteral("Compute with the weights of this safetensors file (a module's state_dict or a GPT-2 "
                        "checkpoint), as File > Load Weights does."),
         QStringLiteral("FILE")},
        {QStringLiteral("layer"),
         QStringLiteral("With --weights: the GPT-2 layer to take (default: the first); with --model: the trained "
                        "GPT's layer."),
         QStringLiteral("N")},
        {QStringLiteral("weights-dialog"),
         QStringLiteral("With --weights: show the Load Weights dialog for the file instead of loading it.")},
    });
}

QString applyStartupWeights(const QCommandLineParser& parser, Session& session)
{
    if (!parser.isSet(QStringLiteral("weights"))) {
        // --layer also picks a trained GPT's layer (text_options.h) when --model is given.
        // optionNames() lists what was given, so parsers without --model (tests) are asked nothing unknown.
        const bool gptLayer = parser.optionNames().contains(QStringLiteral("model"));
        if ((parser.isSet(QStringLiteral("layer")) && !gptLayer) || parser.isSet(QStringLiteral("weights-dialog")))
            return QObject::tr("--layer and --weights-dialog need --weights FILE.");
        return {};
    }
    if (parser.isSet(QStringLiteral("weights-dialog")))
        return {};
    std::optional<int> layer;
    if (parser.isSet(QStringLiteral("layer"))) {
        bool ok = false;
        layer = parser.value(QStringLiteral("layer")).toInt(&ok);
        if (!ok || *layer < 0)
            return QObject::tr("--layer takes a layer number from 0, not '%1'.").arg(shownValue(parser.value("layer")));
    }
    QString error;
    const auto spec =
        specWithFileWeights(session.document()->spec(), parser.value(QStringLiteral("weights")), layer, &error);
    if (!spec)
        return error;
    session.document()->setSpec(*spec, true);
    return {};
}

WeightsActions::WeightsActions(QMainWindow* window, Session* session, QObject* parent)
    : QObject(parent), window_(window), session_(session)
{
}

void WeightsActions::populateMenu(QMenu* file)
{
    // Ctrl+L already shows the lessons panel; Ctrl+Shift+O reads as "open (other) file".
    auto* load = file->addAction(tr("Load &Weights…"), this, &WeightsActions::chooseFile);
    load->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    load->setToolTip(tr("Compute with weights from a safetensors file: a module's state_dict or a GPT-2 "
                        "checkpoint."));
    seeded_ = file->addAction(tr("Use S&eeded Weights"), this, &WeightsActions::useSeededWeights);
    seeded_->setToolTip(tr("Go back to the app's own seeded weights, as nn.Linear initialises them."));
    const auto refresh = [this] { seeded_->setEnabled(!session_->document()->spec().weights_path.empty()); };
    followParts(session_->parts(), seeded_, [refresh](ChangeFlags flags) {
        if (flags & ChangeFlag::Settings)
            refresh();
    });
    refresh();
}

bool WeightsActions::openDialog(const QString& path)
{
    LoadWeightsDialog dialog(path, session_->document()->spec(), window_);
    if (dialog.exec() != QDialog::Accepted || !dialog.usable())
        return false;
    apply(dialog.chosenSpec());
    Q_EMIT message(tr("Loaded the weights of %1.").arg(QFileInfo(path).fileName()));
    return true;
}

void WeightsActions::apply(const ExperimentSpec& spec)
{
    session_->document()->setSpec(spec, true);
}

void WeightsActions::useSeededWeights()
{
    if (session_->document()->spec().weights_path.empty())
        return;
    apply(specWithSeededWeights(session_->document()->spec()));
    Q_EMIT message(tr("Back to the seeded weights."));
}

void WeightsActions::chooseFile()
{
    const QString path = QFileDialog::getOpenFileName(window_, tr("Load Weights"), lastDir_,
                                                      tr("safetensors files (*.safetensors);;All files (*)"));
    if (path.isEmpty())
        return;
    lastDir_ = QFileInfo(path).path();
    openDialog(path);
}

} // namespace attnlab::ui
