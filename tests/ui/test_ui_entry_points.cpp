// No exception ends the program at any of its entry points: an event handler or slot (the application's
// notify), a worker thread (LatestWorker), start-up (main), and a job's computation (out of memory is a
// sentence, not "std::bad_alloc"). And what once aborted the app: a session naming a layer its model does
// not have, and a text far longer than the Text input reads, now open with an inline error or are refused
// in one sentence -- through the Session and through the real program.
#include "common/gui_runner.h"
#include "common/process_measure.h"
#include "common/session_fixtures.h"
#include "common/sparse_files.h"
#include "gpt/gpt_input.h"
#include "model/job_failure.h"
#include "model/latest_worker.h"
#include "common/session_parts.h"
#include "features/tradeoffs/trained_variants.h"
#include "shell/guarded_application.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <stdexcept>

#include <sys/stat.h>

using namespace attnlab;
using namespace attnlab::ui;
using testing::waitUntilSettled;

namespace {

// Throws what it is told to from its event handler, as a slot calling the engine might.
class Thrower : public QObject {
public:
    int kind = 0;
    bool event(QEvent* e) override
    {
        if (e->type() != QEvent::User)
            return QObject::event(e);
        if (kind == 0)
            throw std::runtime_error("the engine said no.");
        if (kind == 1)
            throw std::bad_alloc();
        throw 42;
    }
};

QByteArray textSession(int layer, const QString& text)
{
    const QJsonObject settings{
        {"batch", 1},
        {"call", "MultiHeadAttention(d_in=128, d_out=128, context_length=64, dropout=0.0, num_heads=4, "
                 "qkv_bias=False)"},
        {"input", "text"},
        {"memory_budget_bytes", 2147483648.0},
        {"seed", 123},
        {"tokens", 4},
        {"training", false},
        {"weights", QJsonObject{{"source", "seeded"}}},
        {"text_input", QJsonObject{{"text", text},
                                   {"model", QStringLiteral(ATTNLAB_MODELS_DIR "/verdict-gpt-h4.safetensors")},
                                   {"layer", layer}}},
    };
    const QJsonObject view{
        {"batch_index", 0}, {"head", 0}, {"heatmap", "weights"}, {"stage", "attn_weights"}, {"tab", "stepper"}};
    return QJsonDocument(
               QJsonObject{{"format", "attention-lab-session"}, {"version", 1}, {"settings", settings}, {"view", view}})
        .toJson();
}

bool hasDiagnostic(const Session& s, DiagnosticCode code, const QString& phrase)
{
    for (const auto& d : s.trace()->diagnostics())
        if (d.code == code && QString::fromStdString(d.message).contains(phrase))
            return true;
    return false;
}

} // namespace

class TestUiEntryPoints : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eventHandlerExceptions_data();
    void eventHandlerExceptions();
    void slotInTheEventLoop();
    void workerTaskThatThrows();
    void outOfMemoryIsASentence();
    void layerBeyondTheModel_data();
    void layerBeyondTheModel();
    void trainedVariantsOfADeeperLayer();
    void textTooLong();
    void programOpensABadLayer_data();
    void programOpensABadLayer();
    void programRefusesAHugeText();
    void pollOptionsRefused_data();
    void pollOptionsRefused();
    void longValuesAreNotEchoedWhole_data();
    void longValuesAreNotEchoedWhole();
    void weightsReadOnlyWhatTheyUse_data();
    void weightsReadOnlyWhatTheyUse();

private:
    QTemporaryDir tmp_;
};

void TestUiEntryPoints::eventHandlerExceptions_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("sentence");
    QTest::newRow("engine-error") << 0 << QStringLiteral("the engine said no.");
    QTest::newRow("bad-alloc") << 1 << outOfMemorySentence();
    QTest::newRow("not-an-exception-class") << 2 << unknownFailureSentence();
}

void TestUiEntryPoints::eventHandlerExceptions()
{
    QFETCH(int, kind);
    QFETCH(QString, sentence);
    auto* app = qobject_cast<GuardedApplication*>(QCoreApplication::instance());
    QVERIFY(app);
    QSignalSpy failed(app, &GuardedApplication::failed);
    Thrower thrower;
    thrower.kind = kind;
    QEvent event(QEvent::User);
    QVERIFY(QCoreApplication::sendEvent(&thrower, &event)); // returns: the exception stopped in notify()
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().toString(), sentence);
}

void TestUiEntryPoints::slotInTheEventLoop()
{
    auto* app = qobject_cast<GuardedApplication*>(QCoreApplication::instance());
    QSignalSpy failed(app, &GuardedApplication::failed);
    bool after = false;
    QTimer::singleShot(0, app, [] { throw std::runtime_error("a slot threw."); });
    QTimer::singleShot(20, app, [&after] { after = true; });
    QTRY_VERIFY(after); // the loop went on to the next event
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().toString(), QStringLiteral("a slot threw."));
}

void TestUiEntryPoints::workerTaskThatThrows()
{
    LatestWorker worker;
    worker.request([](const std::atomic<bool>*) -> LatestWorker::Delivery { throw 7; });
    QTRY_VERIFY(!worker.busy()); // the pool thread survived and the worker is free again
    bool delivered = false;
    worker.request([&delivered](const std::atomic<bool>*) -> LatestWorker::Delivery {
        return [&delivered](LatestWorker::Outcome) { delivered = true; };
    });
    QTRY_VERIFY(delivered);
    worker.runHere([](const std::atomic<bool>*) -> LatestWorker::Delivery { throw std::runtime_error("here"); });
    QTRY_VERIFY(!worker.busy());
}

void TestUiEntryPoints::outOfMemoryIsASentence()
{
    const QString s = failureSentence(std::bad_alloc());
    QVERIFY(!s.contains(QLatin1String("bad_alloc")));
    QVERIFY(s.endsWith(QLatin1Char('.')));
    QCOMPARE(failureSentence(std::runtime_error("as the engine put it.")), QStringLiteral("as the engine put it."));
}

void TestUiEntryPoints::layerBeyondTheModel_data()
{
    QTest::addColumn<int>("layer");
    QTest::newRow("layer-2") << 2;
    QTest::newRow("layer-9") << 9;
    QTest::newRow("layer-10000") << 10000;
}

void TestUiEntryPoints::layerBeyondTheModel()
{
    QFETCH(int, layer);
    Session s;
    s.trace()->useTrainedModel(4, 0);
    QVERIFY(waitUntilSettled(s));
    s.document()->setGptLayer(layer);
    QVERIFY(waitUntilSettled(s));
    QVERIFY(hasDiagnostic(s, DiagnosticCode::LayerMissing,
                          QStringLiteral("layer %1 does not exist; verdict-gpt-h4 has layers 0 to 1.").arg(layer)));
    // The variants' panel asks each model for the same layer: each says it has none, none throws.
    const TrainedVariants& v = s.feature<TradeoffsState>()->trainedVariants(s.document()->spec().text, layer);
    QVERIFY(!v.variants.empty());
    for (const auto& variant : v.variants)
        QVERIFY2(variant.error.contains(QLatin1String("does not exist")), qPrintable(variant.error));
    s.document()->setGptLayer(1);
    QVERIFY(waitUntilSettled(s));
    QVERIFY(!hasDiagnostic(s, DiagnosticCode::LayerMissing, QString()));
}

void TestUiEntryPoints::trainedVariantsOfADeeperLayer()
{
    const TrainedVariants v = computeTrainedVariants("I HAD always thought", 1);
    QVERIFY(!v.variants.empty());
    for (const auto& variant : v.variants) {
        QVERIFY2(variant.error.isEmpty(), qPrintable(variant.error));
        QVERIFY(variant.trace);
    }
}

void TestUiEntryPoints::textTooLong()
{
    QVERIFY(!text_problem(std::string(kLongestText, 'a')));
    const auto problem = text_problem(std::string(kLongestText + 1, 'a'));
    QVERIFY(problem);
    QVERIFY(QString::fromStdString(*problem).contains(QStringLiteral("at most %1").arg(kLongestText)));
    Session s;
    s.trace()->useTrainedModel(4, 0);
    s.trace()->setInputText(QString(int(kLongestText) + 1, QLatin1Char('a')));
    QVERIFY(waitUntilSettled(s));
    QVERIFY(hasDiagnostic(s, DiagnosticCode::TextUnusable, QStringLiteral("at most")));
}

void TestUiEntryPoints::programOpensABadLayer_data()
{
    layerBeyondTheModel_data();
}

void TestUiEntryPoints::programOpensABadLayer()
{
    QFETCH(int, layer);
    const QString path = tmp_.filePath(QStringLiteral("layer-%1.attnlab.json").arg(layer));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(textSession(layer, QStringLiteral("I HAD always thought")));
    f.close();
    const QString shot = tmp_.filePath(QStringLiteral("layer-%1.png").arg(layer));
    const testing::GuiRun run = testing::runGui({"--open", path, "--screenshot", shot}, tmp_.path());
    QVERIFY2(run.code == 0, qPrintable(run.err)); // it used to abort on an uncaught Error
    QVERIFY(QFileInfo(shot).size() > 1000);
}

void TestUiEntryPoints::programRefusesAHugeText()
{
    const QString path = tmp_.filePath(QStringLiteral("huge-text.attnlab.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(textSession(0, QString(2400000, QLatin1Char('w')).replace(QLatin1String("wwwww"), "word ")));
    f.close();
    QElapsedTimer clock;
    clock.start();
    const testing::GuiRun run =
        testing::runGui({"--open", path, "--screenshot", tmp_.filePath(QStringLiteral("h.png"))}, tmp_.path());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains(QLatin1String("the Text input takes at most")), qPrintable(run.err));
    QVERIFY(!QFileInfo::exists(tmp_.filePath(QStringLiteral("h.png"))));
    qInfo("a 2.4 MB text refused in %lld ms", static_cast<long long>(clock.elapsed()));

    const testing::GuiRun cli =
        testing::runGui({"--model", "h4", "--text", QString(int(kLongestText) + 10, QLatin1Char('a')), "--screenshot",
                         tmp_.filePath(QStringLiteral("t.png"))},
                        tmp_.path());
    QCOMPARE(cli.code, 1);
    QVERIFY2(cli.err.contains(QLatin1String("--text: the text is")), qPrintable(cli.err));
}

void TestUiEntryPoints::pollOptionsRefused_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("port-without-poll") << QStringList{"--class-port", "8642"} << "--class-port needs --ask-class.";
    QTest::newRow("log-without-poll") << QStringList{"--class-log", "x.jsonl"} << "--class-log needs --ask-class.";
    QTest::newRow("port-too-big") << QStringList{"--ask-class", "--class-port", "70000"}
                                  << "from 0 (any free port) to 65535";
    QTest::newRow("port-negative") << QStringList{"--ask-class", "--class-port", "-1"}
                                   << "from 0 (any free port) to 65535";
    QTest::newRow("address-not-ip") << QStringList{"--ask-class", "--class-address", "nowhere"} << "an IP address";
    QTest::newRow("address-not-here") << QStringList{"--ask-class", "--class-address", "192.0.2.77"}
                                      << "not an address of this computer";
    QTest::newRow("code-short") << QStringList{"--ask-class", "--class-code", "ab"} << "4 to 8 letters or digits";
    QTest::newRow("code-markup") << QStringList{"--ask-class", "--class-code", "<b>x</b>"}
                                 << "4 to 8 letters or digits";
    QTest::newRow("code-long") << QStringList{"--ask-class", "--class-code", QString(100000, QLatin1Char('q'))}
                               << "more characters";
    QTest::newRow("log-in-no-folder") << QStringList{"--ask-class", "--class-log", "/nonexistent/x/class.jsonl"}
                                      << "Could not open the class log";
    // A FIFO would have the app wait for a reader forever; a folder or a device is no log either.
    QTest::newRow("log-fifo") << QStringList{"--ask-class", "--class-log", "{tmp}/class.fifo"} << "FIFO";
    QTest::newRow("log-folder") << QStringList{"--ask-class", "--class-log", "{tmp}"} << "directory";
    QTest::newRow("log-device") << QStringList{"--ask-class", "--class-log", "/dev/null"} << "not a regular file";
    QTest::newRow("log-link") << QStringList{"--ask-class", "--class-log", "{tmp}/class.link"} << "symbolic link";
}

void TestUiEntryPoints::pollOptionsRefused()
{
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    const QString fifo = tmp_.filePath(QStringLiteral("class.fifo")),
                  link = tmp_.filePath(QStringLiteral("class.link"));
    if (!QFileInfo::exists(fifo))
        QCOMPARE(::mkfifo(qPrintable(fifo), 0600), 0);
    if (!QFileInfo(link).isSymLink())
        QVERIFY(QFile::link(tmp_.filePath(QStringLiteral("real.jsonl")), link));
    args.replaceInStrings(QStringLiteral("{tmp}"), tmp_.path());
    const QString shot = tmp_.filePath(QStringLiteral("poll.png"));
    const testing::GuiRun run = testing::runGui(args + QStringList{"--screenshot", shot}, tmp_.path());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.contains(says), qPrintable(run.err.left(300)));
    QVERIFY2(run.err.size() < 400, qPrintable(run.err.left(300)));
    QVERIFY(run.out.isEmpty()); // no join address printed: nothing listens
    QVERIFY(!QFileInfo::exists(shot));
}

void TestUiEntryPoints::longValuesAreNotEchoedWhole_data()
{
    QTest::addColumn<QString>("option");
    for (const char* option : {"--stage", "--view", "--bug", "--lesson", "--theme", "--preset", "--head", "--tokens"})
        QTest::newRow(option) << QString::fromLatin1(option);
}

void TestUiEntryPoints::longValuesAreNotEchoedWhole()
{
    QFETCH(QString, option);
    const testing::GuiRun run = testing::runGui({option, QString(100000, QLatin1Char('q'))}, tmp_.path());
    QCOMPARE(run.code, 1);
    QVERIFY2(run.err.size() < 700, qPrintable(run.err.left(300)));
    QVERIFY2(run.err.contains(QLatin1String("more characters")), qPrintable(run.err.left(300)));
}

void TestUiEntryPoints::weightsReadOnlyWhatTheyUse_data()
{
    QTest::addColumn<bool>("session");
    QTest::newRow("weights-option") << false;
    QTest::newRow("session-names-the-file") << true;
}

// A state dict with an unused gigabyte tensor (a hole in a sparse file), given to the window with --weights
// or named by a session: the program reads the five tensors it uses, so its peak stays far below the
// gigabyte a reader of the whole file would hold.
void TestUiEntryPoints::weightsReadOnlyWhatTheyUse()
{
    QFETCH(bool, session);
    const QString weights = tmp_.filePath(QStringLiteral("mha-plus-huge.safetensors"));
    QVERIFY(testing::write_tensors(weights, testing::mha_state_dict(), true));
    const QString shot = tmp_.filePath(QStringLiteral("weights.png"));
    QStringList args{"--screenshot", shot};
    if (session) {
        QJsonObject s = QJsonDocument::fromJson(textSession(0, QStringLiteral("unused"))).object();
        QJsonObject settings = s["settings"].toObject();
        settings["input"] = "random";
        settings.remove("text_input");
        settings["call"] = "MultiHeadAttention(d_in=3, d_out=2, context_length=6, dropout=0.0, num_heads=2)";
        settings["tokens"] = 6;
        settings["weights"] = QJsonObject{{"source", "file"}, {"path", weights}, {"layout", "torch"}};
        s["settings"] = settings;
        const QString path = tmp_.filePath(QStringLiteral("weights.attnlab.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(s).toJson());
        f.close();
        args << "--open" << path;
    } else {
        args << "--call"
             << "MultiHeadAttention(3, 2, 6, 0.0, 2)"
             << "--weights" << weights;
    }
    const Measured m = measure_process(QStringLiteral(ATTNLAB_GUI_PATH), args,
                                       {"QT_QPA_PLATFORM=offscreen", "XDG_CONFIG_HOME=" + tmp_.path()});
    QVERIFY2(m.code == 0, qPrintable(m.err));
    QVERIFY(QFileInfo(shot).size() > 1000);
    QVERIFY2(m.peak_rss_bytes < 512ll << 20, qPrintable(QStringLiteral("peak %1 MB").arg(m.peak_rss_bytes >> 20)));
}

int main(int argc, char** argv)
{
    GuardedApplication app(argc, argv); // the application the program runs under, notify() and all
    TestUiEntryPoints test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_entry_points.moc"
