// Ask the Class on a 1280×720 projector in presentation mode, Light, Dark and High Contrast: the QR screen, the hidden
// tally
// ("23 of 41 answered", no bars) and the revealed distribution with both rounds. The QR code, the room code,
// the count and the teacher's buttons are on screen whole at the presentation type size; the bars appear only
// once shown. With ATTNLAB_POLL_SHOTS=DIR set, each picture is saved there (docs/classroom.md shows them).
#include "common/layout_checks.h"
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "features/poll/poll_actions.h"
#include "features/poll/poll_request.h"
#include "features/poll/poll_state.h"
#include "shell/app_shell.h"
#include "shell/presentation.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// `present` students have the question open; the first `count` answer, the first `right` of them right on every
// field, the others saying num_tokens or head_dim for axis 1.
void classAnswers(PollState& poll, int present, int count, int right, int round)
{
    const poll::Question& q = poll.tally()->question();
    for (int i = 0; i < present; ++i)
        poll.questionState(QStringLiteral("d-student-%1").arg(i, 3, 10, QLatin1Char('0')));
    for (int i = 0; i < count; ++i) {
        AnswerRequest a;
        a.question = QString::fromStdString(q.id);
        a.round = round;
        a.device = QStringLiteral("d-student-%1").arg(i, 3, 10, QLatin1Char('0'));
        for (const poll::Field& f : q.fields)
            a.values[f.name] = f.right;
        if (i >= right) {
            a.values["axis-1"] = i % 3 ? "num_tokens" : "head_dim";
            a.values["contiguous"] = i % 2 ? "yes" : "no";
        }
        QString error;
        QVERIFY2(poll.answer(a, &error), qPrintable(error));
    }
}

} // namespace

class TestUiPollProjector : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void readableOnTheProjector_data();
    void readableOnTheProjector();
};

void TestUiPollProjector::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(testing::screenOfSize({1280, 720}));
}

void TestUiPollProjector::readableOnTheProjector_data()
{
    QTest::addColumn<QString>("theme");
    QTest::addColumn<QString>("moment"); // qr, hidden, revealed
    for (const char* theme : {"light", "dark", "high-contrast"})
        for (const char* moment : {"qr", "hidden", "revealed"})
            QTest::newRow(qPrintable(QStringLiteral("%1-%2").arg(moment, theme))) << theme << moment;
}

void TestUiPollProjector::readableOnTheProjector()
{
    QFETCH(QString, theme);
    QFETCH(QString, moment);
    Session session;
    session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    MainWindow window(&session);
    window.setScreen(testing::screenOfSize({1280, 720}));
    QCommandLineParser parser;
    addShellOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
    QVERIFY(parser.parse({"attention-lab", "--presentation", "--screenshot", "x.png"}));
    AppShell shell(&window, &session, parser);
    shell.presentation()->useForThisRun(*themeNamed(theme));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(session), 30000);
    QVERIFY(session.view()->setStageByName(QStringLiteral("queries.view")));
    QVERIFY(testing::waitUntilSettled(session));

    PollState& poll = *shell.poll()->state();
    QString error;
    QVERIFY2(poll.start({}, &error), qPrintable(error));
    shell.poll()->dock()->show();
    QVERIFY(shell.poll()->askShownStage());
    // What the teacher did shows at once, not a repaint later: the running poll's page, the question asked.
    auto* shownNow = window.findChild<QLabel*>(QStringLiteral("poll-count"));
    QVERIFY(shownNow && shownNow->isVisibleTo(shell.poll()->dock()));
    QCOMPARE(shownNow->text(), QStringLiteral("0 of 0 answered"));
    QVERIFY(!session.study()->stageRevealed()); // asked: the stage waits, as Predict First has it
    if (moment != QLatin1String("qr")) {
        classAnswers(poll, 41, 23, 12, 1);
        if (moment == QLatin1String("revealed")) {
            classAnswers(poll, 41, 41, 18, 1);
            poll.setShown(true);
            poll.voteAgain();
            classAnswers(poll, 41, 41, 33, 2);
            poll.reveal();
            QVERIFY(session.study()->stageRevealed());
        }
    }
    QTest::qWait(250); // the panel repaints at most ten times a second
    QVERIFY(testing::waitUntilSettled(session));
    QCoreApplication::processEvents();

    auto* count = window.findChild<QLabel*>(QStringLiteral("poll-count"));
    QVERIFY(count && count->isVisible());
    QCOMPARE(count->text(), moment == QLatin1String("qr")       ? QStringLiteral("0 of 0 answered")
                            : moment == QLatin1String("hidden") ? QStringLiteral("23 of 41 answered")
                                                                : QStringLiteral("Round 2: 41 of 41 answered"));
    const int typePx = QApplication::font().pixelSize();
    QVERIFY2(QFontInfo(count->font()).pixelSize() > typePx, qPrintable(testing::describe(count)));
    QList<QWidget*> whole{count};
    for (QPushButton* b : shell.poll()->dock()->findChildren<QPushButton*>())
        if (b->isVisible())
            whole << b;
    for (QWidget* w : whole)
        QVERIFY2(testing::clippedReason(w, &window).isEmpty(), qPrintable(testing::clippedReason(w, &window)));
    if (const QString dir = qEnvironmentVariable("ATTNLAB_POLL_SHOTS"); !dir.isEmpty())
        QVERIFY(window.grab().save(QStringLiteral("%1/poll-%2-%3.png").arg(dir, moment, theme)));
    shell.presentation()->setPresenting(false); // the type size is the application's
}

int main(int argc, char** argv)
{
    const QString config = testing::useOffscreenScreens({QSize(1280, 720)}, QStringLiteral("attnlab-poll-screens"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiPollProjector test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_ui_poll_projector.moc"
