#pragma once
// File > Export: the current view as PNG or SVG, the selected heatmap as CSV, the shape trace as
// Markdown, Predict First's questions as a quiz (Moodle's GIFT) or a page to print, and "Copy as PyTorch" (the
// script on the clipboard, the weights and input beside it).
#include <QObject>
#include <QString>

class QMenu;

namespace attnlab::ui {

class MainWindow;
class Session;

class ExportActions : public QObject {
    Q_OBJECT
public:
    ExportActions(MainWindow* window, Session* session, QObject* parent = nullptr);
    void populateMenu(QMenu* exportMenu);

    // Without dialogs; false and *error (one sentence) on failure.
    // `print`: dark ink on white whatever the theme (the export dialog's "Print colours" box).
    bool exportViewPng(const QString& path, QString* error, bool print = false);
    bool exportViewSvg(const QString& path, QString* error, bool print = false);
    bool exportHeatmapCsv(const QString& path, QString* error);
    bool exportTraceMarkdown(const QString& path, QString* error);
    // Every stage's Predict First question with the trace's answers (core/poll's writers).
    bool exportQuizGift(const QString& path, QString* error);
    bool exportHandoutHtml(const QString& path, QString* error);
    // Writes the weights and input to `weightsPath`, returns the script (also put on the clipboard).
    QString copyAsPytorch(const QString& weightsPath, QString* error);

Q_SIGNALS:
    void message(const QString& text);

private:
    // `print`, when given, adds a "Print colours" box to the dialog and receives its state.
    QString askPath(const QString& title, const QString& suffix, const QString& filter, bool* print = nullptr);
    void report(bool ok, const QString& path, const QString& error);

    MainWindow* window_;
    Session* session_;
};

} // namespace attnlab::ui
