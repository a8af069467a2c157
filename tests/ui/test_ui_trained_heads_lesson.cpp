// Lesson 8 ("What do the heads of a trained model do?") on the shipped GPT trained here on the induction task,
// and the overview opening that model by name (--model induction-h4): every step's Show me makes its own check
// pass, in order and entered directly (as --guide trained-heads --guide-step N does), and the verdicts are the
// model's measures -- a previous-token head near 0.95 in layer 0, induction heads near 0.9 in layer 1 -- computed,
// not written into the lesson.
#include "common/session_fixtures.h"
#include "features/overview/overview_state.h"
#include "features/overview/overview_view.h"
#include "forward/stage_names.h"
#include "model/model_job.h"
#include "shell/lessons.h"
#include "shell/text_options.h"

#include <QCommandLineParser>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const Lesson& lesson()
{
    return *findLesson(QStringLiteral("trained-heads"));
}

int stepIndex(const char* id)
{
    const auto& steps = lesson().steps;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].id == QLatin1String(id))
            return static_cast<int>(i);
    return -1;
}

// Show me, then what the window does before --guide-step checks: waits until everything asked for is in.
CheckResult showThenCheck(Session& s, const LessonStep& step)
{
    step.showMe({&s, nullptr});
    if (!testing::waitUntilSettled(s, 60000))
        return {false, QStringLiteral("never settled")};
    QTest::qWait(0);
    return step.check({&s, nullptr});
}

} // namespace

class TestUiTrainedHeadsLesson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void steps_in_order();
    void step_entered_directly_data();
    void step_entered_directly();
    void previous_token_head_measured();
    void induction_heads_measured();
    void overview_opens_the_induction_model();
    void empty_overview_offers_it();
};

void TestUiTrainedHeadsLesson::steps_in_order()
{
    QVERIFY(findLesson(QStringLiteral("trained-heads")));
    QCOMPARE(lesson().steps.size(), std::size_t{5});
    Session s;
    for (const LessonStep& step : lesson().steps) {
        const CheckResult r = showThenCheck(s, step);
        QVERIFY2(r.passed, qPrintable(step.title + ": " + r.message));
    }
}

void TestUiTrainedHeadsLesson::step_entered_directly_data()
{
    QTest::addColumn<int>("step");
    for (std::size_t i = 0; i < lesson().steps.size(); ++i)
        QTest::newRow(qPrintable(lesson().steps[i].id)) << static_cast<int>(i);
}

void TestUiTrainedHeadsLesson::step_entered_directly()
{
    QFETCH(int, step);
    Session s;
    const LessonStep& st = lesson().steps[static_cast<std::size_t>(step)];
    const CheckResult r = showThenCheck(s, st);
    QVERIFY2(r.passed, qPrintable(st.title + ": " + r.message));
}

// Layer 0: one head on the previous token, sharply; the verdict names it with the trace's own measure.
void TestUiTrainedHeadsLesson::previous_token_head_measured()
{
    Session s;
    const LessonStep& step = lesson().steps[static_cast<std::size_t>(stepIndex("tell-heads-apart"))];
    const CheckResult r = showThenCheck(s, step);
    QVERIFY2(r.passed, qPrintable(r.message));
    QCOMPARE(s.document()->gptLayer(), 0);
    const std::vector<HeadMeasures>& m = s.trace()->headMeasures(0);
    QCOMPARE(m.size(), std::size_t{4});
    const auto best = std::max_element(
        m.begin(), m.end(), [](const HeadMeasures& a, const HeadMeasures& b) { return a.previous < b.previous; });
    QVERIFY2(best->previous > 0.9, qPrintable(QString::number(best->previous)));
    const QString said = QStringLiteral("Head %1 puts %2 of its weight on the previous token")
                             .arg(best - m.begin())
                             .arg(best->previous, 0, 'f', 2);
    QVERIFY2(r.message.startsWith(said), qPrintable(r.message + " / " + said));
    for (const HeadMeasures& h : m) // the others are named too, each with its own share
        QVERIFY2(r.message.contains(QString::number(h.previous, 'f', 2)), qPrintable(r.message));
}

// Layer 1: every head an induction head on the held-out sequence, as the overview measures them.
void TestUiTrainedHeadsLesson::induction_heads_measured()
{
    Session s;
    const LessonStep& step = lesson().steps[static_cast<std::size_t>(stepIndex("find-induction-heads"))];
    const CheckResult r = showThenCheck(s, step);
    QVERIFY2(r.passed, qPrintable(r.message));
    QCOMPARE(s.view()->tab(), ViewMode::Overview);
    const auto layers = s.feature<OverviewState>()->layerAttention();
    QVERIFY(layers);
    QCOMPARE(layers->grid.size(), std::size_t{2});
    double low = 1.0, high = 0.0;
    for (const LayerAttention::Head& h : layers->grid[1]) {
        QVERIFY(h.induction);
        low = std::min(low, *h.induction);
        high = std::max(high, *h.induction);
    }
    QVERIFY2(low > 0.85, qPrintable(QString::number(low)));
    const QString said = QStringLiteral("4 of layer 1's 4 heads are induction heads (scores %1 to %2)")
                             .arg(low, 0, 'f', 2)
                             .arg(high, 0, 'f', 2);
    QVERIFY2(r.message.startsWith(said), qPrintable(r.message + " / " + said));
}

// `attention-lab --model induction-h4 --view overview`: the name finds the shipped file, and the overview shows
// its heads doing clearly different things.
void TestUiTrainedHeadsLesson::overview_opens_the_induction_model()
{
    Session s;
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("weights"), QString(), QStringLiteral("F")});
    parser.addOption({QStringLiteral("layer"), QString(), QStringLiteral("L")});
    addTextOptions(parser);
    QVERIFY(parser.parse({QStringLiteral("attention-lab"), QStringLiteral("--model"), QStringLiteral("induction-h4")}));
    QCOMPARE(applyStartupText(parser, s), QString());
    s.view()->setTab(ViewMode::Overview);
    QTRY_VERIFY_WITH_TIMEOUT(s.trace()->usesOpenedModel(), 30000);
    QVERIFY(testing::waitUntilSettled(s, 60000));
    QVERIFY(s.trace()->openedCheckpoint().endsWith(QLatin1String("/induction-gpt-h4.safetensors")));
    QTRY_VERIFY_WITH_TIMEOUT(s.feature<OverviewState>()->layerAttention(), 30000);
    const auto layers = s.feature<OverviewState>()->layerAttention();
    QCOMPARE(QString::fromStdString(layers->model), QStringLiteral("induction-gpt-h4"));
    QCOMPARE(layers->grid.size(), std::size_t{2});
    double previous = 0.0;
    for (const LayerAttention::Head& h : layers->grid[0])
        previous = std::max(previous, h.measures.previous);
    QVERIFY2(previous > 0.9, qPrintable(QString::number(previous)));
    for (const LayerAttention::Head& h : layers->grid[1])
        QVERIFY(h.induction && *h.induction > 0.85);
    // h4 keeps meaning the Verdict GPT.
    Session verdict;
    QVERIFY(parser.parse({QStringLiteral("attention-lab"), QStringLiteral("--model"), QStringLiteral("h4")}));
    QCOMPARE(applyStartupText(parser, verdict), QString());
    QVERIFY(!verdict.trace()->usesOpenedModel());
    QVERIFY(QString::fromStdString(verdict.document()->spec().gpt_model_path).endsWith("verdict-gpt-h4.safetensors"));
}

// With no GPT under study the overview offers the induction GPT, one press away, and hides the offer once it is in.
void TestUiTrainedHeadsLesson::empty_overview_offers_it()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    s.view()->setTab(ViewMode::Overview);
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(!view.openInduction()->isHidden());
    QVERIFY2(view.heading()->text().contains("induction task"), qPrintable(view.heading()->text()));
    view.openInduction()->click();
    QTRY_VERIFY_WITH_TIMEOUT(s.trace()->usesOpenedModel(), 30000);
    QVERIFY(testing::waitUntilSettled(s, 60000));
    QTRY_VERIFY_WITH_TIMEOUT(view.openInduction()->isHidden(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(view.heading()->text().startsWith("induction-gpt-h4: 2 layers × 4 heads"), 30000);
}

QTEST_MAIN(TestUiTrainedHeadsLesson)
#include "test_ui_trained_heads_lesson.moc"
