// Presentation mode and guided lessons: F5 enlarges the type and Esc restores it; zoom
// and high contrast change the whole application; every lesson loads its text; "Show me" sets the
// app up and Check judges what the student did.
#include "common/session_fixtures.h"
#include "shell/app_shell.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"
#include "shell/presentation.h"
#include "features/stepper/stepper_view.h"
#include "features/stepper/shape_diagram_widget.h"
#include "features/stepper/source_view.h"
#include "features/stepper/tensor_grid.h"
#include "model/presets.h"
#include "model/undo_commands.h"
#include "common/session_parts.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>
#include <QStandardPaths>
#include <QUndoStack>
#include <QPushButton>
#include <QtTest>

#include <memory>

using namespace attnlab;
using namespace attnlab::ui;
using testing::idle;

namespace {

// GPT-2 small in a window with the shell (menus, presentation, lessons), started with `args`.
struct ShelledWindow {
    Session session;
    MainWindow window{&session};
    QCommandLineParser parser;
    std::unique_ptr<AppShell> shell;

    explicit ShelledWindow(const QStringList& args)
    {
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        parsed = parser.parse(args);
        shell = std::make_unique<AppShell>(&window, &session, parser);
    }
    ~ShelledWindow() { shell->presentation()->setPresenting(false); } // the type size is the application's
    bool parsed = false;
};

} // namespace

class TestUiClassroom : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab")).clear();
        QFont f = QApplication::font();
        f.setPixelSize(16);
        QApplication::setFont(f);
    }

    void presentationModeEnlargesTypeAndZoomScalesIt()
    {
        Session session;
        MainWindow window(&session);
        PresentationMode mode(&window);
        window.show();
        QCOMPARE(mode.fontPixelSize(), 16);
        mode.setPresenting(true);
        QVERIFY(mode.presenting());
        QCOMPARE(mode.fontPixelSize(), 22); // 16 × 1.4
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        mode.setPresenting(false);
        QCOMPARE(mode.fontPixelSize(), 16);
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));

        mode.setZoom(mode.zoom() * PresentationMode::kZoomStep);
        QCOMPARE(mode.fontPixelSize(), 18);
        mode.setZoom(10);
        QCOMPARE(mode.zoom(), 3.0); // clamped
        mode.setZoom(1.0);
        QCOMPARE(mode.fontPixelSize(), 16);
    }

    void highContrastAndThemesSetThePalette()
    {
        Session session;
        MainWindow window(&session);
        PresentationMode mode(&window);
        mode.setTheme(Theme::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        mode.setHighContrast(true);
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(Qt::black));
        QCOMPARE(QApplication::palette().color(QPalette::WindowText), QColor(Qt::white));
        mode.setTheme(Theme::Light);
        QCOMPARE(QApplication::palette().color(QPalette::Window), QColor(Qt::white));
        QCOMPARE(QApplication::palette().color(QPalette::Text), QColor(Qt::black));
        mode.setHighContrast(false);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 200);
        mode.setTheme(Theme::System);
    }

    void everyLessonHasTextAndActions()
    {
        QCOMPARE(lessonIds(), (QStringList{"gpt2-split", "follow-tensors", "view-transpose", "wrapper-integrated",
                                           "first-divergence", "argument-contract", "weight-transfer", "trained-heads",
                                           "several-heads", "kv-heads"}));
        for (const Lesson& l : lessons()) {
            QVERIFY2(!l.title.isEmpty(), qPrintable(l.id));
            QVERIFY2(!l.steps.empty(), qPrintable(l.id));
            for (const LessonStep& s : l.steps) {
                QVERIFY2(s.text.size() > 100, qPrintable(l.id + ": " + s.title));
                QVERIFY2(s.showMe && s.check, qPrintable(l.id + ": " + s.title));
            }
        }
    }

    // Steps meet their actions by id: every heading carries one, once, and every action names a heading.
    void lessonTextsAndActionsMeetById()
    {
        const QStringList problems = lessonTableProblems();
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        for (const Lesson& l : lessons())
            for (const LessonStep& s : l.steps) {
                QVERIFY2(!s.id.isEmpty(), qPrintable(l.id + ": " + s.title));
                QVERIFY2(!s.title.contains(QLatin1Char('{')), qPrintable(l.id + ": " + s.title));
            }
    }

    // A section added in front of the others shifts nothing: the ids, not the positions, pair them.
    void anAddedSectionKeepsEveryStepsId()
    {
        const QString text = QStringLiteral("# T\n\n## One {#one}\nbody one\n\n## Two  {#two}\nbody two\n");
        const QString added = QStringLiteral("# T\n\n## New\nnew\n") + text.mid(4);
        QString title;
        const auto before = splitLessonMarkdown(text, &title);
        QCOMPARE(title, QStringLiteral("T"));
        QCOMPARE(before.size(), std::size_t{2});
        QCOMPARE(before[1].id, QStringLiteral("two"));
        QCOMPARE(before[1].title, QStringLiteral("Two"));
        QCOMPARE(before[1].text, QStringLiteral("body two"));
        const auto after = splitLessonMarkdown(added, nullptr);
        QCOMPARE(after.size(), std::size_t{3});
        QVERIFY(after[0].id.isEmpty());
        QCOMPARE(after[0].title, QStringLiteral("New"));
        QCOMPARE(after[1].id, QStringLiteral("one"));
        QCOMPARE(after[2].id, QStringLiteral("two"));
        QCOMPARE(after[2].text, QStringLiteral("body two"));
    }

    void gpt2SplitLessonChecksWhatTheStudentDid()
    {
        Session session;
        MainWindow window(&session);
        session.document()->applyPreset(*findPreset(QStringLiteral("book")));
        LessonsPanel panel(&session, &window);
        QVERIFY(panel.setLesson(QStringLiteral("gpt2-split")));
        QVERIFY(!panel.check().passed); // the book's 3 → 2 is not GPT-2 small
        QVERIFY(panel.resultLabel()->text().contains(QStringLiteral("d_in is 3; GPT-2 small uses 768")));
        panel.showMe();
        QCOMPARE(session.document()->config().d_out, 768);
        QVERIFY(panel.check().passed);
        QVERIFY(panel.resultLabel()->text().contains(QStringLiteral("head_dim = 64")));

        panel.setStep(1);
        QVERIFY(!panel.check().passed);
        session.document()->setSlot(Slot::num_heads, 5);
        QVERIFY(panel.check().passed); // the student broke the split and saw the refusal
        panel.setStep(2);
        QVERIFY(!panel.check().passed);
        session.document()->setSlot(Slot::num_heads, 24);
        const CheckResult wrongWidth = panel.check();
        QVERIFY(!wrongWidth.passed);
        QVERIFY(wrongWidth.message.contains(QStringLiteral("head_dim is 32")));
        panel.showMe();
        QVERIFY(panel.check().passed);
    }

    void viewTransposeLessonStepsToTheStage()
    {
        Session session;
        MainWindow window(&session);
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        LessonsPanel panel(&session, &window);
        QVERIFY(panel.setLesson(QStringLiteral("view-transpose")));
        panel.setStep(1);
        QVERIFY(!panel.check().passed);
        panel.showMe();
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        const CheckResult r = panel.check();
        QVERIFY2(r.passed, qPrintable(r.message));
        QVERIFY(r.message.contains(QStringLiteral("(1, 12, 16, 64)")));
        QVERIFY(r.message.contains(QStringLiteral("not contiguous")));
    }

    // Every "step to this stage" check names the stage's shape (and its contiguity where it says so),
    // with no placeholder left over and no QString::arg warning from an argument too many.
    void stageStepsNameTheShape_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<int>("step"); // from 0
        QTest::addColumn<QString>("shape");
        const QString follow = QStringLiteral("follow-tensors"), view = QStringLiteral("view-transpose");
        QTest::newRow("follow-tensors-queries") << follow << 0 << QStringLiteral("(1, 16, 768)");
        QTest::newRow("follow-tensors-attn_scores") << follow << 1 << QStringLiteral("(1, 12, 16, 16)");
        QTest::newRow("follow-tensors-output") << follow << 2 << QStringLiteral("(1, 16, 768)");
        QTest::newRow("view-transpose-queries.view") << view << 0 << QStringLiteral("(1, 16, 12, 64)");
        QTest::newRow("view-transpose-queries.heads") << view << 1 << QStringLiteral("(1, 12, 16, 64)");
        QTest::newRow("view-transpose-context.transposed") << view << 2 << QStringLiteral("(1, 16, 12, 64)");
    }
    void stageStepsNameTheShape()
    {
        QFETCH(QString, lesson);
        QFETCH(int, step);
        QFETCH(QString, shape);
        QTest::failOnWarning(QRegularExpression(QStringLiteral("QString::arg")));
        Session session;
        MainWindow window(&session);
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        LessonsPanel panel(&session, &window);
        QVERIFY(panel.setLesson(lesson));
        panel.setStep(step);
        panel.showMe();
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        const CheckResult r = panel.check();
        QVERIFY2(r.passed, qPrintable(r.message));
        QVERIFY2(r.message.contains(shape), qPrintable(r.message));
        QVERIFY2(!r.message.contains(QLatin1Char('%')), qPrintable(r.message));
    }

    void theLessonsDockFitsBesideTheViewsAt1600Pixels()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        MainWindow window(&session);
        window.resize(1600, 1000);
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        QVERIFY(parser.parse({"attention-lab", "--guide", "view-transpose", "--screenshot", "x.png"}));
        AppShell shell(&window, &session, parser);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        QVERIFY(shell.lessonsDock()->isVisible());
        QCOMPARE(shell.lessonsPanel()->lesson()->id, QStringLiteral("view-transpose"));
        // The dock asks for little, so the views beside it keep their room.
        QVERIFY2(shell.lessonsDock()->minimumSizeHint().width() <= 340,
                 qPrintable(QString::number(shell.lessonsDock()->minimumSizeHint().width())));
        QVERIFY(window.width() <= window.centralWidget()->minimumSizeHint().width() + 420);
    }

    // The guide's buttons stay where they are as the check's message grows and shrinks: a student's hand on
    // Check (or a clicker) finds it in the same place (the message under them moved them up a line at a time).
    void theGuidesButtonsStayPutAsItsMessageGrows()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("book")));
        MainWindow window(&session);
        window.resize(1600, 1000);
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        QVERIFY(parser.parse({"attention-lab", "--guide", "gpt2-split", "--screenshot", "x.png"}));
        AppShell shell(&window, &session, parser);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        LessonsPanel* panel = shell.lessonsPanel();
        const auto buttonsAt = [panel] {
            QList<QPoint> at;
            for (QPushButton* b : panel->findChildren<QPushButton*>())
                at << b->mapTo(panel, QPoint(0, 0));
            return at;
        };
        QCoreApplication::processEvents();
        const QList<QPoint> before = buttonsAt();
        QVERIFY(before.size() >= 4);
        QVERIFY(!panel->check().passed); // a sentence or two: the book's 3 → 2 is not GPT-2 small
        QVERIFY(!panel->resultLabel()->text().isEmpty());
        panel->resultLabel()->setText(panel->resultLabel()->text().repeated(4)); // as a long message would
        QCoreApplication::processEvents();
        QTRY_COMPARE(buttonsAt(), before);
        QVERIFY(panel->resultLabel()->height() >= panel->resultLabel()->heightForWidth(panel->resultLabel()->width()));
    }

    // A teacher starts the class with the questions on: --predict-first, with the View menu's action checked.
    void predictFirstStartsOnWhenAsked()
    {
        ShelledWindow w({"attention-lab", "--predict-first", "--presentation"});
        QVERIFY(w.parsed);
        w.window.show();
        QTRY_VERIFY_WITH_TIMEOUT(idle(w.session), 30000);
        QVERIFY(w.session.study()->predict().on);
        QVERIFY(!w.session.study()->stageRevealed());
        auto* action = w.window.findChild<QAction*>(QStringLiteral("predict-first"));
        QVERIFY(action && action->isChecked());
    }

    // On a projector the stage is the picture: the menu bar, the status bar, the text row and the values
    // make room for the diagram, the menus' keys still work, and leaving presentation brings all of it back.
    void presentationGivesTheStageTheRoom()
    {
        ShelledWindow w({"attention-lab"});
        QVERIFY(w.parsed);
        Session& session = w.session;
        MainWindow& window = w.window;
        AppShell& shell = *w.shell;
        session.view()->setTab(ViewMode::Stepper);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);
        StepperView* stepper = window.stepperView();
        auto* text = window.findChild<QWidget*>(QStringLiteral("text-input-panel"));
        QVERIFY(stepper && text);
        const auto diagramShare = [stepper] {
            const QWidget* top = stepper->diagram()->parentWidget();
            const auto* split = qobject_cast<const QSplitter*>(top->parentWidget());
            return split ? double(top->height()) / split->height() : 0.0;
        };
        const double deskShare = diagramShare();
        QVERIFY(window.menuBar()->isVisible() && window.statusBar()->isVisible() && text->isVisible());
        QVERIFY(stepper->grid()->isVisible());

        // A label styled before presentation began (the first divergence's verdict) grows with the type too.
        auto* verdict = window.findChild<QLabel*>(QStringLiteral("divergence-verdict"));
        QVERIFY(verdict && !verdict->styleSheet().isEmpty());
        const int deskPx = QFontInfo(verdict->font()).pixelSize();
        shell.presentation()->setPresenting(true);
        QCOMPARE(QFontInfo(verdict->font()).pixelSize(), shell.presentation()->fontPixelSize());
        QVERIFY(QFontInfo(verdict->font()).pixelSize() > deskPx);
        QTRY_VERIFY(!window.menuBar()->isVisible());
        QVERIFY(!window.statusBar()->isVisible());
        QVERIFY(!text->isVisible());
        QVERIFY(!stepper->grid()->isVisible());
        QTRY_VERIFY2(diagramShare() > 0.65, qPrintable(QString::number(diagramShare())));
        QVERIFY(stepper->source()->isVisible()); // the code stays, at the page's whole width
        // A hidden menu bar's shortcuts would not fire: the window's own copies do.
        QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(session.study()->predict().on);
        QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(!session.study()->predict().on);
        session.document()->setSlot(Slot::num_heads, 6);
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(session.document()->config().num_heads, 12);

        shell.presentation()->setPresenting(false);
        QTRY_VERIFY(window.menuBar()->isVisible());
        QVERIFY(window.statusBar()->isVisible() && text->isVisible() && stepper->grid()->isVisible());
        QTRY_VERIFY2(std::abs(diagramShare() - deskShare) < 0.05, qPrintable(QString::number(diagramShare())));
    }

    void keyboardShortcutsReachTheShell()
    {
        ShelledWindow w({"attention-lab"});
        QVERIFY(w.parsed);
        Session& session = w.session;
        MainWindow& window = w.window;
        AppShell& shell = *w.shell;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_VERIFY_WITH_TIMEOUT(idle(session), 30000);

        session.document()->setSlot(Slot::num_heads, 6);
        QCOMPARE(shell.history()->stack()->count(), 1);
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(session.document()->config().num_heads, 12);
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(session.document()->config().num_heads, 6);

        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(shell.presentation()->presenting());
        QCOMPARE(shell.presentation()->fontPixelSize(), 22);
        QTest::keyClick(&window, Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(shell.presentation()->fontPixelSize() > 22);
        QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(shell.presentation()->fontPixelSize(), 22);
        QTest::keyClick(&window, Qt::Key_Escape);
        QVERIFY(!shell.presentation()->presenting());
        QCOMPARE(shell.presentation()->fontPixelSize(), 16);

        QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
        QVERIFY(shell.lessonsDock()->isVisible());
    }

    void contractLessonWantsEveryValueInItsSlot()
    {
        Session session;
        MainWindow window(&session);
        LessonsPanel panel(&session, &window);
        QVERIFY(panel.setLesson(QStringLiteral("argument-contract")));
        panel.showMe();
        QCOMPARE(session.document()->config().context_length, 12);
        QVERIFY(!panel.check().passed);
        session.document()->setCallText(QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)"));
        QVERIFY(panel.check().passed);
    }
};

QTEST_MAIN(TestUiClassroom)
#include "test_ui_classroom.moc"
