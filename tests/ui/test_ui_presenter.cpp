// The presenter view (issue 45, item 6), on two offscreen screens side by side, 1600×1000 and 1280×720: opened, it
// goes to the primary screen (the teacher's) and the app to the other one (the projector), presenting; it follows the
// lesson step and its own buttons move it, show the step and check it; it shows the class's answers as they arrive,
// before the room sees them, and its buttons show them, ask again and reveal; closed, nothing stays behind. Where
// each window goes is a rule of the screens alone (presenterScreens), tested row by row. With
// ATTNLAB_PRESENTER_SHOTS=DIR set, the pictures are saved there.
#include "common/layout_checks.h"
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "common/shell_app.h"
#include "features/poll/poll_actions.h"
#include "features/poll/poll_request.h"
#include "features/poll/poll_state.h"
#include "features/poll/tally_chart.h"
#include "shell/app_shell.h"
#include "shell/lessons_panel.h"
#include "shell/presentation.h"
#include "shell/presenter_actions.h"
#include "shell/presenter_view.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFile>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QtTest>

#include <memory>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const QSize kLaptop(1600, 1000), kProjector(1280, 720);

// The window and its shell as the app builds them, the window on the laptop's screen.
struct App : testing::ShellApp {
    bool open() { return ShellApp::open(testing::screenOfSize(kLaptop)); }
};

// `present` devices have the question open; the first `count` answer, the first `right` of them right.
void classAnswers(PollState& poll, int present, int count, int right)
{
    const poll::Question& q = poll.tally()->question();
    for (int i = 0; i < present; ++i)
        poll.questionState(QStringLiteral("d-%1").arg(i));
    for (int i = 0; i < count; ++i) {
        AnswerRequest a{QString::fromStdString(q.id), poll.tally()->round(), QStringLiteral("d-%1").arg(i), {}, {}};
        for (const poll::Field& f : q.fields)
            a.values[f.name] = f.right;
        if (i >= right)
            a.values["axis-1"] = "num_heads"; // queries.view's axis 1 is num_tokens
        QString error;
        QVERIFY2(poll.answer(a, &error), qPrintable(error));
    }
}

void shoot(QWidget* w, const QString& name)
{
    QTest::qWait(50); // the layout takes the last texts
    if (const QString dir = qEnvironmentVariable("ATTNLAB_PRESENTER_SHOTS"); !dir.isEmpty())
        QVERIFY(w->grab().save(QStringLiteral("%1/%2.png").arg(dir, name)));
}

} // namespace

class TestUiPresenter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void whereEachWindowGoes_data();
    void whereEachWindowGoes();
    void opensOnTheTeachersScreen();
    void followsTheLesson();
    void revealsTheStepsAnswer();
    void teacherSeesTheClassFirst();
};

void TestUiPresenter::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(testing::screenOfSize(kLaptop));
    QVERIFY(testing::screenOfSize(kProjector));
}

void TestUiPresenter::whereEachWindowGoes_data()
{
    QTest::addColumn<int>("screens");   // how many, the first the primary
    QTest::addColumn<int>("app");       // the screen the app is on
    QTest::addColumn<int>("presenter"); // where each goes
    QTest::addColumn<int>("projector");
    QTest::newRow("one-screen") << 1 << 0 << 0 << 0;
    QTest::newRow("two-app-on-the-laptop") << 2 << 0 << 0 << 1;
    QTest::newRow("two-app-on-the-projector") << 2 << 1 << 0 << 1;
}

void TestUiPresenter::whereEachWindowGoes()
{
    QFETCH(int, screens);
    QFETCH(int, app);
    QFETCH(int, presenter);
    QFETCH(int, projector);
    const QList<QScreen*> all{testing::screenOfSize(kLaptop), testing::screenOfSize(kProjector)};
    const QList<QScreen*> given = all.mid(0, screens);
    const PresenterScreens at = presenterScreens(given, given.first(), given[app]);
    QCOMPARE(at.presenter, given[presenter]);
    QCOMPARE(at.projector, given[projector]);
}

void TestUiPresenter::opensOnTheTeachersScreen()
{
    App a;
    QVERIFY(a.open());
    // The primary screen is the teacher's (the offscreen platform makes one of the two so); the other the projector.
    QScreen* primary = QGuiApplication::primaryScreen();
    QScreen* other =
        primary == testing::screenOfSize(kLaptop) ? testing::screenOfSize(kProjector) : testing::screenOfSize(kLaptop);
    PresenterActions* presenter = a.shell->presenter();
    QVERIFY(!presenter->view());
    QVERIFY(a.window->actions().contains(presenter->toggleAction())); // Alt+F5 works with the menu bar hidden
    presenter->toggleAction()->trigger();
    PresenterView* view = presenter->view();
    QVERIFY(view);
    QVERIFY(QTest::qWaitForWindowExposed(view));
    QVERIFY(presenter->toggleAction()->isChecked());
    QCOMPARE(view->screen(), primary);
    QTRY_COMPARE(a.window->screen(), other);
    QVERIFY(a.shell->presentation()->presenting());
    // The lessons panel's lesson (the first, until another is picked) is on it from the start.
    QVERIFY2(view->stepHeading()->text().startsWith(QStringLiteral("Step 1 of ")),
             qPrintable(view->stepHeading()->text()));
    for (QPushButton* b : view->findChildren<QPushButton*>())
        QVERIFY2(testing::clippedReason(b, view).isEmpty(), qPrintable(testing::clippedReason(b, view)));
    view->close(); // the window's own close button
    QTRY_VERIFY(!presenter->view());
    QVERIFY(!presenter->toggleAction()->isChecked());
    a.shell->presentation()->setPresenting(false);
}

void TestUiPresenter::followsTheLesson()
{
    App a;
    QVERIFY(a.open());
    LessonsPanel* lessons = a.shell->lessonsPanel();
    QVERIFY(lessons->setLesson(QStringLiteral("view-transpose")));
    a.shell->presenter()->setOpen(true);
    PresenterView* view = a.shell->presenter()->view();
    QVERIFY(view);
    const Lesson* lesson = lessons->lesson();
    QVERIFY(lesson && lesson->steps.size() == 3);
    QCOMPARE(view->lessonHeading()->text(), lesson->title.toHtmlEscaped());
    QVERIFY(view->stepHeading()->text().startsWith(QStringLiteral("Step 1 of 3 · ")));
    QVERIFY(view->nextHeading()->text().contains(lesson->steps[1].title.toHtmlEscaped()));
    QVERIFY(!view->previousButton()->isEnabled());
    // The dock moves it ...
    lessons->setStep(1);
    QVERIFY(view->stepHeading()->text().contains(lesson->steps[1].title.toHtmlEscaped()));
    QVERIFY(view->stepText()->toPlainText().contains(QStringLiteral("transpose")));
    // ... and its own buttons move the dock.
    view->nextButton()->click();
    QCOMPARE(lessons->step(), 2);
    QVERIFY(view->nextHeading()->text().contains(QStringLiteral("the lesson's last step")));
    QVERIFY(!view->nextButton()->isEnabled());
    view->previousButton()->click();
    QCOMPARE(lessons->step(), 1);
    // Not done yet: the check says so; Show me sets the projector up, and then it passes.
    a.session.view()->setStageByName(QStringLiteral("queries"));
    view->checkButton()->click();
    QVERIFY2(view->checkResult()->text().contains(QStringLiteral("Not yet")), qPrintable(view->checkResult()->text()));
    view->showMeButton()->click();
    QVERIFY(testing::waitUntilSettled(a.session));
    view->checkButton()->click();
    QVERIFY2(view->checkResult()->text().contains(QStringLiteral("Passed")), qPrintable(view->checkResult()->text()));
    QCOMPARE(a.session.view()->stage()->name, std::string("queries.heads"));
    shoot(view, QStringLiteral("presenter-lesson"));
    a.shell->presenter()->setOpen(false);
    QTRY_VERIFY(!a.shell->presenter()->view());
    a.shell->presentation()->setPresenting(false);
}

// Lesson 5 holds its answer back: the teacher's screen has the Reveal the dock has, and either one reveals it.
void TestUiPresenter::revealsTheStepsAnswer()
{
    App a;
    QVERIFY(a.open());
    LessonsPanel* lessons = a.shell->lessonsPanel();
    a.shell->presenter()->setOpen(true);
    PresenterView* view = a.shell->presenter()->view();
    QVERIFY(view);
    QVERIFY(lessons->setLesson(QStringLiteral("view-transpose")));
    QVERIFY(view->revealStepButton()->isHidden()); // nothing held back in this lesson
    QVERIFY(lessons->setLesson(QStringLiteral("first-divergence")));
    QVERIFY(testing::waitUntilSettled(a.session));
    QVERIFY(!a.session.view()->guide().held.isEmpty());
    QVERIFY(!view->revealStepButton()->isHidden());
    QVERIFY(view->revealStepButton()->isEnabled());
    view->revealStepButton()->click();
    QVERIFY(a.session.view()->guide().held.isEmpty());
    QVERIFY(!lessons->revealButton()->isEnabled());
    QVERIFY(!view->revealStepButton()->isEnabled());
    QVERIFY(view->revealStepButton()->text().contains(QStringLiteral("revealed")));
    // Entered again, it is held again on both screens.
    lessons->setStep(0);
    QVERIFY(view->revealStepButton()->isEnabled());
    a.shell->presenter()->setOpen(false);
    QTRY_VERIFY(!a.shell->presenter()->view());
    a.shell->presentation()->setPresenting(false);
}

void TestUiPresenter::teacherSeesTheClassFirst()
{
    App a;
    QVERIFY(a.open());
    a.shell->presenter()->setOpen(true);
    PresenterView* view = a.shell->presenter()->view();
    QVERIFY(view);
    QVERIFY(view->classPrompt()->text().contains(QStringLiteral("not running")));
    QVERIFY(!view->revealButton()->isEnabled());
    QVERIFY(a.session.view()->setStageByName(QStringLiteral("queries.view")));
    QVERIFY(testing::waitUntilSettled(a.session));
    PollState& poll = *a.shell->poll()->state();
    QString error;
    QVERIFY2(poll.start({}, &error), qPrintable(error));
    QVERIFY(a.shell->poll()->askShownStage());
    classAnswers(poll, 41, 23, 12);
    QCOMPARE(view->classCount()->text(), QStringLiteral("Round 1: 23 of 41 answered"));
    QVERIFY2(view->classState()->text().contains(QStringLiteral("52% right so far. The room does not see these bars "
                                                                "yet.")),
             qPrintable(view->classState()->text()));
    // The teacher's bars are drawn; the projector's are not, until shown.
    QVERIFY(!poll.shown());
    QVERIFY(view->tally()->heightForWidth(400) > 0);
    const QList<TallyChart*> charts = a.shell->poll()->dock()->findChildren<TallyChart*>();
    QCOMPARE(charts.size(), 1);
    QCOMPARE(charts.first()->heightForWidth(400), 0);
    shoot(view, QStringLiteral("presenter-class"));
    view->showClassButton()->click();
    QVERIFY(poll.shown());
    QVERIFY(charts.first()->heightForWidth(400) > 0);
    QCOMPARE(view->showClassButton()->text(), QStringLiteral("Hide from the projector"));
    view->voteAgainButton()->click();
    QCOMPARE(poll.tally()->round(), 2);
    QCOMPARE(view->classCount()->text(), QStringLiteral("Round 2: 0 of 41 answered"));
    view->revealButton()->click();
    QVERIFY(poll.revealed());
    QVERIFY(!view->revealButton()->isEnabled());
    QVERIFY(view->classState()->text().contains(QStringLiteral("revealed on the projector")));
    poll.stop();
    a.shell->presenter()->setOpen(false);
    a.shell->presentation()->setPresenting(false);
}

int main(int argc, char** argv)
{
    const QString config = testing::useOffscreenScreens({kLaptop, kProjector}, QStringLiteral("attnlab-presenter"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiPresenter test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_ui_presenter.moc"
