// A session saved after a sweep keeps every finished run's model (features/tradeoffs/sweep_run_models.h): opened in
// a Session that never trained, each run has its weights bit for bit, studying one shows the same attention as before
// saving (to within the engine's own last-bit differences), and saving it again gives the same bytes. A model that
// cannot be read -- not base64, cut short, another run's, a hostile header, too large -- leaves only its run without
// one, said in one sentence naming the run; files from before models were kept open as they did. Through the program:
// --train then --save-session keeps the models, and the saved file opens for --screenshot.
#include "common/gui_runner.h"
#include "common/session_parts.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_run_models.h"
#include "forward/trace.h"
#include "model/model_job.h"
#include "model/session_file.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// Induction at emb 8, 2 and 4 heads, one seed, 30 steps: a second's training.
SweepSettings tinySweep()
{
    SweepSettings s = sweepDefaults("induction");
    s.emb = 8;
    s.layers = 2;
    s.heads = {2, 4};
    s.seeds = 1;
    s.steps = 30;
    s.batch = 8;
    return s;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject{};
}

void writeJson(const QString& path, const QJsonObject& o)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QJsonDocument(o).toJson());
}

// The "model" of the file's run `index`.
QJsonValue modelOf(const QJsonObject& file, int index)
{
    return file.value("sweep").toObject().value("runs").toArray().at(index).toObject().value("model");
}

// The file's run `index` with its "model" replaced (removed when `model` is undefined).
QJsonObject withModel(QJsonObject file, int index, const QJsonValue& model)
{
    QJsonObject sweep = file.value("sweep").toObject();
    QJsonArray runs = sweep.value("runs").toArray();
    QJsonObject run = runs[index].toObject();
    if (model.isUndefined())
        run.remove("model");
    else
        run.insert("model", model);
    runs[index] = run;
    sweep.insert("runs", runs);
    file.insert("sweep", sweep);
    return file;
}

// The attention weights of the model under study, once the trace of it is in.
std::vector<float> studiedAttention(Session& s, int run)
{
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    const QString problem = s.feature<TradeoffsState>()->studySweepRun(run);
    if (!problem.isEmpty() || !opened.wait(30000))
        return {};
    // Settled: the trace of the opened model is in (not the one from before it, still shown while it computes).
    bool settled = false;
    QObject context;
    s.whenSettled(&context, [&settled] { settled = true; });
    if (!QTest::qWaitFor([&] { return settled; }, 30000) || !s.trace()->usesOpenedModel())
        return {};
    return s.trace()->trace()->find(stage::attn_weights)->tensor.to_vector();
}

} // namespace

class TestUiSessionModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelsReopenBitForBit();
    void studiedModelShowsTheSameAttention();
    void aBadModelLeavesOnlyItsRunWithout_data();
    void aBadModelLeavesOnlyItsRunWithout();
    void sessionsFromBeforeOpenAsTheyDid();
    void theStudiedRunReopensStudied();
    void modelsBeyondTheAllowanceAreLeftOut();
    void theProgramKeepsTheModelsItTrained();

private:
    QTemporaryDir dir_;
    QString saved_; // the tiny sweep's session, with its models
    SweepResults trained_;
    std::vector<float> attentionBefore_; // the 4-head run studied before saving
};

void TestUiSessionModels::initTestCase()
{
    QVERIFY(dir_.isValid());
    saved_ = dir_.filePath(QStringLiteral("tiny.attnlab.json"));
    Session s;
    SweepJob* job = s.feature<TradeoffsState>()->sweep();
    QSignalSpy finished(job, &SweepJob::finished);
    QVERIFY(job->start(tinySweep()));
    QVERIFY(finished.wait(60000));
    trained_ = job->results();
    QCOMPARE(trained_.runs.size(), std::size_t{2});
    for (const SweepRun& r : trained_.runs)
        QVERIFY(r.finished && r.params);
    QString error;
    QVERIFY2(saveSessionFile(saved_, captureState(s), sessionFeatures(), &error), qPrintable(error));
    attentionBefore_ = studiedAttention(s, 1);
    QVERIFY(!attentionBefore_.empty());
}

void TestUiSessionModels::modelsReopenBitForBit()
{
    QString error;
    const auto state = loadSessionFile(saved_, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    Session t; // never trained
    applyState(t, *state);
    const SweepResults& r = t.feature<TradeoffsState>()->sweep()->results();
    QCOMPARE(r.runs.size(), trained_.runs.size());
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
        QVERIFY(r.runs[i].params);
        QVERIFY(r.runs[i].modelProblem.isEmpty());
        QVERIFY(sameBits(*r.runs[i].params, *trained_.runs[i].params));
    }
    // Saved again, the same bytes; and the model it writes is the file Save Model writes.
    const QString again = dir_.filePath(QStringLiteral("again.attnlab.json"));
    QVERIFY2(saveSessionFile(again, captureState(t), sessionFeatures(), &error), qPrintable(error));
    QFile a(saved_), b(again);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(b.readAll(), a.readAll());
    const QString model = dir_.filePath(QStringLiteral("h4.safetensors"));
    QCOMPARE(t.feature<TradeoffsState>()->saveSweepRun(1, model), QString());
    QFile m(model);
    QVERIFY(m.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromLatin1(m.readAll().toBase64()), modelOf(readJson(saved_), 1).toString());
}

void TestUiSessionModels::studiedModelShowsTheSameAttention()
{
    QString error;
    const auto state = loadSessionFile(saved_, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    Session t;
    applyState(t, *state);
    const std::vector<float> after = studiedAttention(t, 1);
    QVERIFY(!after.empty());
    // The weights are the same bits (modelsReopenBitForBit); the engine's forward itself may differ in the last bit
    // between two studies of one file (the order of its sums), so the attention is compared to within a few ulps.
    QCOMPARE(after.size(), attentionBefore_.size());
    for (std::size_t i = 0; i < after.size(); ++i)
        QVERIFY2(std::abs(after[i] - attentionBefore_[i]) <= 1e-6f, qPrintable(QString::number(i)));
}

void TestUiSessionModels::aBadModelLeavesOnlyItsRunWithout_data()
{
    QTest::addColumn<QJsonValue>("model");
    QTest::addColumn<QString>("why");
    const QJsonObject file = readJson(saved_);
    const QString good = modelOf(file, 0).toString();
    const QByteArray bytes = QByteArray::fromBase64(good.toLatin1());
    QTest::newRow("not base64") << QJsonValue(QStringLiteral("not*base64!")) << QStringLiteral("not base64");
    QTest::newRow("not text") << QJsonValue(42) << QStringLiteral("must be base64 text");
    QTest::newRow("cut short") << QJsonValue(QString::fromLatin1(bytes.left(bytes.size() / 2).toBase64()))
                               << QStringLiteral("the file may be truncated");
    QTest::newRow("empty") << QJsonValue(QString()) << QStringLiteral("too short");
    // A header length of 2^60: the checked reader refuses it before reading further.
    QByteArray hostile(8, '\0');
    hostile[7] = 0x10;
    QTest::newRow("hostile header") << QJsonValue(QString::fromLatin1(hostile.toBase64())) << QStringLiteral("header");
    // The 4-head run's model under the 2-head run: a sound file of another shape.
    QTest::newRow("another run's") << modelOf(file, 1) << QStringLiteral("another shape");
    QTest::newRow("too large") << QJsonValue(QString::fromLatin1(QByteArray(3 << 20, 'A')))
                               << QStringLiteral("more than a model of the run's shape");
}

void TestUiSessionModels::aBadModelLeavesOnlyItsRunWithout()
{
    QFETCH(QJsonValue, model);
    QFETCH(QString, why);
    const QString path = dir_.filePath(QStringLiteral("bad.attnlab.json"));
    writeJson(path, withModel(readJson(saved_), 0, model));
    QString error;
    const auto state = loadSessionFile(path, sessionFeatures(), &error); // the session opens
    QVERIFY2(state, qPrintable(error));
    Session t;
    applyState(t, *state);
    const SweepResults& r = t.feature<TradeoffsState>()->sweep()->results();
    QCOMPARE(r.runs.size(), std::size_t{2});
    QCOMPARE(sweepTable(r).size(), std::size_t{2}); // the table kept, both rows
    QVERIFY(!r.runs[0].params);
    const QString problem = r.runs[0].modelProblem;
    QVERIFY2(problem.startsWith(QStringLiteral("The model kept for 2 heads, seed 0 was not opened (its results are "
                                               "kept; train again to study it): ")),
             qPrintable(problem));
    QVERIFY2(problem.contains(why), qPrintable(problem));
    QVERIFY(!problem.contains(QLatin1Char('\n')) && problem.endsWith(QLatin1Char('.')));
    QCOMPARE(problem.count(QStringLiteral(". ")), 0);                                   // one sentence
    QVERIFY(r.runs[1].params && sameBits(*r.runs[1].params, *trained_.runs[1].params)); // the other run keeps its own
    QCOMPARE(t.feature<TradeoffsState>()->studySweepRun(0), problem); // Study says why instead of studying nothing
}

void TestUiSessionModels::sessionsFromBeforeOpenAsTheyDid()
{
    const QString path = dir_.filePath(QStringLiteral("before.attnlab.json"));
    writeJson(path, withModel(withModel(readJson(saved_), 0, QJsonValue::Undefined), 1, QJsonValue::Undefined));
    QString error;
    const auto state = loadSessionFile(path, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    Session t;
    applyState(t, *state);
    const SweepResults& r = t.feature<TradeoffsState>()->sweep()->results();
    QCOMPARE(r.runs.size(), std::size_t{2});
    for (const SweepRun& run : r.runs) {
        QVERIFY(!run.params);
        QVERIFY(run.modelProblem.isEmpty());
        QCOMPARE(run.evals.back().loss, trained_.runs[&run - r.runs.data()].evals.back().loss);
    }
    QVERIFY(t.feature<TradeoffsState>()->studySweepRun(1).contains(QStringLiteral("saved without this run's model")));
}

// Saved while a run is under study: its model file was the app's own temporary one, gone once the app quits, so the
// session names the run ("studied") and reopening studies its kept model again instead of saying the file is missing.
void TestUiSessionModels::theStudiedRunReopensStudied()
{
    QString error;
    const auto state = loadSessionFile(saved_, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    const QString path = dir_.filePath(QStringLiteral("studied.attnlab.json"));
    {
        Session s;
        applyState(s, *state);
        QVERIFY(!studiedAttention(s, 1).empty());
        QVERIFY2(saveSessionFile(path, captureState(s), sessionFeatures(), &error), qPrintable(error));
    } // its temporary model file is gone with it
    QCOMPARE(readJson(path).value("sweep").toObject().value("studied").toInt(-1), 1);
    const auto studied = loadSessionFile(path, sessionFeatures(), &error);
    QVERIFY2(studied, qPrintable(error));
    QVERIFY(!QFile::exists(studied->checkpoint));
    Session t;
    QSignalSpy opened(t.trace()->modelJob(), &ModelJob::opened);
    applyState(t, *studied);
    QVERIFY(opened.wait(30000));
    QTRY_VERIFY_WITH_TIMEOUT(t.trace()->trace() && !t.computing(), 30000);
    QVERIFY(t.trace()->usesOpenedModel());
    QCOMPARE(t.trace()->unopenedCheckpoint(), QString());
    QCOMPARE(t.trace()->modelJob()->model()->model->name, std::string("induction-h4-seed0"));
    QCOMPARE(t.trace()->modelJob()->model()->model->settings.n_heads, std::int64_t{4});
    QVERIFY(!t.trace()->hasErrors());
    // Saved again, it still names the run under study.
    const QString again = dir_.filePath(QStringLiteral("studied-again.attnlab.json"));
    QVERIFY2(saveSessionFile(again, captureState(t), sessionFeatures(), &error), qPrintable(error));
    QCOMPARE(readJson(again).value("sweep").toObject().value("studied").toInt(-1), 1);
}

// Models of more than kSessionModelBytes together: the session keeps those that fit, in the sweep's order, and says
// so; a reader with less left than a model needs refuses it by the allowance.
void TestUiSessionModels::modelsBeyondTheAllowanceAreLeftOut()
{
    SweepResults big = trained_;
    const auto weights = std::make_shared<const std::vector<float>>((std::size_t{20} << 20) / sizeof(float), 0.5f);
    big.runs.push_back(big.runs[0]);
    for (SweepRun& r : big.runs)
        r.params = weights; // three of 20 MiB each: two fit in 48 MiB
    QCOMPARE(sweepModelsKept(big), (std::vector<bool>{true, true, false}));
    const QString sentence = sweepModelsSentence(big);
    QVERIFY2(sentence.contains(QStringLiteral("keeps 2 of these 3 models")), qPrintable(sentence));
    QVERIFY2(sentence.contains(QStringLiteral("48 MiB")), qPrintable(sentence));
    QVERIFY2(sweepModelsSentence(trained_).startsWith(QStringLiteral("A saved session keeps these 2 models")),
             qPrintable(sweepModelsSentence(trained_)));
    std::uint64_t left = 100; // bytes
    QString problem;
    QVERIFY(!sweepModelFromBase64(modelOf(readJson(saved_), 0), trained_.settings, trained_.runs[0], &left, &problem));
    QVERIFY2(problem.contains(QStringLiteral("more than the 48 MiB a session keeps")), qPrintable(problem));
    QCOMPARE(left, std::uint64_t{100});
}

// The app itself: --train trains the settings of the session it opened (a file from before models were kept),
// --save-session waits for the sweep and keeps its models, lesson 9's study step uses them without training, and that
// file opens with them for --screenshot.
void TestUiSessionModels::theProgramKeepsTheModelsItTrained()
{
    const QString config = dir_.filePath(QStringLiteral("config"));
    // A session from before models were kept: its form holds the tiny sweep, which --train trains again.
    const QString untrained = dir_.filePath(QStringLiteral("untrained.attnlab.json"));
    writeJson(untrained, withModel(withModel(readJson(saved_), 0, QJsonValue::Undefined), 1, QJsonValue::Undefined));
    const QString out = dir_.filePath(QStringLiteral("trained.attnlab.json"));
    const testing::GuiRun run = testing::runGui(
        {QStringLiteral("--open"), untrained, QStringLiteral("--train"), QStringLiteral("--save-session"), out},
        config);
    QVERIFY2(run.code == 0, qPrintable(run.err));
    QString error;
    const auto state = loadSessionFile(out, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    Session t;
    applyState(t, *state);
    const SweepResults& r = t.feature<TradeoffsState>()->sweep()->results();
    QCOMPARE(r.runs.size(), std::size_t{2});
    for (const SweepRun& trainedRun : r.runs)
        QVERIFY(trainedRun.finished && trainedRun.params);
    // Lesson 9's last step entered from the command line studies the best kept model, nothing trained again (the
    // sweep's wall time is the file's), and the session saved then names the run under study.
    const QString lesson = dir_.filePath(QStringLiteral("lesson.attnlab.json"));
    const testing::GuiRun studied =
        testing::runGui({QStringLiteral("--open"), out, QStringLiteral("--guide"), QStringLiteral("several-heads"),
                         QStringLiteral("--guide-step"), QStringLiteral("4"), QStringLiteral("--save-session"), lesson},
                        config);
    QVERIFY2(studied.code == 0, qPrintable(studied.err));
    const QJsonObject lessonSweep = readJson(lesson).value("sweep").toObject();
    QCOMPARE(lessonSweep.value("wall_seconds"), readJson(out).value("sweep").toObject().value("wall_seconds"));
    QVERIFY(lessonSweep.value("studied").isDouble());
    const QString shot = dir_.filePath(QStringLiteral("shot.png"));
    const testing::GuiRun opened =
        testing::runGui({QStringLiteral("--open"), out, QStringLiteral("--screenshot"), shot}, config);
    QVERIFY2(opened.code == 0, qPrintable(opened.err));
    QVERIFY(QFile::exists(shot));
}

QTEST_MAIN(TestUiSessionModels)
#include "test_ui_session_models.moc"
