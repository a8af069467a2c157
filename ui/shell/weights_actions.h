#pragma once
// File > Load Weights… and File > Use Seeded Weights ("Load your own"). Loading goes through
// LoadWeightsDialog and lands in the session as one settings edit, so Edit > Undo takes it back whole.
#include <QObject>
#include <QString>

class QAction;
class QCommandLineParser;
class QMainWindow;
class QMenu;

namespace attnlab {
struct ExperimentSpec;
}

namespace attnlab::ui {

class Session;

// --weights FILE [--layer N] [--weights-dialog], for screenshots and tests.
void addWeightsOptions(QCommandLineParser& parser);
// After --call and --tokens: loads --weights with the default choices (num_heads from the call when
// it divides d_out). Returns one sentence when the file is refused, else empty. --weights-dialog
// instead leaves the file for the dialog, which the AppShell opens once the window is up.
QString applyStartupWeights(const QCommandLineParser& parser, Session& session);

class WeightsActions : public QObject {
    Q_OBJECT
public:
    WeightsActions(QMainWindow* window, Session* session, QObject* parent = nullptr);
    void populateMenu(QMenu* file);

    // The dialog for a file already chosen (the menu asks for one first). True when it was loaded.
    bool openDialog(const QString& path);
    void apply(const ExperimentSpec& spec); // one edit of the session's settings
    void useSeededWeights();
    QAction* seededAction() const { return seeded_; }

Q_SIGNALS:
    void message(const QString& text); // for the status bar

private:
    void chooseFile();

    QMainWindow* window_;
    Session* session_;
    QAction* seeded_ = nullptr;
    QString lastDir_;
};

} // namespace attnlab::ui
