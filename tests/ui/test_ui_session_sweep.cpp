// A session file's training sweep held to train's own rules (issue 44, "Readers"): a width, depth or head count of
// 2^30, a rate of -1 or 0, a negative weight decay, the-verdict at another vocabulary, induction at context 1, 3 heads
// on emb 32, a head-report row for layer 10^9 of a 2-layer model, a head count, run or report row given twice -- each
// opened with exit 0 before. Now each is refused with one sentence naming the field, through the session API and by
// the program (`--open BAD --save-session OUT` exits 1 and writes nothing), and a settings refusal is word for word
// the sentence the window's Train gives for the same settings: one validation (core's SweepSpec::check) for the CLI's
// train, the window and the session. Files without the key/value head counts, and sweeps that compare them, open.
#include "common/gui_runner.h"
#include "common/session_parts.h"
#include "features/tradeoffs/sweep_job.h"
#include "model/presets.h"
#include "model/session_file.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <map>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

constexpr double k2to30 = 1073741824.0;

// Induction at emb 32, 2 layers, 4 heads, one seed of 100 steps, its heads measured: a sweep as the window saves it.
SweepResults goodSweep()
{
    SweepResults r;
    r.settings = sweepDefaults("induction");
    r.settings.heads = {4};
    r.settings.seeds = 1;
    r.settings.steps = 100;
    SweepRun run;
    run.heads = 4;
    run.seed = 0;
    run.evals = {{50, 1.2, 0.4}, {100, 0.9, 0.6}};
    run.stepsDone = 100;
    run.msPerStep = 1.5;
    run.finished = true;
    for (std::int64_t layer = 0; layer < 2; ++layer)
        for (std::int64_t head = 0; head < 4; ++head) {
            train::HeadStats h;
            h.layer = layer;
            h.head = head;
            h.shares.previous = 0.25;
            h.shares.first = 0.1;
            h.shares.self = 0.2;
            h.shares.induction = 0.3;
            h.shares.entropy = 1.5;
            h.ablated = {0, 1.0, 0.5};
            h.role = train::head_role(h.shares);
            run.report.push_back(h);
        }
    r.runs.push_back(run);
    r.wallSeconds = 2.0;
    return r;
}

QJsonObject sessionWith(const QJsonObject& sweep)
{
    Session s;
    s.document()->applyPreset(*findPreset(QStringLiteral("book")));
    SessionState state = captureState(s);
    state.features.insert("sweep", sweep);
    return sessionToJson(state, sessionFeatures());
}

using JsonEdit = std::function<void(QJsonObject& sweep)>;
using SettingsEdit = std::function<void(SweepSettings&)>;

// One field (or a few) of "settings" set to a value.
JsonEdit setting(std::initializer_list<std::pair<const char*, QJsonValue>> fields)
{
    std::vector<std::pair<QString, QJsonValue>> copy;
    for (const auto& [k, v] : fields)
        copy.emplace_back(QLatin1String(k), v);
    return [copy](QJsonObject& sweep) {
        QJsonObject s = sweep.value("settings").toObject();
        for (const auto& [k, v] : copy)
            s.insert(k, v);
        sweep.insert("settings", s);
    };
}

// The first run edited.
JsonEdit firstRun(std::function<void(QJsonObject&)> edit)
{
    return [edit](QJsonObject& sweep) {
        QJsonArray runs = sweep.value("runs").toArray();
        QJsonObject run = runs.at(0).toObject();
        edit(run);
        runs.replace(0, run);
        sweep.insert("runs", runs);
    };
}

struct Case {
    JsonEdit edit;
    QString phrase;        // the refusal contains it
    SettingsEdit settings; // for a settings refusal: the same settings as the window's form would give them
};

const std::map<QString, Case>& cases()
{
    static const std::map<QString, Case> all = {
        {"emb 2^30",
         {setting({{"emb", k2to30}}), QStringLiteral("GiB of activations"),
          [](SweepSettings& s) { s.emb = static_cast<std::int64_t>(k2to30); }}},
        {"layers 2^30",
         {setting({{"layers", k2to30}}), QStringLiteral("GiB of activations"),
          [](SweepSettings& s) { s.layers = static_cast<std::int64_t>(k2to30); }}},
        {"heads 2^30",
         {setting({{"emb", k2to30}, {"heads", QJsonArray{k2to30}}}), QStringLiteral("GiB of activations"),
          [](SweepSettings& s) {
              s.emb = static_cast<std::int64_t>(k2to30);
              s.heads = {static_cast<std::int64_t>(k2to30)};
          }}},
        {"lr -1",
         {setting({{"lr", -1.0}}), QStringLiteral("--lr has to be a positive number"),
          [](SweepSettings& s) { s.lr = -1; }}},
        {"lr 0",
         {setting({{"lr", 0.0}}), QStringLiteral("--lr has to be a positive number"),
          [](SweepSettings& s) { s.lr = 0; }}},
        {"negative weight decay",
         {setting({{"weight_decay", -0.01}}), QStringLiteral("--weight-decay has to be 0 or a positive number"),
          [](SweepSettings& s) { s.weightDecay = -0.01; }}},
        {"the-verdict with vocab 16",
         {setting({{"task", QStringLiteral("the-verdict")}, {"vocab", 16}}),
          QStringLiteral("--vocab 16 does not fit it"),
          [](SweepSettings& s) {
              s.task = "the-verdict";
              s.vocab = 16;
          }}},
        {"induction with context 1",
         {setting({{"context", 1}}), QStringLiteral("--context 1 does not fit induction"),
          [](SweepSettings& s) { s.context = 1; }}},
        {"heads 3 on emb 32",
         {setting({{"heads", QJsonArray{3}}}), QStringLiteral("32 is not divisible by num_heads 3"),
          [](SweepSettings& s) { s.heads = {3}; }}},
        {"head count twice",
         {setting({{"heads", QJsonArray{4, 4}}}), QStringLiteral("num_heads 4 is listed twice"),
          [](SweepSettings& s) {
              s.heads = {4, 4};
          }}},
        {"kv groups not dividing",
         {setting({{"kv_groups", QJsonArray{3}}}), QStringLiteral("num_kv_groups 3 does not divide num_heads 4"),
          [](SweepSettings& s) { s.kvGroups = {3}; }}},
        {"kv groups twice",
         {setting({{"kv_groups", QJsonArray{2, 2}}}), QStringLiteral("num_kv_groups 2 is listed twice"),
          [](SweepSettings& s) {
              s.kvGroups = {2, 2};
          }}},
        {"report layer 10^9 of 2",
         {firstRun([](QJsonObject& run) {
              QJsonArray report = run.value("report").toArray();
              QJsonArray row = report.at(0).toArray();
              row.replace(0, 1e9);
              report.replace(0, row);
              run.insert("report", report);
          }),
          QStringLiteral("\"report\" of \"sweep\" has a row for layer 1000000000 head 0"),
          {}}},
        {"report row twice",
         {firstRun([](QJsonObject& run) {
              QJsonArray report = run.value("report").toArray();
              report.replace(1, report.at(0));
              run.insert("report", report);
          }),
          QStringLiteral("\"report\" of \"sweep\" has two rows for layer 0 head 0"),
          {}}},
        {"run twice",
         {[](QJsonObject& sweep) {
              QJsonArray runs = sweep.value("runs").toArray();
              runs.append(runs.at(0));
              sweep.insert("runs", runs);
          },
          QStringLiteral("\"runs\" of \"sweep\" lists the run of 4 heads, seed 0 twice"),
          {}}},
        {"run of heads not trained",
         {firstRun([](QJsonObject& run) {
              run.insert("heads", 2);
              QJsonArray report;
              run.insert("report", report);
          }),
          QStringLiteral("a run of 2 heads, seed 0, which its settings do not train"),
          {}}},
        {"run of seed beyond seeds",
         {firstRun([](QJsonObject& run) { run.insert("seed", 5); }),
          QStringLiteral("seed 5, which its settings do not train"),
          {}}},
        {"report of 7 columns without why",
         {firstRun([](QJsonObject& run) {
              QJsonArray report;
              for (const QJsonValue& row : run.value("report").toArray()) {
                  QJsonArray cut = row.toArray();
                  cut.removeLast();
                  cut.removeLast();
                  report.append(cut);
              }
              run.insert("report", report);
          }),
          QStringLiteral("a list of [layer, head, previous, first, self, induction, entropy, ablated loss, ablated "
                         "accuracy]"),
          {}}},
        {"ablation skipped with ablated columns",
         {firstRun([](QJsonObject& run) { run.insert("ablation_skipped", QStringLiteral("too deep.")); }),
          QStringLiteral("(its \"ablation_skipped\" says the heads were not ablated)"),
          {}}},
        {"ablation skipped not a sentence",
         {firstRun([](QJsonObject& run) { run.insert("ablation_skipped", 3); }),
          QStringLiteral("\"ablation_skipped\" of \"sweep\" must be a sentence saying why the heads were not ablated"),
          {}}},
        {"run of kv groups not trained",
         {firstRun([](QJsonObject& run) { run.insert("kv_groups", 2); }),
          QStringLiteral("a run of 4 heads, 2 key/value heads, seed 0, which its settings do not train"),
          {}}},
    };
    return all;
}

bool oneSentence(const QString& s)
{
    return s.endsWith(QLatin1Char('.')) && !s.contains(QLatin1Char('\n')) && s.size() < 400;
}

QByteArray bytesOf(const QJsonObject& session)
{
    return QJsonDocument(session).toJson();
}

} // namespace

class TestUiSessionSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    // The control: the sweep as saved opens, in the API and in the program.
    void aGoodSweepOpens()
    {
        const QJsonObject session = sessionWith(sweepToJson(goodSweep()));
        QString error;
        const auto state = parseSession(bytesOf(session), sessionFeatures(), &error);
        QVERIFY2(state, qPrintable(error));
        const auto sweep = sweepFromJson(state->features.value("sweep").toObject(), &error);
        QVERIFY2(sweep, qPrintable(error));
        QVERIFY(*sweep == goodSweep());
    }

    void aBadSweepIsRefused_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto& [name, c] : cases())
            QTest::newRow(qPrintable(name)) << name;
    }

    void aBadSweepIsRefused()
    {
        QFETCH(QString, name);
        const Case& c = cases().at(name);
        QJsonObject sweep = sweepToJson(goodSweep());
        c.edit(sweep);
        const QByteArray bytes = bytesOf(sessionWith(sweep));
        QString error;
        QVERIFY2(!parseSession(bytes, sessionFeatures(), &error), qPrintable(name + ": opened"));
        QVERIFY2(error.contains(c.phrase), qPrintable(error));
        QVERIFY2(oneSentence(error), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("of \"sweep\"")), qPrintable(error)); // the part, then the field

        // The program: exit 1, the sentence on stderr, no session written.
        const QString path = dir_.filePath(QStringLiteral("bad.attnlab.json"));
        const QString out = dir_.filePath(QStringLiteral("out.attnlab.json"));
        QFile::remove(out);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(bytes);
        f.close();
        const testing::GuiRun run =
            testing::runGui({QStringLiteral("--open"), path, QStringLiteral("--save-session"), out},
                            dir_.filePath(QStringLiteral("config")), 60000);
        QCOMPARE(run.code, 1);
        QVERIFY(!QFile::exists(out));
        QVERIFY2(run.err.contains(error), qPrintable(run.err));
    }

    // One validation: a settings refusal is core's sentence, the one the window's Train shows for those settings.
    void theSessionSaysWhatTrainSays_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto& [name, c] : cases())
            if (c.settings)
                QTest::newRow(qPrintable(name)) << name;
    }

    void theSessionSaysWhatTrainSays()
    {
        QFETCH(QString, name);
        const Case& c = cases().at(name);
        QJsonObject sweep = sweepToJson(goodSweep());
        c.edit(sweep);
        QString error;
        QVERIFY(!parseSession(bytesOf(sessionWith(sweep)), sessionFeatures(), &error));
        SweepSettings settings = goodSweep().settings;
        c.settings(settings);
        SweepJob job;
        QVERIFY(!job.start(settings));
        QVERIFY(!job.error().isEmpty());
        QCOMPARE(error, QStringLiteral("\"settings\" of \"sweep\" could not train: %1").arg(job.error()));
        QString expanded;
        try {
            settings.spec().expand();
        } catch (const std::exception& e) {
            expanded = QString::fromUtf8(e.what());
        }
        QCOMPARE(job.error(), expanded);
    }

    // A report the sweep left unablated (core's head_report bound) keeps its shares and the sentence saying why,
    // without the ablated columns, and opens as saved.
    void anUnablatedReportIsKept()
    {
        SweepResults left = goodSweep();
        left.runs.front().ablationSkipped = "the heads were not ablated: too deep for the training.";
        for (train::HeadStats& h : left.runs.front().report)
            h.ablated = {};
        const QJsonObject json = sweepToJson(left);
        const QJsonObject run = json.value("runs").toArray().at(0).toObject();
        QCOMPARE(run.value("ablation_skipped").toString(), QString::fromStdString(left.runs.front().ablationSkipped));
        QCOMPARE(run.value("report").toArray().at(0).toArray().size(), 7);
        QString error;
        const auto back = sweepFromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(*back == left);
        QCOMPARE(back->runs.front().report.size(), std::size_t{8});
        QCOMPARE(back->runs.front().report[3].shares.induction, 0.3);
    }

    // Files from before key/value heads were compared open as the book's MultiHeadAttention; a sweep over them
    // keeps its counts, per run too, byte for byte.
    void keyValueHeadsAreKept()
    {
        SweepResults old = goodSweep();
        QJsonObject json = sweepToJson(old);
        QVERIFY(!json.value("settings").toObject().contains("kv_groups"));
        QVERIFY(!json.value("runs").toArray().at(0).toObject().contains("kv_groups"));
        QString error;
        auto back = sweepFromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->runs.front().kvHeads(), std::int64_t{4});

        SweepResults grouped = goodSweep();
        grouped.settings.kvGroups = {4, 2, 1};
        grouped.runs.clear();
        for (std::int64_t g : {4, 2, 1}) {
            SweepRun run = goodSweep().runs.front();
            run.kvGroups = g == 4 ? 0 : g;
            grouped.runs.push_back(run);
        }
        json = sweepToJson(grouped);
        QCOMPARE(json.value("settings").toObject().value("kv_groups").toArray(), (QJsonArray{4, 2, 1}));
        QVERIFY(!json.value("runs").toArray().at(0).toObject().contains("kv_groups")); // 4 of 4: MultiHeadAttention
        QCOMPARE(json.value("runs").toArray().at(2).toObject().value("kv_groups").toInt(), 1);
        back = sweepFromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(*back == grouped);
        QCOMPARE(back->runs[1].kvHeads(), std::int64_t{2});
        QCOMPARE(sweepRunFileName(*back, 2), QStringLiteral("induction-h4-kv1-seed0.safetensors"));
        QCOMPARE(sweepRunFileName(*back, 0), QStringLiteral("induction-h4-seed0.safetensors"));
        const std::vector<SweepRow> rows = sweepTable(*back);
        QCOMPARE(rows.size(), std::size_t{3});
        QCOMPARE(rows[2].kvGroups, std::int64_t{1});
        // 2 x 2 layers x 1 key/value head x head_dim 8 x 4 bytes
        QCOMPARE(rows[2].kvBytesPerToken, std::int64_t{128});
        QCOMPARE(rows[0].kvBytesPerToken, std::int64_t{512});
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestUiSessionSweep)
#include "test_ui_session_sweep.moc"
