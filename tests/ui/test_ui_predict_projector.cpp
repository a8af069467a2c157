// Predict First on a 1280×720 projector in presentation mode: the question, its answer fields and its
// buttons are on screen whole, at the presentation type size or larger, and take most of the stepper page,
// so a class reads the question from the back of the room; checked for a layout step of GPT-2 small
// (shape, contiguity, storage) and for the book preset's causal mask (the grid of positions).
#include "common/layout_checks.h"
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "shell/app_shell.h"
#include "shell/main_window.h"
#include "shell/presentation.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QStandardPaths>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiPredictProjector : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void questionFillsTheProjector_data();
    void questionFillsTheProjector();
};

void TestUiPredictProjector::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(testing::screenOfSize({1280, 720}));
}

void TestUiPredictProjector::questionFillsTheProjector_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("stage");
    QTest::newRow("gpt2-small-queries-view") << "gpt2-small"
                                             << "queries.view";
    QTest::newRow("gpt2-small-context-merged") << "gpt2-small"
                                               << "context.merged";
    QTest::newRow("book-masked-scores") << "book"
                                        << "attn_scores.masked";
}

void TestUiPredictProjector::questionFillsTheProjector()
{
    QFETCH(QString, preset);
    QFETCH(QString, stage);
    Session session;
    session.document()->applyPreset(*findPreset(preset));
    MainWindow window(&session);
    window.setScreen(testing::screenOfSize({1280, 720}));
    QCommandLineParser parser;
    addShellOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
    QVERIFY(parser.parse({"attention-lab", "--predict-first", "--presentation", "--screenshot", "x.png"}));
    AppShell shell(&window, &session, parser);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(session), 30000);
    QVERIFY(session.view()->setStageByName(stage));
    QVERIFY(testing::waitUntilSettled(session));
    QCoreApplication::processEvents();
    QVERIFY(shell.presentation()->presenting());
    QVERIFY(!session.study()->stageRevealed());
    const int typePx = QApplication::font().pixelSize();
    auto* card = window.findChild<QWidget*>(QStringLiteral("predict-card"));
    QVERIFY(card && card->isVisible());
    // Presenting hides the settings column: the card says the sizes and the code line it is answered from.
    auto* given = window.findChild<QLabel*>(QStringLiteral("predict-given"));
    auto* code = window.findChild<QLabel*>(QStringLiteral("predict-code"));
    QVERIFY(given && code);
    const Config& config = session.trace()->trace()->config;
    for (const QString& size :
         {QStringLiteral("d_in = %1").arg(config.d_in), QStringLiteral("num_heads = %1").arg(config.num_heads),
          QStringLiteral("batch = %1").arg(session.trace()->trace()->stages.front().tensor.size(0)),
          QStringLiteral("num_tokens = %1").arg(session.trace()->trace()->stages.front().tensor.size(-2))})
        QVERIFY2(given->text().contains(size), qPrintable(given->text() + QStringLiteral(" lacks ") + size));
    QVERIFY(session.study()->question() && !session.study()->question()->code.empty());
    QVERIFY(code->isVisible());
    QVERIFY2(code->text().endsWith(QString::fromStdString(session.study()->question()->code)),
             qPrintable(code->text()));
    QList<QWidget*> parts{given, code, window.findChild<QLabel*>(QStringLiteral("predict-prompt")),
                          window.findChild<QPushButton*>(QStringLiteral("predict-check")),
                          window.findChild<QPushButton*>(QStringLiteral("predict-reveal"))};
    for (QWidget* w : card->findChildren<QLineEdit*>())
        if (w->isVisible())
            parts << w;
    QVERIFY(parts.size() > 3); // at least one answer field
    for (QWidget* w : parts) {
        QVERIFY(w);
        QVERIFY2(testing::clippedReason(w, &window).isEmpty(), qPrintable(testing::clippedReason(w, &window)));
        QVERIFY2(w->font().pixelSize() >= typePx || QFontInfo(w->font()).pixelSize() >= typePx,
                 qPrintable(testing::describe(w)));
    }
    // The question is the picture: the card takes most of the window's width and a good part of its height.
    const QRect inWindow(card->mapTo(&window, QPoint(0, 0)), card->size());
    QVERIFY2(inWindow.width() >= window.width() / 2, qPrintable(QString::number(inWindow.width())));
    QVERIFY2(inWindow.height() >= window.height() / 3, qPrintable(QString::number(inWindow.height())));
    shell.presentation()->setPresenting(false); // the type size is the application's
}

int main(int argc, char** argv)
{
    const QString config = testing::useOffscreenScreens({QSize(1280, 720)}, QStringLiteral("attnlab-predict-screens"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiPredictProjector test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_ui_predict_projector.moc"
