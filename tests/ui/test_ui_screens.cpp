// The screens classrooms have: a 1280×720 projector, a 1366×768 laptop and a 1920×1080
// monitor, given to the offscreen platform as three screens side by side (its configfile). On each,
// with and without presentation mode and the lessons dock, on every page: the window stays within the
// screen (presentation fills it exactly), and what the page shows (the shape diagram and its badges,
// the diagnostics' fixes, buttons and labels) is inside the window, or reachable by scrolling. The
// arithmetic of the window's geometry is test_ui_screens_geometry's; the checks are common/layout_checks.h.
#include "common/layout_checks.h"
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "features/stepper/stepper_view.h"
#include "common/session_parts.h"
#include "shell/app_shell.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"
#include "shell/presentation.h"
#include "widgets/tab_text_fit.h"
#include "widgets/elided_label.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPainter>
#include <QPicture>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::clippedReason;
using testing::cutTextReason;
using testing::describe;
using testing::idle;
using testing::inViewOf;
using testing::overlapReason;
using testing::screenOfSize;
using testing::shownWidgets;

namespace {

const QSize kScreens[] = {{1280, 720}, {1366, 768}, {1920, 1080}};

// The first diagnostic card and the fix buttons: what an invalid call opens on.
QList<QWidget*> firstCardAndFixes(QWidget& window)
{
    QList<QWidget*> out;
    for (QWidget* w : window.findChildren<QWidget*>()) {
        const QString name = w->objectName();
        if ((name.startsWith(QLatin1String("diagnostic-")) && out.isEmpty()) || name.startsWith(QLatin1String("fix-")))
            out << w;
    }
    return out;
}

struct Setup {
    Session session;
    MainWindow window{&session};
    QCommandLineParser parser;
    std::unique_ptr<AppShell> shell;

    Setup(QScreen* screen, const QString& call)
    {
        if (call.isEmpty())
            session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        else
            session.document()->setCallText(call);
        window.setScreen(screen);
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
        parser.parse({"attention-lab", "--screenshot", "x.png"});
        shell = std::make_unique<AppShell>(&window, &session, parser);
    }
    ~Setup() { shell->presentation()->setPresenting(false); } // the type size is the application's
};

} // namespace

class TestUiScreens : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab")).clear();
        for (QSize s : kScreens)
            QVERIFY2(
                screenOfSize(s),
                qPrintable(QStringLiteral("no %1 screen: was the configfile read?").arg(testing::screenSizeName(s))));
    }

    void windowFitsAndPagesShowEverything_data()
    {
        QTest::addColumn<QSize>("screenSize");
        QTest::addColumn<int>("page"); // a ViewMode
        QTest::addColumn<bool>("presenting");
        QTest::addColumn<bool>("dock");
        QTest::addColumn<bool>("predict"); // the stepper's question stands where the stage would
        for (QSize s : kScreens)
            for (const FeatureInfo& page : featureRegistry())
                for (bool presenting : {false, true})
                    for (bool dock : {false, true})
                        for (bool predict : {false, true})
                            if (!predict || page.view() == ViewMode::Stepper)
                                QTest::addRow("%s %s%s%s%s", qPrintable(testing::screenSizeName(s)), page.id,
                                              presenting ? " presenting" : "", dock ? " lessons dock" : "",
                                              predict ? " predict first" : "")
                                    << s << static_cast<int>(page.view()) << presenting << dock << predict;
    }

    void windowFitsAndPagesShowEverything()
    {
        QFETCH(QSize, screenSize);
        QFETCH(int, page);
        QFETCH(bool, presenting);
        QFETCH(bool, dock);
        QFETCH(bool, predict);
        QScreen* screen = screenOfSize(screenSize);
        Setup s(screen, {});
        s.session.view()->setTab(static_cast<ViewMode>(page));
        s.session.study()->setPredictFirst(predict);
        s.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&s.window));
        if (presenting)
            s.shell->presentation()->setPresenting(true);
        if (dock) {
            s.shell->lessonsPanel()->setLesson(lessonIds().first());
            s.shell->lessonsDock()->show();
        }
        QTRY_VERIFY_WITH_TIMEOUT(idle(s.session) && !s.window.pagesBusy(), 30000);
        // The queued keep-on-screen after the dock opened; then the page's scroll area once more, as the
        // settings column the lesson's first step keeps (presenting) took its share of the width.
        for (int i = 0; i < 2; ++i)
            QCoreApplication::processEvents();
        QCOMPARE(s.window.screen(), screen);
        if (qEnvironmentVariableIsSet("ATTNLAB_SCREENS_DEBUG"))
            for (QWidget* w : s.window.centralWidget()->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
                qDebug() << w << w->minimumSizeHint() << w->minimumSize() << w->isVisible();
        if (qEnvironmentVariableIsSet("ATTNLAB_SCREENS_DEBUG"))
            qDebug() << "dock" << s.shell->lessonsDock()->minimumSizeHint() << "central"
                     << s.window.centralWidget()->minimumSizeHint();
        checkWithinScreen(s.window, screen, presenting);

        auto* tabs = s.window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QWidget* shown = tabs->currentWidget();
        QVERIFY(shown);
        const QList<QWidget*> widgets = shownWidgets(shown);
        QVERIFY(!widgets.isEmpty());
        for (QWidget* w : widgets) {
            const QString why = clippedReason(w, &s.window);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const QString cut = cutTextReason(w);
            QVERIFY2(cut.isEmpty(), qPrintable(cut));
        }
        const QString overlap = overlapReason(shown);
        QVERIFY2(overlap.isEmpty(), qPrintable(overlap));
        // Every tab row shown (the main one, a page's sections) fits whole: none scrolls to start mid-word.
        for (const QTabWidget* row : s.window.findChildren<QTabWidget*>())
            if (row->isVisible()) {
                QStringList texts;
                for (int i = 0; i < row->count(); ++i)
                    texts << row->tabText(i);
                QVERIFY2(tabRowFits(row), qPrintable(QStringLiteral("the tabs \"%1\" do not fit in %2 px")
                                                         .arg(texts.join(QStringLiteral(" | ")))
                                                         .arg(row->width())));
            }
        if (static_cast<ViewMode>(page) == ViewMode::Stepper && !predict)
            checkShapeDiagramFits(s.window);
        if (predict)
            QVERIFY(s.window.stepperView()->showsQuestion());
    }

    void invalidCallShowsItsFixes_data()
    {
        QTest::addColumn<QSize>("screenSize");
        QTest::addColumn<bool>("presenting");
        QTest::addColumn<QString>("call");
        QTest::addColumn<QString>("fix");
        const std::pair<const char*, const char*> calls[] = {
            {"MultiHeadAttention(768, 770, 1024, 0.0, 12)", "fix-d_out-768"},
            {"MultiHeadAttention(768, 768, 1024, 1.5, 12)", ""},
        };
        for (QSize s : kScreens)
            for (bool presenting : {false, true})
                for (const auto& [call, fix] : calls)
                    QTest::addRow("%s%s %s", qPrintable(testing::screenSizeName(s)), presenting ? " presenting" : "",
                                  call)
                        << s << presenting << QString::fromLatin1(call) << QString::fromLatin1(fix);
    }

    // The diagnostics and their fixes are what an invalid call is for: on every screen, presenting
    // or not, each card and each fix button can be seen (presentation keeps the settings column
    // while the settings are in error).
    void invalidCallShowsItsFixes()
    {
        QFETCH(QSize, screenSize);
        QFETCH(bool, presenting);
        QFETCH(QString, call);
        QFETCH(QString, fix);
        QScreen* screen = screenOfSize(screenSize);
        Setup s(screen, call);
        QVERIFY(s.session.trace()->hasErrors());
        s.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&s.window));
        if (presenting)
            s.shell->presentation()->setPresenting(true);
        QCoreApplication::processEvents();
        checkWithinScreen(s.window, screen, presenting);
        if (!fix.isEmpty())
            QVERIFY2(s.window.findChild<QPushButton*>(fix), qPrintable(fix));
        // In view as the window opens, before anyone scrolls: the first card's top and its fixes (the
        // column's fixes went under the fold in presentation type on a 720-pixel screen).
        auto* column = s.window.findChild<QScrollArea*>(QStringLiteral("settings-column"));
        QVERIFY(column);
        QTRY_VERIFY2_WITH_TIMEOUT(inViewOf(column, firstCardAndFixes(s.window)),
                                  qPrintable(testing::screenSizeName(screenSize)), 5000);
        // The status line says first that the settings are in error; a narrow bar elides the rest.
        auto* status = s.window.findChild<QLabel*>(QStringLiteral("trace-status"));
        QVERIFY(status);
        QVERIFY2(status->text().startsWith(QStringLiteral("The settings have an error")), qPrintable(status->text()));
        QCOMPARE(status->toolTip(), status->text());
        const QString shown = static_cast<ElidedLabel*>(status)->shownText();
        QVERIFY2(shown.startsWith(QStringLiteral("The settings have an error")), qPrintable(shown));
        QVERIFY(status->fontMetrics().horizontalAdvance(shown) <= status->contentsRect().width());
        int cards = 0;
        for (QWidget* w : s.window.findChildren<QWidget*>()) {
            const bool card = w->objectName().startsWith(QLatin1String("diagnostic-"));
            if (!card && !w->objectName().startsWith(QLatin1String("fix-")))
                continue;
            cards += card;
            QVERIFY2(w->isVisible(), qPrintable(describe(w) + QStringLiteral(" is hidden")));
            const QString why = clippedReason(w, &s.window);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        QVERIFY(cards >= 1);
        // Fixed, the settings column leaves the projector to the stages again.
        if (presenting && !fix.isEmpty()) {
            s.window.findChild<QPushButton*>(fix)->click();
            QTRY_VERIFY_WITH_TIMEOUT(idle(s.session), 30000);
            QVERIFY(!s.session.trace()->hasErrors());
            auto* column = s.window.findChild<QScrollArea*>(QStringLiteral("settings-column"));
            QVERIFY(column);
            QVERIFY(column->isHidden());
        }
    }

private:
    static void checkWithinScreen(QWidget& window, QScreen* screen, bool presenting)
    {
        const QString where = QStringLiteral("window %1,%2 %3x%4 (frame %5x%6), screen %7 available %8,%9 %10x%11")
                                  .arg(window.x())
                                  .arg(window.y())
                                  .arg(window.width())
                                  .arg(window.height())
                                  .arg(window.frameGeometry().width())
                                  .arg(window.frameGeometry().height())
                                  .arg(testing::screenSizeName(screen->geometry().size()))
                                  .arg(screen->availableGeometry().x())
                                  .arg(screen->availableGeometry().y())
                                  .arg(screen->availableGeometry().width())
                                  .arg(screen->availableGeometry().height());
        if (presenting)
            QVERIFY2(window.geometry() == screen->geometry(), qPrintable(where));
        else
            QVERIFY2(screen->availableGeometry().contains(window.frameGeometry()), qPrintable(where));
        // What the window's layout insists on fits too, or the window manager would be overruled.
        QVERIFY2(window.minimumSizeHint().width() <= screen->availableGeometry().width() &&
                     window.minimumSizeHint().height() <= screen->availableGeometry().height(),
                 qPrintable(where + QStringLiteral(", minimum %1x%2")
                                        .arg(window.minimumSizeHint().width())
                                        .arg(window.minimumSizeHint().height())));
    }

    // The diagram and its badges are painted, not widgets: record the painting and check that what
    // it draws stays inside the widget.
    static void checkShapeDiagramFits(QWidget& window)
    {
        auto* diagram = window.findChild<QWidget*>(QStringLiteral("shape-diagram"));
        QVERIFY(diagram);
        QVERIFY(diagram->isVisible());
        QPicture picture;
        QPainter painter(&picture);
        diagram->render(&painter, QPoint(), QRegion(), QWidget::RenderFlags());
        painter.end();
        const QRect drawn = picture.boundingRect();
        QVERIFY2(QRect(QPoint(0, 0), diagram->size()).contains(drawn),
                 qPrintable(QStringLiteral("the diagram draws over %1,%2 %3x%4 in a %5x%6 widget")
                                .arg(drawn.x())
                                .arg(drawn.y())
                                .arg(drawn.width())
                                .arg(drawn.height())
                                .arg(diagram->width())
                                .arg(diagram->height())));
    }
};

int main(int argc, char** argv)
{
    const QString config = testing::useOffscreenScreens(QList<QSize>(std::begin(kScreens), std::end(kScreens)),
                                                        QStringLiteral("attnlab-screens"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiScreens test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_screens.moc"
