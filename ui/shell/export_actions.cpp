#include "shell/export_actions.h"
#include "widgets/lesson_target.h"

#include "shell/exporters.h"
#include "render/heatmap_source.h"
#include "shell/main_window.h"
#include "model/pytorch_export.h"
#include "features/session.h"
#include "model/document_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "poll/gift_quiz.h"
#include "poll/handout_page.h"

#include <QApplication>
#include <QClipboard>
#include <QCheckBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace attnlab::ui {

ExportActions::ExportActions(MainWindow* window, Session* session, QObject* parent)
    : QObject(parent), window_(window), session_(session)
{
}

void ExportActions::populateMenu(QMenu* menu)
{
    menu->menuAction()->setToolTip(tr("Write what you see to files others can use."));
    auto add = [&](const QString& text, const QString& tip, auto run) {
        auto* a = menu->addAction(text, this, run);
        a->setToolTip(tip);
        return a;
    };
    add(tr("View as &PNG…"), tr("Save the current tab as a PNG picture."), [this] {
        bool print = false;
        const QString p = askPath(tr("Export View as PNG"), QStringLiteral("png"), tr("PNG images (*.png)"), &print);
        QString e;
        if (!p.isEmpty())
            report(exportViewPng(p, &e, print), p, e);
    });
    add(tr("View as &SVG…"), tr("Save the current tab as an SVG drawing that scales without blurring."), [this] {
        bool print = false;
        const QString p = askPath(tr("Export View as SVG"), QStringLiteral("svg"), tr("SVG drawings (*.svg)"), &print);
        QString e;
        if (!p.isEmpty())
            report(exportViewSvg(p, &e, print), p, e);
    });
    add(tr("Heatmap Values as &CSV…"), tr("Save the selected head's attention matrix as comma-separated numbers."),
        [this] {
            const QString p = askPath(tr("Export Heatmap as CSV"), QStringLiteral("csv"), tr("CSV files (*.csv)"));
            QString e;
            if (!p.isEmpty())
                report(exportHeatmapCsv(p, &e), p, e);
        });
    add(tr("Shape Trace as &Markdown…"), tr("Save every stage's code line, shape, strides and contiguity as a table."),
        [this] {
            const QString p = askPath(tr("Export Shape Trace"), QStringLiteral("md"), tr("Markdown (*.md)"));
            QString e;
            if (!p.isEmpty())
                report(exportTraceMarkdown(p, &e), p, e);
        });
    add(tr("Questions as a &Quiz (GIFT)…"),
        tr("Save every stage's Predict First question, with the answers, as a quiz Moodle imports (GIFT)."), [this] {
            const QString p =
                askPath(tr("Export Questions as a Quiz"), QStringLiteral("gift"), tr("GIFT quizzes (*.gift)"));
            QString e;
            if (!p.isEmpty())
                report(exportQuizGift(p, &e), p, e);
        });
    add(tr("Questions as a &Handout (HTML)…"),
        tr("Save every stage's Predict First question as a page to print, the answers after a page break."), [this] {
            const QString p =
                askPath(tr("Export Questions as a Handout"), QStringLiteral("html"), tr("Web pages (*.html)"));
            QString e;
            if (!p.isEmpty())
                report(exportHandoutHtml(p, &e), p, e);
        });
    menu->addSeparator();
    add(tr("Copy as P&yTorch…"),
        tr("Put runnable PyTorch code of this module on the clipboard, with its weights and input saved beside it."),
        [this] {
            const QString p = askPath(tr("Save the Weights for PyTorch"), QStringLiteral("safetensors"),
                                      tr("safetensors files (*.safetensors)"));
            if (p.isEmpty())
                return;
            QString e;
            const bool ok = !copyAsPytorch(p, &e).isEmpty();
            report(ok, p, e);
            if (ok)
                Q_EMIT message(tr("PyTorch code copied to the clipboard; it loads %1.").arg(QFileInfo(p).fileName()));
        });
}

bool ExportActions::exportViewPng(const QString& path, QString* error, bool print)
{
    return exportPng(viewWidget(*window_, session_->view()->tab()), path, error,
                     print ? PictureColours::Print : PictureColours::Theme);
}

bool ExportActions::exportViewSvg(const QString& path, QString* error, bool print)
{
    const QString title = tr("Attention Lab: %1").arg(session_->document()->callText());
    return exportSvg(viewWidget(*window_, session_->view()->tab()), path, title, error,
                     print ? PictureColours::Print : PictureColours::Theme);
}

bool ExportActions::exportHeatmapCsv(const QString& path, QString* error)
{
    const auto trace = session_->trace()->trace();
    const HeatmapSlice slice = trace ? heatmapSlice(trace, session_->view()->heatmapKind(), session_->view()->head(),
                                                    session_->view()->batchIndex())
                                     : HeatmapSlice{};
    if (!slice.valid()) {
        if (error)
            *error = tr("There is no heatmap to export: this module and view hold no %1 matrix.")
                         .arg(heatmapKindTitle(session_->view()->heatmapKind()).toLower());
        return false;
    }
    return writeTextFile(path, heatmapCsv(slice, session_->trace()->tokenLabels()), error);
}

bool ExportActions::exportTraceMarkdown(const QString& path, QString* error)
{
    const auto trace = session_->trace()->trace();
    if (!trace) {
        if (error)
            *error = tr("There is no trace yet: wait for the forward pass to finish.");
        return false;
    }
    return writeTextFile(path, traceMarkdown(*trace), error);
}

bool ExportActions::exportQuizGift(const QString& path, QString* error)
{
    const auto trace = session_->trace()->trace();
    if (!trace) {
        if (error)
            *error = tr("There is no trace yet: wait for the forward pass to finish.");
        return false;
    }
    const std::string category = "attention-lab/" + module_class_name(trace->config.kind);
    return writeTextFile(path, QString::fromStdString(poll::gift_quiz(category, poll::every_stage(*trace))), error);
}

bool ExportActions::exportHandoutHtml(const QString& path, QString* error)
{
    const auto trace = session_->trace()->trace();
    if (!trace) {
        if (error)
            *error = tr("There is no trace yet: wait for the forward pass to finish.");
        return false;
    }
    const std::string title = positional_call(trace->config) + ": predict every stage";
    return writeTextFile(path, QString::fromStdString(poll::handout_page(title, poll::every_stage(*trace))), error);
}

QString ExportActions::copyAsPytorch(const QString& weightsPath, QString* error)
{
    try {
        exportWeightsAndInput(effectiveSpecOf(session_->document()->spec(), session_->document()->prefersBookInput()),
                              weightsPath);
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return {};
    }
    const QString script = pytorchScript(session_->document()->config(), QFileInfo(weightsPath).absoluteFilePath());
    QApplication::clipboard()->setText(script);
    return script;
}

QString ExportActions::askPath(const QString& title, const QString& suffix, const QString& filter, bool* print)
{
    QFileDialog dialog(window_, title, QStringLiteral("attention-lab.%1").arg(suffix), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    QCheckBox* printBox = nullptr;
    if (print) { // Qt's own dialog, so the box can sit under the file name
        dialog.setOption(QFileDialog::DontUseNativeDialog);
        printBox = new QCheckBox(tr("&Print colours: dark ink on white, whatever the theme"));
        nameTarget(printBox, QStringLiteral("export-print-colours"));
        printBox->setToolTip(tr("Leave unticked to export the colours of the theme in use."));
        if (auto* grid = qobject_cast<QGridLayout*>(dialog.layout()))
            grid->addWidget(printBox, grid->rowCount(), 0, 1, grid->columnCount());
    }
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    if (print && printBox)
        *print = printBox->isChecked();
    return dialog.selectedFiles().front();
}

void ExportActions::report(bool ok, const QString& path, const QString& error)
{
    if (ok)
        return Q_EMIT message(tr("Exported %1.").arg(QFileInfo(path).fileName()));
    Q_EMIT message(error);
    QMessageBox::warning(window_, tr("Attention Lab"), error);
}

} // namespace attnlab::ui
