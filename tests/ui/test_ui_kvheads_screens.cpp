// The Key/value heads tab on screen: at 1600×1000 and on a 1280×720 projector in presentation mode, light and dark,
// the current call, Mistral's sliding window and Llama 3 70B, after three steps of the cache: every label and button
// is whole, none cut off or over another, and the page's type is at least the window's. With ATTNLAB_KV_SHOTS=DIR
// set, each screen's picture is saved there.
#include "common/layout_checks.h"
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "features/kvheads/kv_memory_panel.h"
#include "features/kvheads/kv_step_panel.h"
#include "features/kvheads/kvheads_view.h"
#include "features/registry.h"
#include "shell/app_shell.h"
#include "shell/presentation.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiKvHeadsScreens : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nothingIsCutOff_data();
    void nothingIsCutOff();
};

void TestUiKvHeadsScreens::nothingIsCutOff_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("presenting");
    QTest::addColumn<QString>("theme");
    QTest::addColumn<QString>("config");
    const QString call = QStringLiteral("the current call");
    QTest::newRow("1600x1000-light") << QSize(1600, 1000) << false << QStringLiteral("light") << call;
    QTest::newRow("1600x1000-dark-mistral")
        << QSize(1600, 1000) << false << QStringLiteral("dark") << QStringLiteral("mistral-7b-v0.1");
    QTest::newRow("1280x720-presenting-light") << QSize(1280, 720) << true << QStringLiteral("light") << call;
    QTest::newRow("1280x720-presenting-dark-llama")
        << QSize(1280, 720) << true << QStringLiteral("dark") << QStringLiteral("llama-3-70b");
}

void TestUiKvHeadsScreens::nothingIsCutOff()
{
    QFETCH(QSize, size);
    QFETCH(bool, presenting);
    QFETCH(QString, theme);
    QFETCH(QString, config);
    Session session;
    session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
    MainWindow window(&session);
    window.setScreen(testing::screenOfSize(size));
    window.resize(size);
    QCommandLineParser parser;
    addShellOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
    QStringList args{QStringLiteral("attention-lab"), QStringLiteral("--screenshot"), QStringLiteral("x.png")};
    if (presenting)
        args << QStringLiteral("--presentation");
    QVERIFY(parser.parse(args));
    AppShell shell(&window, &session, parser);
    shell.presentation()->useForThisRun(*themeNamed(theme));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(session), 30000);
    session.view()->setTab(*viewNamed(QStringLiteral("kvheads")));
    auto* page = qobject_cast<KvHeadsView*>(window.page(*viewNamed(QStringLiteral("kvheads"))));
    QVERIFY(page);
    page->memory()->configs()->setCurrentIndex(page->memory()->configs()->findText(config));
    QCOMPARE(page->memory()->configs()->currentText(), config);
    for (int k = 0; k < 3; ++k)
        page->stepped()->stepButton()->click(); // a cache to draw
    QVERIFY(testing::waitUntilSettled(session));
    QCoreApplication::processEvents();
    QVERIFY(page->isVisible());
    for (QWidget* w : testing::shownWidgets(page)) {
        QVERIFY2(testing::clippedReason(w, &window).isEmpty(), qPrintable(testing::clippedReason(w, &window)));
        QVERIFY2(testing::cutTextReason(w).isEmpty(), qPrintable(testing::cutTextReason(w)));
    }
    QVERIFY2(testing::overlapReason(page).isEmpty(), qPrintable(testing::overlapReason(page)));
    if (presenting) // the page's type is at least the window's body size on the projector
        QVERIFY(QFontInfo(page->stepped()->computed()->font()).pixelSize() >= QApplication::font().pixelSize());
    if (const QString dir = qEnvironmentVariable("ATTNLAB_KV_SHOTS"); !dir.isEmpty()) // to look at, after 3 steps
        QVERIFY(window.grab().save(QStringLiteral("%1/kvheads-%2.png").arg(dir, QTest::currentDataTag())));
    shell.presentation()->setPresenting(false);
}

int main(int argc, char** argv)
{
    const QString config =
        testing::useOffscreenScreens({QSize(1600, 1000), QSize(1280, 720)}, QStringLiteral("attnlab-kvheads-screens"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiKvHeadsScreens test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_kvheads_screens.moc"
