// Issue 45, "lessons that open ready" and "answers hidden until the teacher asks": every step of every lesson,
// entered directly on a fresh window as --guide ID --guide-step N opens it (on a 1600x1000 monitor from the book's
// settings, on a 1280x720 projector presenting from GPT-2 small's), builds what the earlier steps would have left,
// and its Show me makes its own check pass -- after Reveal where the step holds its answer back, before which the
// check fails. The two held-back answers (lesson 5's first divergence, lesson 6's diagnosis) are hidden on the page
// until revealed, the rest of the page still usable, and held again when the step is entered again.
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "features/debug/bug_lesson.h"
#include "features/debug/bug_view.h"
#include "features/debug/debug_state.h"
#include "features/debug/stage_compare_lists.h"
#include "features/kvheads/kvheads_lessons.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/tradeoffs_lessons.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "model/document_model.h"
#include "model/presets.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "shell/app_shell.h"
#include "shell/lessons.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"
#include "shell/presentation.h"
#include "shell/lesson_scroll.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QCommandLineParser>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

using namespace attnlab;
using namespace attnlab::ui;
using testing::screenOfSize;

namespace {

const QSize kScreens[] = {{1280, 720}, {1600, 1000}};

// Lessons 9 and 10 train in the window; these sweeps train in a second or two (the lessons' own take a minute):
// two layers, so that the heads report has a layer 0 and a layer 1.
SweepSettings tinyHeadsSweep()
{
    SweepSettings s = sweepDefaults("induction");
    s.emb = 8;
    s.heads = {1, 2, 8};
    s.seeds = 1;
    s.steps = 30;
    s.batch = 8;
    return s;
}

SweepSettings tinyKvSweep()
{
    SweepSettings s = sweepDefaults("induction");
    s.emb = 16;
    s.heads = {8};
    s.kvGroups = {8, 4, 2, 1};
    s.seeds = 1;
    s.steps = 20;
    s.batch = 8;
    return s;
}

// A window as gui_main opens it with --guide LESSON --guide-step STEP (from 1), on a screen of `size`.
struct Opened {
    std::unique_ptr<Session> session = std::make_unique<Session>();
    std::unique_ptr<MainWindow> window;
    std::unique_ptr<AppShell> shell;
    LessonsPanel* panel() const { return shell->lessonsPanel(); }
    ~Opened()
    {
        if (shell)
            shell->presentation()->setPresenting(false); // the type size is the application's again
    }
};

bool open(Opened& o, const QString& preset, QSize size, bool presenting, const QString& lesson, int step)
{
    o.session->document()->applyPreset(*findPreset(preset));
    o.window = std::make_unique<MainWindow>(o.session.get());
    o.window->setScreen(screenOfSize(size));
    QCommandLineParser parser;
    addShellOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
    QStringList args{"attention-lab",       "--guide",      lesson, "--guide-step",
                     QString::number(step), "--screenshot", "x.png"};
    if (presenting)
        args << QStringLiteral("--presentation");
    if (!parser.parse(args))
        return false;
    o.shell = std::make_unique<AppShell>(o.window.get(), o.session.get(), parser);
    o.window->show();
    return QTest::qWaitForWindowExposed(o.window.get());
}

// Until what was asked for is in: a sweep trained, the trace and the pages computed.
bool settle(Opened& o)
{
    auto* sweep = o.session->feature<TradeoffsState>()->sweep();
    if (!QTest::qWaitFor([&] { return !sweep->busy(); }, 60000))
        return false;
    if (!testing::waitUntilSettled(*o.session, 60000))
        return false;
    if (!QTest::qWaitFor([&] { return !o.window->pagesBusy(); }, 60000))
        return false;
    for (int i = 0; i < 3; ++i) { // queued work: a study opened once trained, the pages' refresh
        QCoreApplication::processEvents();
        QTest::qWait(10);
    }
    return testing::waitUntilSettled(*o.session, 60000);
}

QWidget* shown(QWidget* window, const char* name)
{
    return shownLessonTarget(window, QLatin1String(name));
}

} // namespace

class TestUiLessonsEntered : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab")).clear();
        for (QSize s : kScreens)
            QVERIFY(screenOfSize(s));
        setSeveralHeadsLessonSweep(tinyHeadsSweep());
        setKvHeadsLessonSweep(tinyKvSweep());
    }
    void cleanupTestCase()
    {
        setSeveralHeadsLessonSweep(std::nullopt);
        setKvHeadsLessonSweep(std::nullopt);
    }

    void everyStepEnteredDirectly_data()
    {
        QTest::addColumn<QSize>("screenSize");
        QTest::addColumn<bool>("presenting");
        QTest::addColumn<QString>("preset"); // what the session had before the lesson was opened
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<int>("step"); // from 1, as --guide-step
        for (const Lesson& l : lessons())
            for (int i = 1; i <= static_cast<int>(l.steps.size()); ++i) {
                QTest::addRow("1280x720 presenting %s %d", qPrintable(l.id), i)
                    << QSize(1280, 720) << true << QStringLiteral("gpt2-small") << l.id << i;
                QTest::addRow("1600x1000 %s %d", qPrintable(l.id), i)
                    << QSize(1600, 1000) << false << QStringLiteral("book") << l.id << i;
            }
    }

    void everyStepEnteredDirectly()
    {
        QFETCH(QSize, screenSize);
        QFETCH(bool, presenting);
        QFETCH(QString, preset);
        QFETCH(QString, lesson);
        QFETCH(int, step);
        Opened o;
        QVERIFY(open(o, preset, screenSize, presenting, lesson, step));
        QVERIFY(settle(o));
        QCOMPARE(o.panel()->step(), step - 1);
        const LessonStep* s = o.panel()->currentStep();
        QVERIFY(s && s->showMe && s->check);
        if (!s->holds.isEmpty()) { // held back by default: the room is asked first, and the check waits too
            QCOMPARE(o.session->view()->guide().held, s->holds);
            QVERIFY(o.panel()->revealButton()->isVisible() && o.panel()->revealButton()->isEnabled());
            // Not judged before the room has answered: --guide-step leaves a held step unchecked.
            QVERIFY2(o.panel()->resultLabel()->text().contains(QStringLiteral("held back")),
                     qPrintable(o.panel()->resultLabel()->text()));
            const CheckResult before = o.panel()->check();
            QVERIFY2(!before.passed, qPrintable(before.message));
            o.panel()->reveal();
            QVERIFY(o.session->view()->guide().held.isEmpty());
            o.panel()->showMe(); // once revealed, Show me shows the answer
            QVERIFY(settle(o));
        }
        const CheckResult r = o.panel()->check();
        QVERIFY2(r.passed,
                 qPrintable(QStringLiteral("%1 step %2 (%3): %4").arg(lesson).arg(step).arg(s->title, r.message)));
    }

    // Entering a step from the panel, before any Show me, builds what the earlier steps would have left, and leaves
    // alone what already is so (a student's own broken split stays theirs).
    void enteringBuildsWhatEarlierStepsLeft()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("book")));
        MainWindow window(&session);
        LessonsPanel panel(&session, &window);
        const Config book = session.document()->config();
        QVERIFY(panel.setLesson(QStringLiteral("gpt2-split")));
        QCOMPARE(session.document()->config().d_out, book.d_out); // step 1 needs nothing: the book's settings stay
        panel.setStep(2);                                         // mend the split: GPT-2 small, split broken
        QCOMPARE(session.document()->config().d_out, 768);
        QVERIFY(!session.document()->config().heads_split_d_out());
        panel.setStep(1);
        session.document()->setSlot(Slot::num_heads, 5);
        panel.setStep(2);
        QCOMPARE(session.document()->config().num_heads, 5);

        QVERIFY(panel.setLesson(QStringLiteral("trained-heads")));
        panel.setStep(2); // the induction heads: the trained model, at layer 1
        QVERIFY(testing::waitUntilSettled(session, 60000));
        QVERIFY(session.trace()->usesOpenedModel());
        QCOMPARE(session.document()->gptLayer(), 1);

        QVERIFY(panel.setLesson(QStringLiteral("several-heads")));
        panel.setStep(1); // the table: trained first, its progress on the Trained page
        QVERIFY(session.feature<TradeoffsState>()->sweep()->busy());
        QCOMPARE(session.view()->tab(), ViewMode::Tradeoffs);
        QVERIFY(QTest::qWaitFor([&] { return !session.feature<TradeoffsState>()->sweep()->busy(); }, 60000));
        QVERIFY(panel.currentStep()->check({&session, &window}).passed);
    }

    // Lesson 5 holds back the verdict, the marked first row and the row picked for the room; the stages stay there to
    // compare. Revealing (the page's button) shows all three, and entering the step again holds them again.
    void firstDivergenceHeldUntilRevealed()
    {
        Opened o;
        QVERIFY(open(o, QStringLiteral("gpt2-small"), {1600, 1000}, false, QStringLiteral("first-divergence"), 1));
        QVERIFY(settle(o));
        auto* page = o.window->findChild<BugView*>();
        QVERIFY(page && page->isVisible());
        BugLesson* bugs = o.session->feature<DebugState>()->bugLesson();
        const int first = bugs->firstDivergenceRow();
        QVERIFY(first > 0);
        QVERIFY2(page->verdictText().contains(QStringLiteral("held back")), qPrintable(page->verdictText()));
        QVERIFY(!page->verdictText().contains(QStringLiteral("First divergence")));
        QCOMPARE(page->lists()->highlightedRow(), -1);
        QCOMPARE(bugs->selectedRow(), -1);
        QVERIFY(!o.panel()->check().passed);
        // The room can still look: a row picked is compared on the card, and the first one passes the check.
        bugs->setSelectedRow(first - 1);
        QVERIFY(!o.panel()->check().passed);
        // Reveal on the page: a link in the held-back banner, reached by Tab as the panel's button is.
        QLabel* verdict = page->verdictLabel();
        QVERIFY(verdict->textInteractionFlags() & Qt::LinksAccessibleByKeyboard);
        QVERIFY(verdict->focusPolicy() & Qt::TabFocus);
        QVERIFY(o.panel()->revealButton()->focusPolicy() & Qt::TabFocus);
        QVERIFY(verdict->text().contains(QStringLiteral("href='reveal'")));
        Q_EMIT verdict->linkActivated(QStringLiteral("reveal"));
        QVERIFY(page->verdictText().contains(QStringLiteral("First divergence")));
        QVERIFY(!verdict->text().contains(QStringLiteral("href")));
        QCOMPARE(page->lists()->highlightedRow(), first);
        QCOMPARE(bugs->selectedRow(), first);
        QVERIFY(o.panel()->check().passed);
        QVERIFY(!o.panel()->revealButton()->isEnabled()); // revealed: nothing left to reveal
        o.panel()->setStep(0);                            // entered again: held again
        QVERIFY(page->verdictText().contains(QStringLiteral("held back")));
        QCOMPARE(page->lists()->highlightedRow(), -1);
        QVERIFY(!o.panel()->check().passed);
    }

    // Lesson 6 holds back the settings' diagnosis of the swapped call: a card says so in its place. Revealed, the
    // diagnosis offers the call in the book's order, and only the mended call passes the check.
    void contractDiagnosisHeldUntilRevealed()
    {
        Opened o;
        QVERIFY(open(o, QStringLiteral("gpt2-small"), {1280, 720}, true, QStringLiteral("argument-contract"), 1));
        QVERIFY(settle(o));
        QCOMPARE(o.session->document()->config().context_length, 12); // Show me put the swapped call
        QWidget* held = shown(o.window.get(), "held-answer");
        QVERIFY(held);
        QVERIFY(!shown(o.window.get(), "diagnostic-*"));
        QVERIFY(!shown(o.window.get(), "fix-call"));
        QVERIFY(!o.panel()->check().passed);
        // Nor does the window name the last call that ran, which is the mended one: the stale-trace banner and the
        // status line say only that it is held back.
        const auto namingTheAnswer = [&o] {
            for (QLabel* l : o.window->findChildren<QLabel*>())
                if (l->isVisible() && l->text().contains(QStringLiteral("768, 1024, 0.0, 12")))
                    return l->text();
            return QString();
        };
        QVERIFY2(namingTheAnswer().isEmpty(), qPrintable(namingTheAnswer()));
        auto* reveal = qobject_cast<QPushButton*>(shown(o.window.get(), "held-answer-reveal"));
        QVERIFY(reveal && (reveal->focusPolicy() & Qt::TabFocus));
        reveal->click();
        QTRY_VERIFY(shown(o.window.get(), "fix-call"));
        QVERIFY(!shown(o.window.get(), "held-answer"));
        QVERIFY(!namingTheAnswer().isEmpty()); // revealed, the last valid call is named again
        QVERIFY(!o.panel()->check().passed);   // revealed is not mended
        qobject_cast<QPushButton*>(shown(o.window.get(), "fix-call"))->click();
        QVERIFY(settle(o));
        QVERIFY(o.panel()->check().passed);
    }

    // A teacher who wants the answers shown unticks the box: entering a step then holds nothing, and Show me shows the
    // answer at once.
    void holdingCanBeTurnedOff()
    {
        Opened o;
        QVERIFY(open(o, QStringLiteral("gpt2-small"), {1600, 1000}, false, QStringLiteral("first-divergence"), 1));
        QVERIFY(settle(o));
        QVERIFY(o.panel()->holdAnswersBox()->isChecked());
        o.panel()->holdAnswersBox()->click();
        QVERIFY(o.session->view()->guide().held.isEmpty()); // what was held is shown
        o.panel()->setStep(0);
        QVERIFY(o.session->view()->guide().held.isEmpty());
        o.panel()->showMe();
        QVERIFY(settle(o));
        QVERIFY(o.window->findChild<BugView*>()->verdictText().contains(QStringLiteral("First divergence")));
        QVERIFY(o.panel()->check().passed);
    }
};

int main(int argc, char** argv)
{
    const QString config = testing::useOffscreenScreens(QList<QSize>(std::begin(kScreens), std::end(kScreens)),
                                                        QStringLiteral("attnlab-lessons-entered-screens"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiLessonsEntered test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_lessons_entered.moc"
