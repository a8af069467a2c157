#pragma once
// File > Compare With My Code… and Help > Record Your Module…: a learner's own module, recorded with
// resources/pytorch/attention_lab_probe.py, opened in Debugging > Your code. --compare FILE does the same
// at start-up (for screenshots and tests). File > The Class's Code… (--compare-class DIR) tallies a folder of them in
// Debugging > The class's code, whose recordings open in Your code.
#include <QObject>
#include <QString>

class QCommandLineParser;
class QMainWindow;
class QMenu;

namespace attnlab::ui {

class ClassCodeView;
class RecordingCompare;
class Session;
class DebugView;

// --compare FILE, --compare-class DIR
void addCompareOptions(QCommandLineParser& parser);

// Where the recorder is installed beside the program (share/attention-lab), or empty when it is not.
QString installedRecorderPath();
// The three lines a learner pastes into their notebook.
QString recorderSnippet();
// Help > Record Your Module…'s "Save Recorder As…" once a path is chosen: the recorder written there
// atomically. False with one sentence in `error` when it could not be.
bool saveRecorderCopy(const QString& path, QString* error);

class CompareActions : public QObject {
    Q_OBJECT
public:
    CompareActions(QMainWindow* window, Session* session, QObject* parent = nullptr);
    void populateFileMenu(QMenu* file);
    void populateHelpMenu(QMenu* help);

    // Opens a recording as the menu does once a file is chosen: asks for num_heads when the recording
    // does not say it and `interactive` (the menu; not --compare), shows Debugging > Your code. True when
    // compared; a refused file leaves its sentence inline in that section.
    bool openRecording(const QString& path, bool interactive = true);
    // The Debugging tab's class page: its recordings open here; File > The Class's Code… shows it.
    void setClassCodeView(ClassCodeView* view);
    // Tallies `folder` in Debugging > The class's code and shows it (--compare-class); false when refused.
    bool openClassFolder(const QString& folder);
    void showRecorderHelp();

Q_SIGNALS:
    void message(const QString& text); // for the status bar

private:
    void chooseFile();
    void showSection();
    void showClassCode();

    QMainWindow* window_;
    Session* session_;
    QString lastDir_;
    ClassCodeView* classCode_ = nullptr;
};

} // namespace attnlab::ui
