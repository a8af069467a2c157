// The malformed-session corpus: every file in tests/robustness/sessions/cases.tsv is
// refused with one sentence that names the file and contains the row's phrase, and nothing of the
// current state changes -- through the session_file API, through File > Open, and through
// `attention-lab --open BAD --save-session out.json`, which exits 1 with the sentence on stderr and
// writes no file. The corpus's one good file opens everywhere (the control row).
#include "common/gui_runner.h"
#include "shell/file_actions.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "model/undo_commands.h"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const QString kCorpus = QStringLiteral(ATTNLAB_SESSION_CORPUS_DIR);

bool oneSentence(const QString& s)
{
    return (s.endsWith(QLatin1Char('.')) || s.endsWith(QLatin1Char('?'))) && !s.contains(QLatin1Char('\n')) &&
           s.size() < 400;
}

} // namespace

class TestUiSessionCorpus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab")).clear();
        session_ = std::make_unique<Session>();
        session_->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        window_ = std::make_unique<MainWindow>(session_.get());
        history_ = std::make_unique<SettingsHistory>(session_->document());
        files_ = std::make_unique<FileActions>(window_.get(), session_.get(), history_.get());
        QTRY_VERIFY_WITH_TIMEOUT(session_->trace()->trace() && !session_->trace()->busy(), 30000);
    }
    void cleanupTestCase()
    {
        files_.reset();
        history_.reset();
        window_.reset();
        session_.reset();
    }

    void everyFileIsRefusedWithOneSentence_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("phrase");
        QFile cases(kCorpus + QStringLiteral("/cases.tsv"));
        QVERIFY(cases.open(QIODevice::ReadOnly | QIODevice::Text));
        int rows = 0;
        while (!cases.atEnd()) {
            const QString line = QString::fromUtf8(cases.readLine()).chopped(1);
            if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
                continue;
            const QStringList fields = line.split(QLatin1Char('\t'));
            QCOMPARE(fields.size(), 2);
            QTest::newRow(qPrintable(fields[0])) << fields[0] << fields[1];
            ++rows;
        }
        QVERIFY(rows > 40);
    }

    void everyFileIsRefusedWithOneSentence()
    {
        QFETCH(QString, file);
        QFETCH(QString, phrase);
        const QString path = kCorpus + QLatin1Char('/') + file;
        const bool good = phrase.isEmpty();

        QString error;
        const auto state = loadSessionFile(path, sessionFeatures(), &error);
        QCOMPARE(state.has_value(), good);
        if (!good) {
            QVERIFY2(error.startsWith(file + QStringLiteral(" was not opened: ")), qPrintable(error));
            // A phrase's parts split by " … " must all be there, in order: a list that grows (the tabs) sits
            // between parts, so a new tab does not change the case and what was refused is still named.
            qsizetype from = 0;
            for (const QString& part : phrase.split(QStringLiteral(" … "))) {
                from = error.indexOf(part, from);
                QVERIFY2(from >= 0, qPrintable(error));
                from += part.size();
            }
            QVERIFY2(oneSentence(error), qPrintable(error));

            // File > Open: refused the same way, nothing of the current state touched.
            const QByteArray before = serializeSession(captureState(*session_), sessionFeatures());
            testing::PartsSpy spy(*session_);
            QString openError;
            QVERIFY(!files_->openFile(path, &openError));
            QCOMPARE(openError, error);
            QCOMPARE(spy.count(), 0);
            QCOMPARE(serializeSession(captureState(*session_), sessionFeatures()), before);
            QVERIFY(files_->currentPath().isEmpty());
        }

        // The app: exit 1, the sentence on stderr, no file written (the good file: exit 0 and a file).
        const QString out = dir_.filePath(QStringLiteral("out.attnlab.json"));
        QFile::remove(out);
        const testing::GuiRun run =
            testing::runGui({QStringLiteral("--open"), path, QStringLiteral("--save-session"), out},
                            dir_.filePath("config"), 60000); // never the user's settings
        const QString err = run.err;
        QCOMPARE(run.code, good ? 0 : 1);
        QCOMPARE(QFile::exists(out), good);
        if (!good)
            QVERIFY2(err.contains(QStringLiteral("attention-lab: ") + error), qPrintable(err));
    }

    // A session that opens, but whose weights file the engine refuses: --save-session used to wait
    // forever for a trace that would never come. Now: exit 1 with the engine's sentence, no file.
    void aSessionTheEngineRefusesEndsTheRunWithItsSentence()
    {
        QFile good(kCorpus + QStringLiteral("/good.attnlab.json"));
        QVERIFY(good.open(QIODevice::ReadOnly));
        QByteArray bytes = good.readAll();
        const QString weights =
            QFileInfo(kCorpus + QStringLiteral("/../files/mha_missing_key.safetensors")).absoluteFilePath();
        bytes.replace("\"source\": \"seeded\"", QStringLiteral("\"source\": \"file\", \"path\": \"%1\", "
                                                               "\"layout\": \"torch\"")
                                                    .arg(weights)
                                                    .toUtf8());
        const QString path = dir_.filePath(QStringLiteral("engine.attnlab.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        QVERIFY(loadSessionFile(path, sessionFeatures(), nullptr)); // the file itself is fine

        const QString out = dir_.filePath(QStringLiteral("engine-out.attnlab.json"));
        const testing::GuiRun run = testing::runGui(
            {QStringLiteral("--open"), path, QStringLiteral("--save-session"), out}, dir_.filePath("config"), 60000);
        QCOMPARE(run.code, 1);
        const QString err = run.err;
        QVERIFY2(err.contains(QStringLiteral("has no tensor 'W_key.weight'")), qPrintable(err));
        QVERIFY(!QFile::exists(out));
    }

    // Too large to keep in the repository: made here. Refused by its size, before a byte is parsed.
    void anOversizedFileIsRefusedUnread()
    {
        const QString path = dir_.filePath(QStringLiteral("huge.attnlab.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(qint64{90} << 20)); // sparse: no disk space taken
        f.close();
        QString error;
        QVERIFY(!loadSessionFile(path, sessionFeatures(), &error));
        QCOMPARE(error, QStringLiteral("huge.attnlab.json was not opened: it is 90 MiB, more than the 80 MiB a "
                                       "session file may be."));
    }

private:
    QTemporaryDir dir_;
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<SettingsHistory> history_;
    std::unique_ptr<FileActions> files_;
};

QTEST_MAIN(TestUiSessionCorpus)
#include "test_ui_session_corpus.moc"
