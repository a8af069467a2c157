#pragma once
// Runs the attention-lab program as a user would (a separate process, on the offscreen platform) and keeps
// what it said: --screenshot, --save-session and start-up refusals are what it does without a window
// to look at. ATTNLAB_GUI_PATH comes from tests/CMakeLists.txt (NEEDS gui).
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace testing {

struct GuiRun {
    int code = -1; // exit code; -1 when it was killed by a signal or did not finish in time
    QString out, err;
};

// `configDir`, when given, stands for the user's settings folder (XDG_CONFIG_HOME), so a run never reads
// or writes the settings of the person running the tests.
inline GuiRun runGui(const QStringList& args, const QString& configDir = {}, int timeoutMs = 120000)
{
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    if (!configDir.isEmpty())
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), configDir);
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(ATTNLAB_GUI_PATH), args);
    if (!gui.waitForFinished(timeoutMs)) {
        gui.kill();
        gui.waitForFinished();
        return {-1, QString::fromUtf8(gui.readAllStandardOutput()), QString::fromUtf8(gui.readAllStandardError())};
    }
    return {gui.exitStatus() == QProcess::NormalExit ? gui.exitCode() : -1,
            QString::fromUtf8(gui.readAllStandardOutput()), QString::fromUtf8(gui.readAllStandardError())};
}

} // namespace testing
