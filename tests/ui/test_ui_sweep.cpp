// The Trade-offs tab's "Trained here": a sweep of the book's GPT over num_heads x seeds, started from the
// page's own widgets and trained by the Session's job; the table it fills, a cancel that keeps what
// finished, settings refused inline before anything trains, results that reopen with the session, and
// curves that read in every theme.
#include "common/theme_list.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_model.h"
#include "gpt/gpt_text.h"
#include "model/model_job.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_curves_widget.h"
#include "features/tradeoffs/sweep_form.h"
#include "features/tradeoffs/sweep_heads_table.h"
#include "features/tradeoffs/sweep_panel.h"
#include "features/tradeoffs/sweep_reading.h"
#include "features/tradeoffs/sweep_table.h"
#include "features/tradeoffs/tradeoffs_view.h"
#include "render/sweep_curves_painter.h"
#include "shell/main_window.h"
#include "train/gpt_params.h"

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// The smallest sweep worth reading: induction at emb 8, two head counts, one seed, 30 steps.
void fillTiny(SweepForm* form, const QString& heads = QStringLiteral("2, 4"), int steps = 30, int seeds = 1)
{
    form->task()->setCurrentText(QStringLiteral("induction"));
    form->emb()->setValue(8);
    form->layers()->setValue(2);
    form->heads()->setText(heads);
    form->seeds()->setValue(seeds);
    form->steps()->setValue(steps);
    form->batch()->setValue(8);
    form->lr()->setText(QStringLiteral("0.003"));
}

int finishedRuns(const SweepResults& r)
{
    int n = 0;
    for (const SweepRun& run : r.runs)
        n += run.finished ? 1 : 0;
    return n;
}

} // namespace

class TestUiSweep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tinySweepFillsTheTable();
    void cancelKeepsFinishedRuns();
    void divergedRunsAreSaidAsSuch();
    void badSettingsAreRefusedInline_data();
    void badSettingsAreRefusedInline();
    void resultsReopenWithTheSession();
    void trainedVariantIsStudiedInEveryTab();
    void groupedVariantsAreTrainedAndStudied();
    void trainedVariantSavesAndReopens();
    void sectionFollowsTheSession();
    void readingShowsWholeAfterALiveSweep();
    void curvesReadInEveryTheme();
    void curvesSayEveryTextWhole_data();
    void curvesSayEveryTextWhole();
    void readingFollowsTheNumbers_data();
    void readingFollowsTheNumbers();
    void timeLeftIsSaidOnlyWhenSound_data();
    void timeLeftIsSaidOnlyWhenSound();
    void unablatedHeadsSaySo();
};

void TestUiSweep::tinySweepFillsTheTable()
{
    Session s;
    SweepPanel panel(s.feature<TradeoffsState>());
    QSignalSpy started(s.feature<TradeoffsState>()->sweep(), &SweepJob::started),
        finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
    fillTiny(panel.form());
    QTest::mouseClick(panel.trainButton(), Qt::LeftButton);
    QCOMPARE(started.count(), 1);
    QVERIFY(s.feature<TradeoffsState>()->sweep()->busy());
    QVERIFY(!panel.trainButton()->isEnabled());
    QVERIFY(finished.wait(60000));
    QVERIFY(!s.feature<TradeoffsState>()->sweep()->busy());
    QVERIFY2(s.feature<TradeoffsState>()->sweep()->error().isEmpty(),
             qPrintable(s.feature<TradeoffsState>()->sweep()->error()));
    const SweepResults& r = s.feature<TradeoffsState>()->sweep()->results();
    QCOMPARE(r.runs.size(), std::size_t{2});
    QCOMPARE(finishedRuns(r), 2);
    for (const SweepRun& run : r.runs) {
        QCOMPARE(run.stepsDone, 30);
        QCOMPARE(run.evals.back().step, 30); // a measurement every 1 step (30 / 20), the last at the end
        QVERIFY(run.msPerStep > 0);
    }
    QCOMPARE(panel.table()->rowCount(), 2);
    QCOMPARE(panel.table()->item(0, 0)->text(), QStringLiteral("2"));
    QCOMPARE(panel.table()->item(0, 1)->text(), QStringLiteral("2")); // as many key/value heads as heads: MHA
    QCOMPARE(panel.table()->item(1, 2)->text(), QStringLiteral("2")); // head_dim of 4 heads at emb 8
    // KV cache per token: 2 (K and V) x 2 layers x 4 key/value heads x head_dim 2 x 4 bytes
    QCOMPARE(panel.table()->item(1, 3)->text(), QStringLiteral("128"));
    QCOMPARE(panel.table()->item(0, 6)->text(), QStringLiteral("1 of 1"));
    // One seed: no spread to show (it is unknown, not 0), said so in the cell and the reading.
    QVERIFY2(panel.table()->item(0, 4)->text().endsWith(QStringLiteral(" (1 seed)")),
             qPrintable(panel.table()->item(0, 4)->text()));
    QVERIFY(!panel.table()->item(0, 5)->text().contains(QStringLiteral("±")));
    QVERIFY2(panel.reading()->text().contains(QStringLiteral("from one seed")), qPrintable(panel.reading()->text()));
    QVERIFY(panel.table()->horizontalHeaderItem(7)->text().contains(QStringLiteral("of its best")));
    QVERIFY(!panel.table()->horizontalHeaderItem(5)->toolTip().isEmpty());
    QVERIFY2(panel.reading()->text().contains("Best:"), qPrintable(panel.reading()->text()));
    QCOMPARE(panel.curves()->curvesPainter().series().size(), std::size_t{2});
    QVERIFY(panel.trainButton()->isEnabled());
    QVERIFY(panel.errorLabel()->isHidden());
    // Every finished variant's heads are measured (core's head_report), every layer and head once, and the
    // page lists the chosen variant's with their role by core's rule and their ablated accuracy.
    for (const SweepRun& run : r.runs) {
        QCOMPARE(static_cast<std::int64_t>(run.report.size()), r.settings.layers * run.heads);
        for (const train::HeadStats& h : run.report) {
            QVERIFY(h.shares.previous >= 0 && h.shares.previous <= 1);
            QVERIFY(h.ablated.accuracy >= 0 && h.ablated.accuracy <= 1);
            QCOMPARE(h.role, train::head_role(h.shares));
        }
    }
    SweepHeadsTable* heads = panel.headsTable();
    QVERIFY(!heads->isHidden());
    QCOMPARE(heads->variant()->count(), 2);
    heads->variant()->setCurrentIndex(1); // the 4-head variant
    const SweepRun& four = r.runs[1];
    QCOMPARE(heads->table()->rowCount(), static_cast<int>(four.report.size()));
    const train::HeadStats& last = four.report.back();
    const int row = heads->table()->rowCount() - 1;
    QCOMPARE(heads->table()->item(row, 0)->text(), QString::number(last.layer));
    QCOMPARE(heads->table()->item(row, 1)->text(), QString::number(last.head));
    QCOMPARE(heads->table()->item(row, 7)->text(), QString::fromUtf8(train::role_name(last.role)));
    QCOMPARE(heads->table()->item(row, 9)->text(), QString::number(last.ablated.accuracy, 'f', 3));
}

void TestUiSweep::cancelKeepsFinishedRuns()
{
    Session s;
    SweepPanel panel(s.feature<TradeoffsState>());
    QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
    // Eight runs, two at a time: once one has finished, several have not started.
    fillTiny(panel.form(), QStringLiteral("1, 2, 4, 8"), 1500, 2);
    panel.trainButton()->click();
    QVERIFY(s.feature<TradeoffsState>()->sweep()->busy());
    QVERIFY(
        QTest::qWaitFor([&] { return finishedRuns(s.feature<TradeoffsState>()->sweep()->results()) >= 1; }, 120000));
    QTest::mouseClick(panel.cancelButton(), Qt::LeftButton);
    QVERIFY(s.feature<TradeoffsState>()->sweep()->cancelling());
    QVERIFY(finished.wait(60000));
    const SweepResults& r = s.feature<TradeoffsState>()->sweep()->results();
    QVERIFY(r.cancelled);
    const int done = finishedRuns(r);
    QVERIFY2(done >= 1 && done < 8, qPrintable(QString::number(done)));
    for (const SweepRun& run : r.runs) {
        QVERIFY(run.stepsDone > 0); // runs the cancel caught before their first step are gone
        QCOMPARE(run.finished, run.stepsDone == 1500);
    }
    QSet<std::int64_t> heads;
    for (const SweepRun& run : r.runs)
        if (run.finished)
            heads.insert(run.heads);
    QCOMPARE(panel.table()->rowCount(), heads.size());
    QVERIFY(panel.reading()->text().contains("stopped"));
}

// A learning rate of 1e30 makes every run's loss overflow: each stops where it did, keeps only finite numbers, is
// left out of the table and said in the reading ("diverged at step N ..."), never as nan; the session keeps it.
void TestUiSweep::divergedRunsAreSaidAsSuch()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("diverged.attnlab.json"));
    SweepResults trained;
    {
        Session s;
        SweepPanel panel(s.feature<TradeoffsState>());
        QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
        fillTiny(panel.form());
        panel.form()->lr()->setText(QStringLiteral("1e30"));
        panel.trainButton()->click();
        QVERIFY(finished.wait(60000));
        QVERIFY2(s.feature<TradeoffsState>()->sweep()->error().isEmpty(),
                 qPrintable(s.feature<TradeoffsState>()->sweep()->error()));
        trained = s.feature<TradeoffsState>()->sweep()->results();
        QCOMPARE(trained.runs.size(), std::size_t{2});
        for (const SweepRun& run : trained.runs) {
            QVERIFY(run.divergedAt >= 1 && run.divergedAt <= 30);
            QVERIFY(!run.finished);
            QVERIFY(run.report.empty());
            for (const train::EvalPoint& e : run.evals)
                QVERIFY(std::isfinite(e.loss));
        }
        QCOMPARE(panel.table()->rowCount(), 0);
        const QString reading = panel.reading()->text();
        QCOMPARE(reading.count(QStringLiteral("diverged at step ")), 2);
        QVERIFY2(reading.contains(QStringLiteral("try a learning rate of 0.003 or lower")), qPrintable(reading));
        QVERIFY2(!reading.contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(reading));
        QString error;
        QVERIFY2(saveSessionFile(path, captureState(s), sessionFeatures(), &error), qPrintable(error));
    }
    QString error;
    const auto state = loadSessionFile(path, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    Session t;
    SweepPanel panel(t.feature<TradeoffsState>());
    applyState(t, *state);
    QVERIFY(t.feature<TradeoffsState>()->sweep()->results() == trained);
    QCOMPARE(t.feature<TradeoffsState>()->sweep()->results().runs.front().divergedAt, trained.runs.front().divergedAt);
    QCOMPARE(panel.reading()->text().count(QStringLiteral("diverged at step ")), 2);
    // One diverged seed beside a finished one: the row counts only the finished, and says how many diverged.
    SweepResults mixed;
    mixed.settings.emb = 8;
    mixed.settings.heads = {2};
    mixed.settings.seeds = 2;
    mixed.settings.steps = 100;
    mixed.runs.push_back({2, 0, {{100, 1.5, 0.5}}, 100, 1.0, true});
    SweepRun diverged{2, 1, {}, 3, 1.0, false};
    diverged.divergedAt = 3;
    diverged.lossBefore = 2.5;
    mixed.runs.push_back(diverged);
    const std::vector<SweepRow> rows = sweepTable(mixed);
    QCOMPARE(rows.size(), std::size_t{1});
    QCOMPARE(rows[0].seedsDone, 1);
    QCOMPARE(rows[0].seedsDiverged, 1);
    QCOMPARE(rows[0].loss.mean, 1.5);
    QCOMPARE(sweepDivergences(mixed),
             QStringList{QStringLiteral("2 heads, seed 1: diverged at step 3 (loss was 2.500 before): try a learning "
                                        "rate of 0.0003 or lower")});
    const auto reread = sweepFromJson(sweepToJson(mixed), &error);
    QVERIFY2(reread, qPrintable(error));
    QVERIFY(*reread == mixed);
    QCOMPARE(reread->runs[1].lossBefore, 2.5);
}

void TestUiSweep::badSettingsAreRefusedInline_data()
{
    QTest::addColumn<int>("emb");
    QTest::addColumn<QString>("heads");
    QTest::addColumn<int>("steps");
    QTest::addColumn<QString>("lr");
    QTest::addColumn<QString>("kv");
    QTest::addColumn<QString>("sentence");
    QTest::newRow("emb not divisible") << 8 << "2, 3" << 30 << "0.003"
                                       << ""
                                       << "not divisible by num_heads 3";
    QTest::newRow("zero steps") << 8 << "2" << 0 << "0.003"
                                << ""
                                << "a run needs at least 1 step";
    QTest::newRow("zero emb") << 0 << "" << 30 << "0.003"
                              << ""
                              << "emb_dim";
    QTest::newRow("heads not numbers") << 8 << "2, two" << 30 << "0.003"
                                       << ""
                                       << "num_heads 'two'";
    QTest::newRow("heads repeated") << 8 << "2, 4, 2" << 30 << "0.003"
                                    << ""
                                    << "num_heads 2 is listed twice";
    QTest::newRow("rate not a number") << 8 << "2" << 30 << "fast"
                                       << ""
                                       << "'fast' is not a number";
    QTest::newRow("rate zero") << 8 << "2" << 30 << "0"
                               << ""
                               << "--lr has to be a positive number";
    QTest::newRow("kv groups not dividing") << 8 << "2, 4" << 30 << "0.003"
                                            << "4"
                                            << "num_kv_groups 4 does not divide num_heads 2";
    QTest::newRow("kv groups not numbers") << 8 << "4" << 30 << "0.003"
                                           << "2, one"
                                           << "num_kv_groups 'one'";
    QTest::newRow("kv groups repeated") << 8 << "4" << 30 << "0.003"
                                        << "2, 2"
                                        << "num_kv_groups 2 is listed twice";
}

void TestUiSweep::badSettingsAreRefusedInline()
{
    QFETCH(int, emb);
    QFETCH(QString, heads);
    QFETCH(int, steps);
    QFETCH(QString, lr);
    QFETCH(QString, kv);
    QFETCH(QString, sentence);
    Session s;
    SweepPanel panel(s.feature<TradeoffsState>());
    panel.show();
    QSignalSpy started(s.feature<TradeoffsState>()->sweep(), &SweepJob::started);
    fillTiny(panel.form(), heads, steps);
    panel.form()->emb()->setValue(emb);
    panel.form()->lr()->setText(lr);
    panel.form()->kvGroups()->setText(kv);
    panel.trainButton()->click();
    QCOMPARE(started.count(), 0);
    QVERIFY(!s.feature<TradeoffsState>()->sweep()->busy());
    QVERIFY(!s.feature<TradeoffsState>()->sweep()->hasResults());
    QVERIFY(panel.errorLabel()->isVisible());
    QVERIFY2(panel.errorLabel()->text().contains(sentence), qPrintable(panel.errorLabel()->text()));
}

void TestUiSweep::resultsReopenWithTheSession()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sweep.attnlab.json"));
    SweepResults trained;
    {
        Session s;
        SweepPanel panel(s.feature<TradeoffsState>());
        QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
        fillTiny(panel.form(), QStringLiteral("1, 2, 8"), 20, 2);
        panel.trainButton()->click();
        QVERIFY(finished.wait(60000));
        trained = s.feature<TradeoffsState>()->sweep()->results();
        s.view()->setTradeoffsSection(TradeoffsSection::Trained);
        QString error;
        QVERIFY2(saveSessionFile(path, captureState(s), sessionFeatures(), &error), qPrintable(error));
    }
    QString error;
    const auto state = loadSessionFile(path, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    QVERIFY(state->features.contains("sweep"));
    QCOMPARE(state->view.tradeoffsSection, TradeoffsSection::Trained);
    Session t;
    SweepPanel panel(t.feature<TradeoffsState>());
    applyState(t, *state);
    QVERIFY(!t.feature<TradeoffsState>()->sweep()->busy());
    QVERIFY(t.feature<TradeoffsState>()->sweep()->results() == trained); // curves and numbers, every run
    QCOMPARE(t.feature<TradeoffsState>()->sweep()->results().runs.size(), std::size_t{6});
    QCOMPARE(panel.table()->rowCount(), 3);
    QCOMPARE(panel.table()->item(2, 0)->text(), QStringLiteral("8"));
    QCOMPARE(panel.form()->emb()->value(), 8); // the form says what the results are of
    QCOMPARE(panel.form()->heads()->text(), QStringLiteral("1, 2, 8"));
    QCOMPARE(panel.curves()->curvesPainter().series().size(), std::size_t{3});
    QCOMPARE(panel.headsTable()->variant()->count(), 6); // the heads' measures came back with the runs
    QVERIFY(!t.feature<TradeoffsState>()->sweep()->results().runs.front().report.empty());
    // Saved again, the same bytes; a session without a sweep opens without one.
    QCOMPARE(serializeSession(captureState(t), sessionFeatures()), serializeSession(*state, sessionFeatures()));
    applyState(t, SessionState{});
    QVERIFY(!t.feature<TradeoffsState>()->sweep()->hasResults());
    QCOMPARE(panel.table()->rowCount(), 0);
}

// "Study This Model": the variant just trained becomes the model under study, its weights the run's own,
// reading its task's letters, and the overview shows its every head; results from a session file keep no
// weights, and say so instead of studying nothing.
void TestUiSweep::trainedVariantIsStudiedInEveryTab()
{
    Session s;
    SweepPanel panel(s.feature<TradeoffsState>());
    QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
    fillTiny(panel.form(), QStringLiteral("1, 4"), 20);
    panel.trainButton()->click();
    QVERIFY(finished.wait(60000));
    SweepHeadsTable* heads = panel.headsTable();
    heads->variant()->setCurrentIndex(1); // 4 heads
    QVERIFY(heads->studyButton()->isEnabled());
    const SweepRun run = s.feature<TradeoffsState>()->sweep()->results().runs[1];
    QVERIFY(run.params);
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    QTest::mouseClick(heads->studyButton(), Qt::LeftButton);
    QVERIFY(opened.wait(30000));
    QVERIFY(panel.errorLabel()->isHidden());
    QTRY_VERIFY_WITH_TIMEOUT(s.trace()->trace() && s.trace()->usesOpenedModel() && !s.computing(), 30000);
    const OpenedModel& m = *s.trace()->modelJob()->model();
    QCOMPARE(m.reader, TextReader::Letters);
    QCOMPARE(m.model->name, std::string("induction-h4-seed0"));
    QCOMPARE(m.model->settings.n_heads, std::int64_t{4});
    QCOMPARE(m.model->settings.emb_dim, std::int64_t{8});
    QCOMPARE(s.view()->tab(), ViewMode::Overview);
    QCOMPARE(s.view()->headCount(), 4);
    // The weights in the file are the run's: the first block's query weights, element for element.
    const GptLayout layout = gpt_layout(GptConfig{16, 32, 8, 2, 4, 0.0, false});
    for (const ParamEntry& e : layout.entries) {
        if (e.name != "trf_blocks.0.att.W_query.weight")
            continue;
        const std::vector<float> stored = m.model->weights.at(e.name).contiguous().to_vector();
        QCOMPARE(stored, std::vector<float>(run.params->begin() + static_cast<std::ptrdiff_t>(e.offset),
                                            run.params->begin() + static_cast<std::ptrdiff_t>(e.offset + e.size)));
    }
    // Its text is its task's; the overview has every layer and head of it.
    QCOMPARE(s.document()->inputText(), QString::fromStdString(example_text(*m.model)));
    QTRY_VERIFY_WITH_TIMEOUT(s.feature<OverviewState>()->layerAttention() != nullptr, 30000);
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->grid.size(), std::size_t{2});
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->grid[0].size(), std::size_t{4});
}

// Key/value heads in the form: 4 heads sharing 4, 2 and 1 key/value heads train as three variants, each a row with its
// num_kv_groups and the KV cache a token adds, named by both counts; the multi-query one studied is a model with one
// key/value head, its W_key as narrow as that.
void TestUiSweep::groupedVariantsAreTrainedAndStudied()
{
    Session s;
    SweepPanel panel(s.feature<TradeoffsState>());
    QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
    fillTiny(panel.form(), QStringLiteral("4"), 20);
    panel.form()->kvGroups()->setText(QStringLiteral("4, 2, 1"));
    panel.trainButton()->click();
    QVERIFY(finished.wait(60000));
    QVERIFY2(panel.errorLabel()->isHidden(), qPrintable(panel.errorLabel()->text()));
    const SweepResults& r = s.feature<TradeoffsState>()->sweep()->results();
    QCOMPARE(r.settings.kvGroups, (std::vector<std::int64_t>{4, 2, 1}));
    QCOMPARE(r.runs.size(), std::size_t{3});
    QCOMPARE(panel.table()->rowCount(), 3);
    for (int row = 0; row < 3; ++row) {
        const std::int64_t g = std::int64_t{4} >> row;
        QCOMPARE(panel.table()->item(row, 0)->text(), QStringLiteral("4"));
        QCOMPARE(panel.table()->item(row, 1)->text(), QString::number(g));
        QCOMPARE(panel.table()->item(row, 3)->text(), QString::number(2 * 2 * g * 2 * 4)); // K and V, 2 layers, hd 2
    }
    QCOMPARE(panel.headsTable()->variant()->itemText(2), QStringLiteral("4 heads, 1 key/value head, seed 0"));
    QCOMPARE(panel.curves()->curvesPainter().series().size(), std::size_t{3});
    QCOMPARE(panel.curves()->curvesPainter().series()[1].legend(), QStringLiteral("2 key/value heads"));
    QVERIFY2(panel.reading()->text().contains(QStringLiteral("with 1 key/value head (multi-query)")),
             qPrintable(panel.reading()->text()));
    // The form keeps them, and a session file too.
    QCOMPARE(panel.form()->kvGroups()->text(), QStringLiteral("4, 2, 1"));
    QString error;
    const auto back = sweepFromJson(sweepToJson(r), &error);
    QVERIFY2(back && *back == r, qPrintable(error));

    panel.headsTable()->variant()->setCurrentIndex(2);
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    QTest::mouseClick(panel.headsTable()->studyButton(), Qt::LeftButton);
    QVERIFY(opened.wait(30000));
    QVERIFY2(panel.errorLabel()->isHidden(), qPrintable(panel.errorLabel()->text()));
    QTRY_VERIFY_WITH_TIMEOUT(s.trace()->trace() && s.trace()->usesOpenedModel() && !s.computing(), 30000);
    const OpenedModel& m = *s.trace()->modelJob()->model();
    QCOMPARE(m.model->name, std::string("induction-h4-kv1-seed0"));
    QCOMPARE(m.model->settings.n_heads, std::int64_t{4});
    QCOMPARE(m.model->settings.kv_groups(), std::int64_t{1});
    QCOMPARE(m.model->weights.at("trf_blocks.0.att.W_key.weight").shape(), (std::vector<std::int64_t>{2, 8}));
    QCOMPARE(s.view()->tab(), ViewMode::Overview);
    QTRY_VERIFY_WITH_TIMEOUT(s.feature<OverviewState>()->layerAttention() != nullptr, 30000);
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->grid[0].size(), std::size_t{4});
}

void TestUiSweep::trainedVariantSavesAndReopens()
{
    QTemporaryDir dir;
    const QString sessionPath = dir.filePath(QStringLiteral("sweep.attnlab.json"));
    const QString modelPath = dir.filePath(QStringLiteral("saved.safetensors"));
    {
        Session s;
        SweepPanel panel(s.feature<TradeoffsState>());
        QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
        fillTiny(panel.form(), QStringLiteral("2"), 10);
        panel.trainButton()->click();
        QVERIFY(finished.wait(60000));
        QCOMPARE(s.feature<TradeoffsState>()->saveSweepRun(0, modelPath), QString());
        const GptModel saved = load_gpt_model(modelPath.toStdString());
        QCOMPARE(saved.settings.n_heads, std::int64_t{2});
        QCOMPARE(saved.meta("tokenizer"), std::string("letters"));
        QCOMPARE(saved.meta("task"), std::string("induction"));
        QVERIFY(!saved.meta("val_loss").empty());
        // A folder that does not exist is said in one sentence, and nothing is written.
        const QString bad =
            s.feature<TradeoffsState>()->saveSweepRun(0, dir.filePath(QStringLiteral("missing/m.safetensors")));
        QVERIFY2(bad.contains(QStringLiteral("missing")), qPrintable(bad));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("missing/m.safetensors"))));
        QVERIFY2(!s.feature<TradeoffsState>()->studySweepRun(5).isEmpty(), "a run that does not exist");
        QString error;
        QVERIFY2(saveSessionFile(sessionPath, captureState(s), sessionFeatures(), &error), qPrintable(error));
    }
    QString error;
    const auto state = loadSessionFile(sessionPath, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    Session t;
    SweepPanel panel(t.feature<TradeoffsState>());
    applyState(t, *state);
    QCOMPARE(panel.headsTable()->variant()->count(), 1);
    // The file kept the model too (test_ui_session_models): Study and Save work, and save the same file.
    QVERIFY(panel.headsTable()->studyButton()->isEnabled());
    QVERIFY(panel.headsTable()->saveButton()->isEnabled());
    const QString again = dir.filePath(QStringLiteral("again.safetensors"));
    QCOMPARE(t.feature<TradeoffsState>()->saveSweepRun(0, again), QString());
    QFile before(modelPath), after(again);
    QVERIFY(before.open(QIODevice::ReadOnly) && after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), before.readAll());
    QVERIFY(panel.how()->text().contains(QStringLiteral("A saved session keeps this model")));
}

void TestUiSweep::sectionFollowsTheSession()
{
    Session s;
    MainWindow window(&s);
    s.view()->setTab(ViewMode::Tradeoffs);
    s.view()->setTradeoffsSection(TradeoffsSection::Trained);
    QCOMPARE(window.tradeoffsView()->sections()->currentIndex(), 2);
    QVERIFY(window.tradeoffsView()->sweep());
    window.tradeoffsView()->sections()->setCurrentIndex(0);
    QCOMPARE(s.view()->tradeoffsSection(), TradeoffsSection::Counted);
    QString error;
    SessionState state;
    state.view.tradeoffsSection = TradeoffsSection::Trained;
    const auto back = parseSession(serializeSession(state, sessionFeatures()), sessionFeatures(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->view.tradeoffsSection, TradeoffsSection::Trained);
}

// The reading is set when the last run finishes, into a page already laid out with it empty: it must then
// take the lines it needs (it kept one line, cut mid-sentence, in a window that trained live).
void TestUiSweep::readingShowsWholeAfterALiveSweep()
{
    Session s;
    MainWindow window(&s);
    window.resize(1280, 720); // the page scrolls: taller than its viewport once the table has rows
    s.view()->setTab(ViewMode::Tradeoffs);
    s.view()->setTradeoffsSection(TradeoffsSection::Trained);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SweepPanel* panel = window.tradeoffsView()->sweep();
    QSignalSpy finished(s.feature<TradeoffsState>()->sweep(), &SweepJob::finished);
    fillTiny(panel->form(), QStringLiteral("1, 2, 4, 8"), 20, 2);
    panel->trainButton()->click();
    QVERIFY(finished.wait(60000));
    QLabel* reading = panel->reading();
    QVERIFY(reading->text().contains(QStringLiteral("Best:")));
    for (int pass = 0; pass < 4; ++pass) // as --screenshot does: what the last changes posted, then the picture
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    QVERIFY2(reading->height() >= reading->heightForWidth(reading->width()),
             qPrintable(QStringLiteral("%1 px tall, needs %2 at width %3")
                            .arg(reading->height())
                            .arg(reading->heightForWidth(reading->width()))
                            .arg(reading->width())));
    QVERIFY(reading->heightForWidth(reading->width()) > reading->fontMetrics().lineSpacing() * 3 / 2);
    // The table is as tall as its rows: the last in view, and no blank row's height under it.
    SweepTable* table = panel->table();
    QCOMPARE(table->rowCount(), 4);
    const QRect lastRow = table->visualRect(table->model()->index(table->rowCount() - 1, 0));
    QVERIFY2(
        lastRow.bottom() < table->viewport()->height(),
        qPrintable(
            QStringLiteral("last row ends at %1, view %2").arg(lastRow.bottom()).arg(table->viewport()->height())));
    QVERIFY2(table->viewport()->height() - lastRow.bottom() < table->rowHeight(0) / 2,
             qPrintable(
                 QStringLiteral("%1 px blank under the last row").arg(table->viewport()->height() - lastRow.bottom())));
}

void TestUiSweep::curvesReadInEveryTheme()
{
    SweepCurveSeries two{
        2, {{{0, 2.7, 0.1}, {10, 1.5, 0.5}, {20, 0.9, 0.8}}, {{0, 2.8, 0.1}, {10, 1.7, 0.4}, {20, 1.0, 0.7}}}};
    SweepCurveSeries eight{8, {{{0, 2.7, 0.1}, {10, 2.4, 0.2}}}}; // still training: as far as it came
    const SweepCurvesPainter painter({two, eight}, 20);
    const auto band = SweepCurvesPainter::curve(two, true);
    QCOMPARE(band.size(), std::size_t{3});
    QCOMPARE(band[1].mean, 0.45);
    QCOMPARE(band[1].lo, 0.4);
    QCOMPARE(band[1].hi, 0.5);
    for (const auto& theme : testing::themes()) {
        RenderStyle style = RenderStyle::fromPalette(theme.palette(), QPalette::Base);
        style.log = std::make_shared<ContrastLog>();
        QImage image(1000, 360, QImage::Format_RGB32);
        image.fill(style.background);
        QPainter p(&image);
        painter.paint(p, QRectF(0, 0, 1000, 360), style);
        p.end();
        QVERIFY(!style.log->empty());
        for (const TextContrast& t : *style.log)
            QVERIFY2(contrastRatio(t.ink, t.background) >= requiredContrast(t.large),
                     qPrintable(QStringLiteral("%1: '%2'").arg(QLatin1String(theme.name), t.text)));
        for (std::size_t i = 0; i < 2; ++i) // the lines stand out from the surface as graphics must (3:1)
            QVERIFY(contrastRatio(SweepCurvesPainter::seriesColor(i, style), style.background) >= 3.0);
    }
}

void TestUiSweep::curvesSayEveryTextWhole_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("steps");
    QTest::addColumn<int>("seeds");
    QTest::newRow("narrowest-1000-steps") << 544 << 1000 << 2; // the window's narrowest: "7501000 steps" was drawn
    QTest::newRow("narrowest-one-seed") << 544 << 4000 << 1;
    QTest::newRow("1600x1000-2000-steps") << 1000 << 2000 << 2;
    QTest::newRow("wide-100000-steps") << 1400 << 100000 << 3;
}

// Every text of the curves is said whole: titles in their longest wording that fits, ticks that would run
// into their neighbour left out, the legend's note moved under the names rather than cut.
void TestUiSweep::curvesSayEveryTextWhole()
{
    QFETCH(int, width);
    QFETCH(int, steps);
    QFETCH(int, seeds);
    std::vector<SweepCurveSeries> series;
    for (std::int64_t heads : {1, 2, 4, 8, 16, 32}) {
        SweepCurveSeries s{heads, {}};
        for (int seed = 0; seed < seeds; ++seed)
            s.seeds.push_back({{0, 2.7, 0.1}, {steps / 2, 1.0 + 0.01 * seed, 0.6}, {steps, 0.5, 0.9}});
        series.push_back(s);
    }
    const SweepCurvesPainter painter(series, steps);
    const QRectF rect(0, 0, width, 320);
    const auto labels = painter.labels(rect);
    int titles = 0, names = 0, notes = 0;
    bool unit = false;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const auto& l = labels[i];
        QVERIFY2(!l.text.contains(QChar(0x2026)), qPrintable(l.text));
        QVERIFY2(rect.contains(l.rect), qPrintable(QStringLiteral("'%1' leaves the picture").arg(l.text)));
        for (std::size_t j = i + 1; j < labels.size(); ++j)
            QVERIFY2(!l.rect.intersects(labels[j].rect),
                     qPrintable(QStringLiteral("'%1' runs into '%2'").arg(l.text, labels[j].text)));
        titles += l.role == SweepCurvesPainter::Label::Title;
        names += l.role == SweepCurvesPainter::Label::Legend;
        notes += l.role == SweepCurvesPainter::Label::Note;
        unit = unit || l.text == QStringLiteral("%1 steps").arg(steps);
        if (l.role == SweepCurvesPainter::Label::Note)
            QCOMPARE(l.text.contains(QStringLiteral("band")), seeds > 1);
    }
    QCOMPARE(titles, 4 - 2); // one per panel
    QCOMPARE(names, 6);
    QCOMPARE(notes, 1);
    QVERIFY(unit);
    for (int panel = 0; panel < 2; ++panel) // the plots keep their room under the titles, over the legend
        QVERIFY(painter.plotRect(rect, panel).height() > 150);
}

void TestUiSweep::readingFollowsTheNumbers_data()
{
    QTest::addColumn<QList<double>>("accuracy"); // final held-out accuracy of 1, 2, 4, 8, 16, 32 heads, two seeds each
    QTest::addColumn<QStringList>("says");
    QTest::addColumn<QStringList>("doesNotSay");
    // The PyTorch measurement of the induction task at emb 32.
    QTest::newRow("inverted U") << QList<double>{0.86, 0.86, 0.92, 0.92, 0.91, 0.92, 0.75, 0.86, 0.67, 0.66, 0.38, 0.41}
                                << QStringList{"An inverted U", "Fewer heads fall behind", "head_dim 1 is too narrow",
                                               "2 heads (head_dim 16)"}
                                << QStringList{"changes the accuracy little"};
    QTest::newRow("flat") << QList<double>{0.90, 0.91, 0.91, 0.90, 0.90, 0.91, 0.91, 0.90, 0.90, 0.90, 0.89, 0.90}
                          << QStringList{"changes the accuracy little"}
                          << QStringList{"inverted U", "Fewer heads fall behind", "too narrow"};
    QTest::newRow("only narrow heads fall")
        << QList<double>{0.95, 0.95, 0.95, 0.94, 0.94, 0.94, 0.9, 0.9, 0.8, 0.8, 0.4, 0.42}
        << QStringList{"head_dim 1 is too narrow", "1 head (head_dim 32)"}
        << QStringList{"inverted U", "Fewer heads fall behind"};
}

void TestUiSweep::readingFollowsTheNumbers()
{
    QFETCH(QList<double>, accuracy);
    QFETCH(QStringList, says);
    QFETCH(QStringList, doesNotSay);
    SweepResults r;
    r.settings.emb = 32;
    r.settings.seeds = 2;
    r.settings.steps = 100;
    const std::vector<std::int64_t> heads = {1, 2, 4, 8, 16, 32};
    for (std::size_t i = 0; i < accuracy.size(); ++i)
        r.runs.push_back({heads[i / 2], i % 2, {{100, 1.0 - accuracy[int(i)], accuracy[int(i)]}}, 100, 1.0, true});
    const std::vector<SweepRow> rows = sweepTable(r);
    QCOMPARE(rows.size(), std::size_t{6});
    const QString text = sweepReading(r, rows);
    for (const QString& s : says)
        QVERIFY2(text.contains(s), qPrintable(text));
    for (const QString& s : doesNotSay)
        QVERIFY2(!text.contains(s), qPrintable(text));
}

// Issue 43.9: "2 of 4000 steps · 1 s · about 4 min left" for a 7-second sweep. The first steps are slow
// (threads starting, caches filling): the estimate waits for a pace measured after them, and says nothing
// before it can be trusted.
void TestUiSweep::timeLeftIsSaidOnlyWhenSound_data()
{
    QTest::addColumn<double>("markSeconds");
    QTest::addColumn<qint64>("markSteps");
    QTest::addColumn<double>("nowSeconds");
    QTest::addColumn<qint64>("nowSteps");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<double>("left"); // < 0: nothing said
    QTest::newRow("no-mark-yet-2-steps") << 1.0 << qint64(2) << 1.0 << qint64(2) << qint64(4000) << -1.0;
    QTest::newRow("too-few-steps-since-mark") << 1.0 << qint64(80) << 2.5 << qint64(150) << qint64(4000) << -1.0;
    QTest::newRow("too-little-time-since-mark") << 1.0 << qint64(80) << 1.5 << qint64(400) << qint64(4000) << -1.0;
    // 320 steps in 1.2 s after the mark: 3600 left at 3.75 ms a step, 13.5 s (the slow start is not counted).
    QTest::newRow("warm-pace") << 1.0 << qint64(80) << 2.2 << qint64(400) << qint64(4000) << 13.5;
    QTest::newRow("nearly-done") << 1.0 << qint64(80) << 10.6 << qint64(3920) << qint64(4000) << 0.2;
    QTest::newRow("no-steps") << 0.0 << qint64(0) << 5.0 << qint64(0) << qint64(0) << -1.0;
}

void TestUiSweep::timeLeftIsSaidOnlyWhenSound()
{
    QFETCH(double, markSeconds);
    QFETCH(qint64, markSteps);
    QFETCH(double, nowSeconds);
    QFETCH(qint64, nowSteps);
    QFETCH(qint64, total);
    QFETCH(double, left);
    const auto got = SweepJob::remainingSeconds(markSeconds, markSteps, nowSeconds, nowSteps, total);
    if (left < 0) {
        QVERIFY(!got);
        return;
    }
    QVERIFY(got);
    QVERIFY2(std::abs(*got - left) < 1e-9, qPrintable(QString::number(*got)));
}

QTEST_MAIN(TestUiSweep)
// A run whose report left the ablation out (core's bound: heads x (layers + 1) / 2 passes past what training
// took) shows a dash in both ablated columns, never a 0.000 that reads as "worthless", and the sentence why.
void TestUiSweep::unablatedHeadsSaySo()
{
    SweepResults r;
    r.settings = sweepDefaults("induction");
    r.settings.heads = {2};
    r.settings.seeds = 1;
    SweepRun run;
    run.heads = 2;
    run.finished = true;
    run.stepsDone = r.settings.steps;
    run.evals = {{r.settings.steps, 1.1, 0.6}};
    for (std::int64_t l = 0; l < r.settings.layers; ++l)
        for (std::int64_t h = 0; h < 2; ++h) {
            train::HeadStats stats;
            stats.layer = l;
            stats.head = h;
            stats.shares.previous = 0.7;
            stats.shares.positions = 10;
            stats.role = train::head_role(stats.shares);
            run.report.push_back(stats);
        }
    run.ablationSkipped = "the heads were not ablated: zeroing each of the 4 heads in turn is too much.";
    r.runs.push_back(run);
    SweepHeadsTable heads;
    heads.setResults(r);
    QCOMPARE(heads.table()->rowCount(), 4);
    for (int row = 0; row < 4; ++row) {
        QCOMPARE(heads.table()->item(row, 7)->text(), QStringLiteral("previous-token"));
        QCOMPARE(heads.table()->item(row, 8)->text(), QStringLiteral("—"));
        QCOMPARE(heads.table()->item(row, 9)->text(), QStringLiteral("—"));
    }
    bool said = false;
    for (const QLabel* label : heads.findChildren<QLabel*>())
        said = said || label->text().contains(QStringLiteral("The heads were not ablated: zeroing each of the 4"));
    QVERIFY(said);
}

#include "test_ui_sweep.moc"
