#pragma once
// Runs attention-lab-cli as a user would (a separate process) and keeps what it said. Shared by the
// CLI test executables; ATTNLAB_CLI_PATH comes from tests/CMakeLists.txt.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

struct Result {
    int code = -1; // exit code; -1 when the process was killed by a signal or did not finish
    QString out, err;
    QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

inline Result cli(const QStringList& args)
{
    QProcess p;
    p.start(ATTNLAB_CLI_PATH, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

inline QJsonObject json_of(const Result& r)
{
    return r.json();
}
