// Session files: the same state saved twice gives the same bytes; opening a file brings
// back settings, stage, head and view; a bad, truncated or newer file is refused with one sentence
// and the current state kept; the last state comes back on start; and the app's own
// `--open a.json --save-session b.json` round trip gives identical files.
#include "common/gui_runner.h"
#include "common/session_fixtures.h"
#include "shell/app_shell.h"
#include "shell/file_actions.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "features/debug/recording_compare.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "model/undo_commands.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::idle;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// The book's example, looking at head 1's weights: every part of the state differs from the defaults.
void setUpBookState(Session& s)
{
    s.document()->applyPreset(*findPreset(QStringLiteral("book")));
    s.view()->setHeatmapKind(AttentionMatrix::MaskedScores);
    s.view()->setTab(ViewMode::Heatmaps);
    s.view()->setStageByName(QStringLiteral("attn_scores.masked"));
    QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
    s.view()->setHead(1);
    s.view()->setBatchIndex(1);
}

} // namespace

class TestUiSessions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab")).clear();
    }

    void sameStateSavedTwiceGivesIdenticalBytes()
    {
        Session s;
        setUpBookState(s);
        const QString a = dir_.filePath("a.attnlab.json"), b = dir_.filePath("b.attnlab.json");
        QString error;
        QVERIFY2(saveSessionFile(a, captureState(s), sessionFeatures(), &error), qPrintable(error));
        QVERIFY2(saveSessionFile(b, captureState(s), sessionFeatures(), &error), qPrintable(error));
        QCOMPARE(readAll(a), readAll(b));

        const QJsonObject o = QJsonDocument::fromJson(readAll(a)).object();
        QCOMPARE(o.value("format").toString(), QStringLiteral("attention-lab-session"));
        QCOMPARE(o.value("version").toInt(), 3);
        const QJsonObject settings = o.value("settings").toObject(), view = o.value("view").toObject();
        QCOMPARE(settings.value("call").toString(),
                 QStringLiteral("MultiHeadAttention(d_in=3, d_out=2, context_length=6, dropout=0.0, num_heads=2, "
                                "qkv_bias=False)"));
        QCOMPARE(settings.value("batch").toInt(), 2);
        QCOMPARE(settings.value("tokens").toInt(), 6);
        QCOMPARE(settings.value("seed").toInt(), 123);
        QCOMPARE(settings.value("input").toString(), QStringLiteral("book"));
        QCOMPARE(settings.value("weights").toObject().value("source").toString(), QStringLiteral("seeded"));
        QCOMPARE(view.value("stage").toString(), QStringLiteral("attn_scores.masked"));
        QCOMPARE(view.value("head").toInt(), 1);
        QCOMPARE(view.value("batch_index").toInt(), 1);
        QCOMPARE(view.value("tab").toString(), QStringLiteral("heatmaps"));
        QCOMPARE(view.value("heatmap").toString(), QStringLiteral("masked_scores"));
    }

    void openingAFileRestoresTheWholeState()
    {
        Session original;
        setUpBookState(original);
        const QString path = dir_.filePath("round.attnlab.json");
        QVERIFY(saveSessionFile(path, captureState(original), sessionFeatures(), nullptr));

        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // GPT-2 small, stepper, head 0
        MainWindow window(&s);
        SettingsHistory history(s.document());
        FileActions files(&window, &s, &history);
        QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
        QString error;
        QVERIFY2(files.openFile(path, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(idle(s) && s.trace()->trace()->config.d_in == 3 && s.view()->head() == 1, 30000);
        QCOMPARE(s.document()->config(), original.document()->config());
        QCOMPARE(s.document()->batch(), 2);
        QVERIFY(s.document()->usesBookInput());
        QCOMPARE(QString::fromStdString(s.view()->stage()->name), QStringLiteral("attn_scores.masked"));
        QCOMPARE(s.view()->batchIndex(), 1);
        QCOMPARE(s.view()->tab(), ViewMode::Heatmaps);
        QCOMPARE(s.view()->heatmapKind(), AttentionMatrix::MaskedScores);
        QCOMPARE(serializeSession(captureState(s), sessionFeatures()), readAll(path));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("round.attnlab.json")));
        QCOMPARE(FileActions::recentFiles().value(0), QFileInfo(path).absoluteFilePath());
        QCOMPARE(history.stack()->count(), 0); // a new document starts a new history
    }

    // Version 3 keeps what a student expects to reopen besides the settings: the colour scale, the
    // trade-offs section, where they are in the guided lessons and what they passed, the compared recording.
    void versionThreeKeepsScaleSectionGuideAndComparison()
    {
        Session s;
        setUpBookState(s);
        s.view()->setHeatmapScale(HeatmapScaleMode::Log);
        s.view()->setTradeoffsSection(TradeoffsSection::Measured);
        s.view()->setGuide(GuideState{QStringLiteral("gpt2-split"), 2, {0, 1}});
        SessionState state = captureState(s);
        state.features.insert("comparison", QJsonObject{{"path", dir_.filePath("gone.safetensors")}, {"num_heads", 2}});
        const QByteArray bytes = serializeSession(state, sessionFeatures());
        const QJsonObject o = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(o.value("view").toObject().value("heatmap_scale").toString(), QStringLiteral("log"));
        QCOMPARE(o.value("view").toObject().value("tradeoffs").toString(), QStringLiteral("measured"));
        QCOMPARE(o.value("guide").toObject().value("step").toInt(), 2);
        QCOMPARE(o.value("comparison").toObject().value("num_heads").toInt(), 2);

        QString error;
        const auto back = parseSession(bytes, sessionFeatures(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->view.heatmapScale, HeatmapScaleMode::Log);
        QCOMPARE(back->view.tradeoffsSection, TradeoffsSection::Measured);
        QCOMPARE(back->view.guide, state.view.guide);
        QCOMPARE(back->features.value("comparison"), state.features.value("comparison"));
        QCOMPARE(serializeSession(*back, sessionFeatures()), bytes);

        // Applied to a fresh session: every part arrives; a recording that is gone says so inline.
        Session fresh;
        applyState(fresh, *back);
        QVERIFY(testing::waitUntilSettled(fresh));
        QCOMPARE(fresh.view()->heatmapScale(), HeatmapScaleMode::Log);
        QCOMPARE(fresh.view()->tradeoffsSection(), TradeoffsSection::Measured);
        QCOMPARE(fresh.view()->guide(), state.view.guide);
        QVERIFY(!fresh.feature<DebugState>()->yourCode()->comparison()->hasResult());
        QVERIFY2(
            fresh.feature<DebugState>()->yourCode()->comparison()->error().contains(QStringLiteral("gone.safetensors")),
            qPrintable(fresh.feature<DebugState>()->yourCode()->comparison()->error()));
    }

    // A file the previous version wrote (version 2: no scale, section, guide or comparison) still opens,
    // with those parts at their defaults.
    void versionTwoFilesStillOpen()
    {
        Session s;
        setUpBookState(s);
        QJsonObject o = QJsonDocument::fromJson(serializeSession(captureState(s), sessionFeatures())).object();
        o.insert("version", 2);
        QJsonObject view = o.value("view").toObject();
        view.remove("heatmap_scale");
        view.remove("tradeoffs");
        o.insert("view", view);
        o.remove("guide");
        QString error;
        const auto back = parseSession(QJsonDocument(o).toJson(), sessionFeatures(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->view.heatmapScale, HeatmapScaleMode::Auto);
        QCOMPARE(back->view.tradeoffsSection, TradeoffsSection::Counted);
        QCOMPARE(back->view.guide, GuideState{});
        QCOMPARE(back->view.stage, QStringLiteral("attn_scores.masked"));
        QCOMPARE(back->document.spec.batch, 2);
        // Version 2 ignores parts it never had, even when someone left them in.
        view.insert("heatmap_scale", QStringLiteral("not-a-scale"));
        o.insert("view", view);
        QVERIFY(parseSession(QJsonDocument(o).toJson(), sessionFeatures(), &error));
        o.insert("version", 3);
        QVERIFY(!parseSession(QJsonDocument(o).toJson(), sessionFeatures(), &error));
        QVERIFY2(error.contains(QStringLiteral("heatmap_scale")), qPrintable(error));
    }

    void badTruncatedOrNewerFilesAreRefusedAndTheStateKept_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        Session s;
        setUpBookState(s);
        const QByteArray good = serializeSession(captureState(s), sessionFeatures());
        QByteArray newer = good;
        newer.replace("\"version\": 3", "\"version\": 4");
        QByteArray wrongFormat = good;
        wrongFormat.replace("attention-lab-session", "something-else");
        QByteArray badCall = good;
        badCall.replace("MultiHeadAttention(d_in=3", "MultiHeadAttention(d_in=three");
        QByteArray badHead = good;
        badHead.replace("\"head\": 1", "\"head\": -4");
        QTest::newRow("truncated") << good.left(good.size() / 2) << QStringLiteral("not valid JSON");
        QTest::newRow("not json") << QByteArray("\x89PNG garbage") << QStringLiteral("not valid JSON");
        QTest::newRow("newer") << newer << QStringLiteral("newer Attention Lab");
        QTest::newRow("other format") << wrongFormat << QStringLiteral("not an Attention Lab session");
        QTest::newRow("bad call") << badCall << QStringLiteral("\"call\" does not parse");
        QTest::newRow("bad head") << badHead << QStringLiteral("\"head\" must be a whole number");
        QTest::newRow("array") << QByteArray("[1, 2]") << QStringLiteral("not an object");
    }

    void badTruncatedOrNewerFilesAreRefusedAndTheStateKept()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const QString path = dir_.filePath("bad.attnlab.json");
        writeAll(path, bytes);

        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        MainWindow window(&s);
        SettingsHistory history(s.document());
        FileActions files(&window, &s, &history);
        QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
        const QByteArray before = serializeSession(captureState(s), sessionFeatures());
        testing::PartsSpy spy(s);
        QString error;
        QVERIFY(!files.openFile(path, &error));
        QVERIFY2(error.contains(says), qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("bad.attnlab.json was not opened: ")), qPrintable(error));
        QVERIFY(error.endsWith(QLatin1Char('.')) && !error.contains(QLatin1Char('\n')));
        QCOMPARE(spy.count(), 0); // nothing was touched
        QCOMPARE(serializeSession(captureState(s), sessionFeatures()), before);
        QVERIFY(files.currentPath().isEmpty());
    }

    void aMissingFileIsRefused()
    {
        QString error;
        QVERIFY(!loadSessionFile(dir_.filePath("nowhere.attnlab.json"), sessionFeatures(), &error));
        QVERIFY2(error.startsWith(QStringLiteral("Could not open")), qPrintable(error));
    }

    void theLastStateComesBackOnStartUnlessTheCommandLineNamesOne()
    {
        Session previous;
        setUpBookState(previous);
        MainWindow window(&previous);
        AppShell::rememberState(window, previous, true);

        QCommandLineParser parser;
        addShellOptions(parser);
        QVERIFY(parser.parse({QStringLiteral("attention-lab")}));
        Session next;
        next.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        QVERIFY(applyStartupState(parser, next).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(idle(next) && next.trace()->trace()->config.d_in == 3 && next.view()->head() == 1,
                                 30000);
        QCOMPARE(serializeSession(captureState(next), sessionFeatures()),
                 serializeSession(captureState(previous), sessionFeatures()));

        QCommandLineParser named; // --open names the state: the remembered one stays put
        addShellOptions(named);
        QVERIFY(named.parse(
            {QStringLiteral("attention-lab"), QStringLiteral("--open"), dir_.filePath("nowhere.attnlab.json")}));
        Session third;
        const QString refused = applyStartupState(named, third);
        QVERIFY2(refused.contains(QStringLiteral("nowhere.attnlab.json")), qPrintable(refused));
        QCOMPARE(third.document()->config().d_in, 768);
    }

    void commandLineOpenAndSaveSessionRoundTrip()
    {
        const QString a = dir_.filePath("cli-a.attnlab.json"), b = dir_.filePath("cli-b.attnlab.json");
        auto run = [&](const QStringList& args, QByteArray* err = nullptr) {
            const testing::GuiRun r =
                testing::runGui(args, dir_.filePath("config"), 60000); // never the user's settings
            if (err)
                *err = r.err.toUtf8();
            return r.code;
        };
        QCOMPARE(run({"--preset", "book", "--stage", "attn_weights", "--head", "1", "--save-session", a}), 0);
        const QJsonObject view = QJsonDocument::fromJson(readAll(a)).object().value("view").toObject();
        QCOMPARE(view.value("stage").toString(), QStringLiteral("attn_weights"));
        QCOMPARE(view.value("head").toInt(), 1);
        QCOMPARE(view.value("tab").toString(), QStringLiteral("heatmaps"));
        QCOMPARE(run({"--open", a, "--save-session", b}), 0);
        QCOMPARE(readAll(b), readAll(a));

        // Options given with --open apply on top of the file.
        const QString c = dir_.filePath("cli-c.attnlab.json");
        QCOMPARE(run({"--open", a, "--tokens", "4", "--save-session", c}), 0);
        QCOMPARE(QJsonDocument::fromJson(readAll(c)).object().value("settings").toObject().value("tokens").toInt(), 4);

        const QString bad = dir_.filePath("cli-bad.attnlab.json");
        writeAll(bad, readAll(a).left(40));
        QByteArray err;
        QCOMPARE(run({"--open", bad, "--save-session", c}, &err), 1);
        QVERIFY2(err.contains("cli-bad.attnlab.json was not opened: it is not valid JSON"), err.constData());
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestUiSessions)
#include "test_ui_sessions.moc"
