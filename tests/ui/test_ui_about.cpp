// Help > About names what the figures depend on: the version, Qt, and the kernel that ran the products
// (the same sentence as `attention-lab-cli --version` and `bench --json`).
#include "common/session_parts.h"
#include "shell/about_box.h"
#include "shell/app_shell.h"
#include "features/debug/compare_actions.h"
#include "shell/main_window.h"
#include "shell/weights_actions.h"
#include "tensor/blas_kernel.h"

#include <QAction>
#include <QCommandLineParser>
#include <QMenuBar>
#include <QtTest>

using namespace attnlab::ui;

class TestUiAbout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void textNamesTheKernel();
    void helpMenuOpensIt();
};

void TestUiAbout::textNamesTheKernel()
{
    QCoreApplication::setApplicationVersion(QStringLiteral("9.8.7"));
    const QString text = aboutText();
    QVERIFY2(text.contains(QStringLiteral("9.8.7")), qPrintable(text));
    QVERIFY2(text.contains(QString::fromStdString(attnlab::blas_report().sentence()).toHtmlEscaped()),
             qPrintable(text));
    QVERIFY2(text.contains(QString::fromLatin1(qVersion())), qPrintable(text));
}

void TestUiAbout::helpMenuOpensIt()
{
    Session session;
    MainWindow window(&session);
    QCommandLineParser parser;
    addShellOptions(parser);
    addCompareOptions(parser);
    addWeightsOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QStringLiteral("as gui_main has it"), QStringLiteral("FILE")});
    QVERIFY(parser.parse({QStringLiteral("attention-lab")}));
    AppShell shell(&window, &session, parser);
    QAction* about = window.menuBar()->findChild<QAction*>(QStringLiteral("about"));
    QVERIFY(about);
    QCOMPARE(about->menuRole(), QAction::AboutRole);
    // The box is modal: close it as soon as it shows, then check it was the About box that opened.
    QString title;
    QTimer::singleShot(0, [&] {
        if (QWidget* box = QApplication::activeModalWidget()) {
            title = box->windowTitle();
            box->close();
        }
    });
    about->trigger();
    QCOMPARE(title, QStringLiteral("About Attention Lab"));
}

QTEST_MAIN(TestUiAbout)
#include "test_ui_about.moc"
