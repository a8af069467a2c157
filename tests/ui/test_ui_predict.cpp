// Predict First driven through the keyboard in the real window: the View action's key turns it on; each
// stage shows its question instead of its picture; typed answers (Tab between fields, Enter to check) are
// checked axis by axis and the stage shows with the verdicts; the next key steps on, or reveals a stage
// that waits; the tally counts the first answers. For the book's toy, GPT-2 small and a trained model.
#include "common/layout_checks.h"
#include "common/session_fixtures.h"
#include "features/stepper/stepper_view.h"
#include "shell/app_shell.h"
#include "features/debug/compare_actions.h"
#include "shell/weights_actions.h"
#include "features/stepper/predict_card.h"

#include <QAction>
#include <QCommandLineParser>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// The menus, their actions and their keys, as the program builds them around the window.
std::unique_ptr<AppShell> shellFor(MainWindow* window, Session* session)
{
    QCommandLineParser parser;
    addShellOptions(parser);
    addCompareOptions(parser);
    addWeightsOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QStringLiteral("as gui_main has it"), QStringLiteral("FILE")});
    parser.parse({QStringLiteral("attention-lab")});
    return std::make_unique<AppShell>(window, session, parser);
}

} // namespace

class TestUiPredict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyStageByKeyboard_data();
    void everyStageByKeyboard();
    void nextKeyRevealsAWaitingStage();
    void keysWorkAfterCheck_data();
    void keysWorkAfterCheck();
    void whichHeadByKeyboard_data();
    void whichHeadByKeyboard();
};

void TestUiPredict::everyStageByKeyboard_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("trained");
    QTest::newRow("book") << "book" << false;
    QTest::newRow("gpt2-small") << "gpt2-small" << false;
    QTest::newRow("trained-h4") << "book" << true;
}

void TestUiPredict::everyStageByKeyboard()
{
    QFETCH(QString, preset);
    QFETCH(bool, trained);
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, preset, {1600, 1000});
    const auto shell = shellFor(window.get(), session.get());
    if (trained) {
        session->trace()->useTrainedModel(4, 1);
        QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session) && session->document()->usesTextInput(), 30000);
    }
    QAction* toggle = window->findChild<QAction*>(QStringLiteral("predict-first"));
    QVERIFY(toggle);
    QTest::keySequence(window.get(), toggle->shortcut());
    QVERIFY(session->study()->predict().on);
    StepperView* page = window->stepperView();
    PredictCard* card = page->predictCard();
    const int stages = static_cast<int>(session->trace()->trace()->stages.size());
    session->view()->setStageIndex(0);
    for (int i = 0; i < stages; ++i) {
        QCOMPARE(session->view()->stageIndex(), i);
        QTRY_VERIFY(page->showsQuestion());
        const StageQuestion* q = session->study()->question();
        QCOMPARE(card->axisFields().size(), q->axes.size());
        const bool wrong = i == 2; // one wrong answer: the verdict names what the axis needed
        for (std::size_t a = 0; a < q->axes.size(); ++a) {
            QLineEdit* field = card->axisFields()[a];
            field->setFocus();
            const std::int64_t size = q->axes[a].size + (wrong && a == 0 ? 1 : 0);
            QTest::keyClicks(field, a % 2 ? QString::fromStdString(q->axes[a].name) : QString::number(size));
        }
        if (q->asks_layout) { // "choose", then yes, then no: Down picks yes, Down again no
            card->contiguousChoice()->setFocus();
            QTest::keyClick(card->contiguousChoice(), Qt::Key_Down);
            if (!q->contiguous)
                QTest::keyClick(card->contiguousChoice(), Qt::Key_Down);
            card->sharesChoice()->setFocus();
            QTest::keyClick(card->sharesChoice(), Qt::Key_Down);
            if (!q->shares_storage)
                QTest::keyClick(card->sharesChoice(), Qt::Key_Down);
        }
        if (q->asks_mask)
            for (QToolButton* cell : card->maskCells()) {
                const QStringList ij = cell->objectName().mid(QStringLiteral("predict-mask-").size()).split('-');
                if (ij[1].toInt() > ij[0].toInt()) {
                    cell->setFocus();
                    QTest::keyClick(cell, Qt::Key_Space);
                }
            }
        QTest::keyClick(card->axisFields().back(), Qt::Key_Return);
        QTRY_VERIFY2(!page->showsQuestion(), session->view()->stage()->name.c_str());
        QVERIFY(page->verdict()->isVisible());
        QCOMPARE(page->verdict()->text().startsWith(QStringLiteral("✓ Right")), !wrong);
        if (wrong)
            QVERIFY2(page->verdict()->text().contains(QString::fromStdString(q->axes[0].explanation)),
                     qPrintable(page->verdict()->text()));
        if (i + 1 < stages) {
            window->activateWindow();
            QTest::keyClick(window.get(), Qt::Key_PageDown); // the clicker's next key steps on
        }
    }
    QCOMPARE(session->study()->predict().asked(), stages);
    QCOMPARE(session->study()->predict().right(), stages - 1);
    QCOMPARE(page->tally()->text(), QStringLiteral("%1 of %2 predictions right").arg(stages - 1).arg(stages));
}

// After Check the stage shows with its verdicts above it. The keys the window advertises go on working where
// the focus lands (it fell to the diagram, which takes the arrows and Space for its own blocks: → did nothing
// and Space started following a number), and the counter and Previous / Next stay in view under a long verdict.
void TestUiPredict::keysWorkAfterCheck_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("right");
    QTest::newRow("gpt2-small-queries-view-wrong-1600x1000") << "gpt2-small"
                                                             << "queries.view" << QSize(1600, 1000) << false;
    QTest::newRow("gpt2-small-context-merged-right-1600x1000") << "gpt2-small"
                                                               << "context.merged" << QSize(1600, 1000) << true;
    QTest::newRow("book-keys-heads-wrong-1280x720") << "book"
                                                    << "keys.heads" << QSize(1280, 720) << false;
}

void TestUiPredict::keysWorkAfterCheck()
{
    QFETCH(QString, preset);
    QFETCH(QString, stage);
    QFETCH(QSize, size);
    QFETCH(bool, right);
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, preset, size);
    const auto shell = shellFor(window.get(), session.get());
    session->study()->setPredictFirst(true);
    QVERIFY(session->view()->setStageByName(stage));
    StepperView* page = window->stepperView();
    PredictCard* card = page->predictCard();
    QTRY_VERIFY(page->showsQuestion());
    const StageQuestion* q = session->study()->question();
    for (std::size_t a = 0; a < q->axes.size(); ++a) // wrong: every axis off by one, the longest verdict
        QTest::keyClicks(card->axisFields()[a], QString::number(q->axes[a].size + (right ? 0 : 1)));
    const int index = session->view()->stageIndex();
    QTest::keyClick(card->axisFields().back(), Qt::Key_Return);
    QTRY_VERIFY(!page->showsQuestion());
    QCoreApplication::processEvents();
    QWidget* next = window->findChild<QWidget*>(QStringLiteral("next-stage"));
    QVERIFY(next && next->isVisible());
    QVERIFY2(testing::clippedReason(next, window.get()).isEmpty(),
             qPrintable(testing::clippedReason(next, window.get())));
    QWidget* focus = QApplication::focusWidget();
    QVERIFY(focus);
    QTest::keyClick(focus, Qt::Key_Right);
    QVERIFY2(session->view()->stageIndex() == index + 1, qPrintable(testing::describe(focus)));
    QTRY_VERIFY(page->showsQuestion());
    session->study()->setPredictFirst(false);
}

void TestUiPredict::nextKeyRevealsAWaitingStage()
{
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, QStringLiteral("book"), {1600, 1000});
    session->study()->setPredictFirst(true);
    session->view()->setStageIndex(3);
    StepperView* page = window->stepperView();
    QTRY_VERIFY(page->showsQuestion());
    window->activateWindow();
    QTest::keyClick(window.get(), Qt::Key_PageDown);
    QCOMPARE(session->view()->stageIndex(), 3); // revealed, not stepped
    QVERIFY(!page->showsQuestion());
    QCOMPARE(session->study()->predict().asked(), 0); // nothing answered, nothing tallied
    QTest::keyClick(window.get(), Qt::Key_PageDown);
    QCOMPARE(session->view()->stageIndex(), 4);
    QVERIFY(page->showsQuestion());
    session->study()->setPredictFirst(false);
    QVERIFY(!page->showsQuestion());
}

void TestUiPredict::whichHeadByKeyboard_data()
{
    QTest::addColumn<bool>("best");
    QTest::newRow("the head that looks back") << true;
    QTest::newRow("another head") << false;
}

// A trained model's weights also ask which head looks at the previous token: picked with the keyboard, checked
// with the shape, revealed with the picked head's measured share and the best head's, and tallied.
void TestUiPredict::whichHeadByKeyboard()
{
    QFETCH(bool, best);
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, QStringLiteral("book"), {1600, 1000});
    StepperView* page = window->stepperView();
    PredictCard* card = page->predictCard();
    session->study()->setPredictFirst(true);
    QVERIFY(session->view()->setStageByName(QStringLiteral("attn_weights")));
    QTRY_VERIFY(page->showsQuestion());
    QVERIFY(!card->headChoice());            // the book's random heads: not asked
    session->trace()->useTrainedModel(8, 0); // its heads differ on the previous token: 0.05 to 0.09 of the weight
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session) && session->document()->usesTextInput(), 30000);
    QVERIFY(session->view()->setStageByName(QStringLiteral("attn_weights")));
    QTRY_VERIFY(page->showsQuestion());
    const std::optional<HeadQuestion> q = session->study()->headQuestion();
    QVERIFY(q);
    QTRY_VERIFY(card->headChoice());
    QCOMPARE(card->headChoice()->count(), 9); // "choose", then the 8 heads
    const int pick = best ? q->best : (q->best + 1) % 8;
    card->headChoice()->setFocus();
    for (int i = 0; i <= pick; ++i)
        QTest::keyClick(card->headChoice(), Qt::Key_Down);
    QCOMPARE(card->headChoice()->currentData().toInt(), pick);
    const StageQuestion* shape = session->study()->question();
    for (std::size_t a = 0; a < shape->axes.size(); ++a) {
        card->axisFields()[a]->setFocus();
        QTest::keyClicks(card->axisFields()[a], QString::number(shape->axes[a].size));
    }
    QTest::keyClick(card->axisFields().back(), Qt::Key_Return);
    QTRY_VERIFY(!page->showsQuestion());
    const QString verdict = page->verdict()->text();
    const Verdict expected = check_head_pick(*q, pick);
    QVERIFY2(verdict.contains(QString::fromStdString(expected.says)), qPrintable(verdict));
    QVERIFY2(verdict.contains(QStringLiteral("head %1 puts").arg(pick)), qPrintable(verdict));
    if (!expected.right)
        QVERIFY(verdict.contains(QStringLiteral("head %1 is the one that looks at the previous token").arg(q->best)));
    QCOMPARE(session->study()->predict().asked(), 2); // the shape and the head
    QCOMPARE(session->study()->predict().right(), expected.right ? 2 : 1);
    QCOMPARE(page->tally()->text(), QStringLiteral("%1 of 2 predictions right").arg(expected.right ? 2 : 1));
}

QTEST_MAIN(TestUiPredict)
#include "test_ui_predict.moc"
