// Every step of every guided lesson, as the command line opens it (--guide NAME --guide-step N): on a
// 1280×720 projector in presentation mode and on a 1600×1000 monitor, what the step points at (its
// declared targets, lessons.h) is on screen whole without scrolling, drawn at the window's type size
// or larger, diagram text included, and code lines are not cut at the pane's edge.
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "common/layout_checks.h"
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "shell/app_shell.h"
#include "shell/lesson_scroll.h"
#include "shell/lessons.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"
#include "shell/presentation.h"
#include "render/heatmap_painter.h"
#include "shell/call_line.h"
#include "shell/config_panel.h"
#include "widgets/middle_elided_combo.h"
#include "widgets/heatmap_widget.h"
#include "features/stepper/shape_diagram_widget.h"
#include "features/stepper/source_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTextBlock>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::cutTextReason;
using testing::describe;
using testing::screenOfSize;

namespace {

const QSize kScreens[] = {{1280, 720}, {1600, 1000}};

QRect rectString(const QRectF& r)
{
    return r.toAlignedRect();
}

QString where(const QRectF& r)
{
    const QRect a = rectString(r);
    return QStringLiteral("%1,%2 %3x%4").arg(a.x()).arg(a.y()).arg(a.width()).arg(a.height());
}

// Empty when all of `w` shows as the window is now: inside each ancestor (a scroll area's viewport
// as it is scrolled) and inside the screen.
QString wholeReason(QWidget* w, QWidget* window, QScreen* screen)
{
    if (!w->isVisible())
        return describe(w) + QStringLiteral(" is hidden");
    QRect r = w->rect();
    for (QWidget* a = w; a != window && a->parentWidget(); a = a->parentWidget()) {
        r.translate(a->pos());
        if (!a->parentWidget()->rect().contains(r))
            return QStringLiteral("%1 lies at %2, outside %3 (%4)")
                .arg(describe(w), where(r), describe(a->parentWidget()), where(a->parentWidget()->rect()));
    }
    const QRect onScreen = r.translated(window->geometry().topLeft());
    if (!screen->geometry().contains(onScreen))
        return QStringLiteral("%1 lies at %2 on the screen, outside %3")
            .arg(describe(w), where(onScreen), where(screen->geometry()));
    return {};
}

QString sizeReason(const QString& what, const QFont& font, int typePx)
{
    const int px = QFontInfo(font).pixelSize();
    return px >= typePx ? QString()
                        : QStringLiteral("%1 is drawn at %2 px, under the type's %3 px").arg(what).arg(px).arg(typePx);
}

QWidget* findShown(QWidget* window, const QString& name)
{
    return shownLessonTarget(window, name); // as the lessons find what to scroll to
}

QStringList widgetProblems(QWidget* w, QWidget* window, QScreen* screen, int typePx)
{
    QStringList out;
    for (const QString& why :
         {wholeReason(w, window, screen), sizeReason(describe(w), w->font(), typePx), cutTextReason(w)})
        if (!why.isEmpty())
            out << why;
    return out;
}

QStringList codeLineProblems(QWidget* window, QScreen* screen, const QString& text, int typePx)
{
    auto* view = qobject_cast<SourceView*>(findShown(window, QStringLiteral("source-view")));
    if (!view)
        return {QStringLiteral("no source view is shown")};
    QStringList out = widgetProblems(view, window, screen, typePx);
    const QTextBlock block = view->document()->find(text).block();
    if (!block.isValid())
        return out << QStringLiteral("no line reads \"%1\"").arg(text);
    QTextCursor start(block), end(block);
    end.movePosition(QTextCursor::EndOfBlock);
    const QRect first = view->cursorRect(start), last = view->cursorRect(end);
    const QRect port = view->viewport()->rect();
    if (!port.contains(first) || !port.contains(last))
        out << QStringLiteral("the line \"%1\" runs from %2 to %3, outside the pane %4")
                   .arg(text, where(first), where(last), where(port));
    return out;
}

QStringList diagramProblems(QWidget* window, QScreen* screen, const QString& part, int typePx)
{
    auto* diagram = qobject_cast<ShapeDiagramWidget*>(findShown(window, QStringLiteral("shape-diagram")));
    if (!diagram)
        return {QStringLiteral("no shape diagram is shown")};
    QStringList out;
    const QString whole = wholeReason(diagram, window, screen);
    if (!whole.isEmpty())
        out << whole;
    const ShapeDiagramLayout& l = diagram->diagramLayout();
    std::vector<const ShapeText*> texts;
    if (part == QLatin1String("strides")) {
        for (const ShapeText& t : l.notes)
            if (t.text.startsWith(QLatin1String("stride")))
                texts.push_back(&t);
    } else if (part == QLatin1String("blocks")) {
        for (const ShapeBlock& b : l.after) {
            texts.push_back(&b.name);
            texts.push_back(&b.sizeText);
        }
    } else if (part == QLatin1String("badges")) {
        for (const ShapeBadge& b : l.badges)
            texts.push_back(&b.text);
    }
    if (texts.empty())
        return out << QStringLiteral("the diagram has no %1").arg(part);
    const QRectF inside = QRectF(diagram->rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
    for (const ShapeText* t : texts) {
        const QString what = QStringLiteral("the diagram's \"%1\"").arg(QString(t->text).replace('\n', ' '));
        const QRectF r = t->atBaseline ? QRectF(t->rect.topLeft(), QSizeF(1, 1)) : t->rect;
        if (!inside.contains(r))
            out << QStringLiteral("%1 lies at %2, outside the %3 diagram").arg(what, where(r), where(diagram->rect()));
        const QString small = sizeReason(what, t->font, typePx);
        if (!small.isEmpty())
            out << small;
    }
    return out;
}

QStringList cellsProblems(QWidget* window, QScreen* screen, const QString& name, int typePx)
{
    auto* map = qobject_cast<HeatmapWidget*>(findShown(window, name));
    if (!map)
        return {QStringLiteral("no heatmap %1 is shown").arg(name)};
    QStringList out;
    const QString whole = wholeReason(map, window, screen);
    if (!whole.isEmpty())
        out << whole;
    const HeatmapLayout& l = map->layout();
    if (!QRectF(map->rect()).contains(l.matrix) || l.matrix.isEmpty())
        out << QStringLiteral("%1's matrix lies at %2, outside it").arg(name, where(l.matrix));
    if (std::min(l.matrix.width(), l.matrix.height()) < 4 * typePx) // a stamp, not a matrix one can read
        out << QStringLiteral("%1's matrix is %2 pixels, under four times the type's %3 px")
                   .arg(name, where(l.matrix))
                   .arg(typePx);
    const QString small = sizeReason(name + QStringLiteral("'s labels"), l.font, typePx);
    if (!small.isEmpty())
        out << small;
    return out;
}

// A scroll area the step scrolled must not leave a row half scrolled away at its top edge (lesson 9 step 2 on a
// projector: the row of Task and emb above Train showed its lower half only). Leaf widgets, as a row is made of.
// At the page's end a row may stay cut: scrolling down is what would show it whole, and there is no more page
// (the settings column's two-line "Input" label over its diagnostics on a projector).
QStringList cutAtTopProblems(const QList<QWidget*>& targets)
{
    QStringList out;
    QList<QScrollArea*> areas;
    for (QWidget* t : targets)
        for (QWidget* p = t->parentWidget(); p; p = p->parentWidget())
            if (auto* a = qobject_cast<QScrollArea*>(p);
                a && a->widget() && a->widget()->isAncestorOf(t) && !areas.contains(a))
                areas << a;
    for (QScrollArea* area : areas) {
        const int top = area->verticalScrollBar()->value();
        if (top <= 0)
            continue;
        if (top >= area->verticalScrollBar()->maximum() - 8) // at the end, but for the margin the scroll keeps
            continue;
        for (QWidget* w : area->widget()->findChildren<QWidget*>()) {
            if (!w->isVisible() || !w->findChildren<QWidget*>().isEmpty())
                continue;
            const int y = w->mapTo(area->widget(), QPoint(0, 0)).y();
            if (y < top && y + w->height() > top)
                out << QStringLiteral("%1 is cut by the top edge of %2 (rows %3 to %4, scrolled to %5 of %6)")
                           .arg(describe(w), describe(area))
                           .arg(y)
                           .arg(y + w->height())
                           .arg(top)
                           .arg(area->verticalScrollBar()->maximum());
        }
    }
    return out;
}

} // namespace

class TestUiLessonTargets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings(QStringLiteral("attention-lab"), QStringLiteral("attention-lab")).clear();
        for (QSize s : kScreens)
            QVERIFY2(screenOfSize(s), qPrintable(QStringLiteral("no %1 screen").arg(testing::screenSizeName(s))));
    }

    void everyStepDeclaresItsTargets()
    {
        for (const Lesson& l : lessons())
            for (const LessonStep& s : l.steps)
                QVERIFY2(!s.targets.empty(), qPrintable(l.id + QStringLiteral(": ") + s.title));
    }

    // The cells print what the book prints: four decimals.
    void cellsShowFourDecimals()
    {
        QCOMPARE(formatValue(0.48333f), QStringLiteral("0.4833"));
        QCOMPARE(formatValue(-1.25f), QStringLiteral("-1.2500"));
    }

    // Presentation hides the settings column, but not while the open dock shows a step pointing at a
    // setting in it: the column follows the step shown (and the dock's closing), presenting or not.
    void presentationKeepsTheSettingsTheStepNames()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        MainWindow window(&session);
        window.setScreen(screenOfSize({1280, 720}));
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        QVERIFY(parser.parse({"attention-lab", "--guide", "gpt2-split", "--presentation", "--screenshot", "x.png"}));
        AppShell shell(&window, &session, parser);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(testing::waitUntilSettled(session, 60000));
        auto* column = window.findChild<QScrollArea*>(QStringLiteral("settings-column"));
        QVERIFY(column);
        QVERIFY(shell.presentation()->presenting());
        QVERIFY(stepPointsInto(*shell.lessonsPanel()->currentStep(), window.configPanel())); // d_in, num_heads...
        QVERIFY(column->isVisible());
        QSignalSpy shown(shell.lessonsPanel(), &LessonsPanel::stepShown);
        shell.lessonsPanel()->setLesson(QStringLiteral("follow-tensors")); // points at the diagram and the code
        QCOMPARE(shown.count(), 1);
        QVERIFY(!stepPointsInto(*shell.lessonsPanel()->currentStep(), window.configPanel()));
        QVERIFY(column->isHidden());
        shell.lessonsPanel()->setLesson(QStringLiteral("gpt2-split"));
        QCOMPARE(shown.count(), 2);
        QVERIFY(column->isVisible());
        shell.lessonsDock()->hide(); // no step is shown: the projector is the stages' again
        QVERIFY(column->isHidden());
        shell.lessonsDock()->show();
        QTRY_VERIFY(column->isVisible());
        shell.presentation()->setPresenting(false); // the column as it was, and the type the application's
        QVERIFY(column->isVisible());
    }

    // Lesson 4 on a projector beside the settings column: the call line and the Module box are narrower than
    // "MultiHeadAttentionWrapper(...)"; they still tell the wrapper from the integrated module. The line shows its
    // start (it showed "ttentionWrapper(3, 2, 6, 0.0, 2)"), the box both ends ("Multi…apper", not "MultiHeadAtte").
    void theWrapperIsNamedBesideTheSettingsColumn()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        MainWindow window(&session);
        window.setScreen(screenOfSize({1280, 720}));
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        QVERIFY(parser.parse({"attention-lab", "--guide", "wrapper-integrated", "--guide-step", "1", "--presentation",
                              "--screenshot", "x.png"}));
        AppShell shell(&window, &session, parser);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(testing::waitUntilSettled(session, 60000));
        QCoreApplication::processEvents();
        CallLine* call = window.callLine();
        QVERIFY(call->text().startsWith(QStringLiteral("MultiHeadAttentionWrapper(")));
        QVERIFY2(call->fontMetrics().horizontalAdvance(call->text()) > call->width(), "the line is wide enough anyway");
        QCOMPARE(call->cursorPosition(), 0);
        MiddleElidedComboBox* module = nullptr;
        for (auto* box : window.configPanel()->findChildren<MiddleElidedComboBox*>())
            if (box->currentText() == QLatin1String("MultiHeadAttentionWrapper"))
                module = box;
        QVERIFY(module && module->isVisible());
        const QString shown = module->shownText();
        QVERIFY2(shown.startsWith(QStringLiteral("Multi")) && shown.endsWith(QStringLiteral("per")), qPrintable(shown));
        shell.presentation()->setPresenting(false);
    }

    // A step pointing at the diagram's strides keeps its pane tall enough for them at the projector's
    // type; the dock closed, the pane is the page's again (the splitter free to be dragged).
    void diagramRoomGoesBackWithTheDock()
    {
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        MainWindow window(&session);
        window.setScreen(screenOfSize({1280, 720}));
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")});
        QVERIFY(parser.parse({"attention-lab", "--guide", "follow-tensors", "--guide-step", "1", "--presentation",
                              "--screenshot", "x.png"}));
        AppShell shell(&window, &session, parser);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(testing::waitUntilSettled(session, 60000));
        auto* diagram = window.findChild<ShapeDiagramWidget*>(QStringLiteral("shape-diagram"));
        QVERIFY(diagram);
        QWidget* pane = diagram->parentWidget(); // the diagram and the followed number, over the code
        QTRY_VERIFY(pane->minimumHeight() > 0);
        QVERIFY(diagram->heightAtType() > diagram->minimumHeight()); // more than the page alone would give it
        QTRY_VERIFY(diagram->height() >= diagram->heightAtType());
        shell.lessonsDock()->hide();
        QCOMPARE(pane->minimumHeight(), 0);
        shell.presentation()->setPresenting(false);
    }

    // Presenting without a lesson, every stage is drawn in the projector's type: its boxes, strides and
    // badges (the revealed queries.view used to be drawn at 0.6x, 9-pixel labels beside 1.4x stage names).
    void presentedStagesAreDrawnAtTheType_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("stage");
        for (const char* preset : {"gpt2-small", "book"})
            for (const char* stage : {"x", "queries", "queries.view", "queries.heads", "attn_scores", "attn_weights",
                                      "context.heads", "context.transposed", "context.merged", "output"})
                QTest::addRow("%s %s", preset, stage) << QString::fromLatin1(preset) << QString::fromLatin1(stage);
    }
    void presentedStagesAreDrawnAtTheType()
    {
        QFETCH(QString, preset);
        QFETCH(QString, stage);
        QScreen* screen = screenOfSize({1280, 720});
        Session session;
        session.document()->applyPreset(*findPreset(preset));
        MainWindow window(&session);
        window.setScreen(screen);
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
        QVERIFY(parser.parse({"attention-lab", "--presentation", "--screenshot", "x.png"}));
        AppShell shell(&window, &session, parser);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(testing::waitUntilSettled(session, 60000));
        QVERIFY(session.view()->setStageByName(stage));
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::processEvents();
            QTest::qWait(20);
        }
        const int typePx = QApplication::font().pixelSize();
        QStringList problems;
        for (const char* part : {"blocks", "strides", "badges"})
            problems << diagramProblems(&window, screen, QString::fromLatin1(part), typePx);
        shell.presentation()->setPresenting(false); // the type size is the application's
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }

    void targetsAreInViewAndLegible_data()
    {
        QTest::addColumn<QSize>("screenSize");
        QTest::addColumn<bool>("presenting");
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<int>("step"); // from 1, as --guide-step
        for (const Lesson& l : lessons())
            for (int i = 1; i <= static_cast<int>(l.steps.size()); ++i) {
                QTest::addRow("1280x720 presenting %s %d", qPrintable(l.id), i)
                    << QSize(1280, 720) << true << l.id << i;
                QTest::addRow("1600x1000 %s %d", qPrintable(l.id), i) << QSize(1600, 1000) << false << l.id << i;
            }
    }

    void targetsAreInViewAndLegible()
    {
        QFETCH(QSize, screenSize);
        QFETCH(bool, presenting);
        QFETCH(QString, lesson);
        QFETCH(int, step);
        QScreen* screen = screenOfSize(screenSize);
        Session session;
        session.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // what gui_main starts from
        MainWindow window(&session);
        window.setScreen(screen);
        QCommandLineParser parser;
        addShellOptions(parser);
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("F")}); // no remembered geometry
        QStringList args{"attention-lab",       "--guide",      lesson, "--guide-step",
                         QString::number(step), "--screenshot", "x.png"};
        if (presenting)
            args << QStringLiteral("--presentation");
        QVERIFY(parser.parse(args));
        AppShell shell(&window, &session, parser);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // A Show me that trains (lesson 9) is checked once trained, minutes under the sanitizers: its targets
        // are the page's widgets, there whether training ends or stops, so it is stopped at its next step.
        if (session.feature<TradeoffsState>()->sweep()->busy())
            session.feature<TradeoffsState>()->sweep()->cancel();
        QVERIFY(testing::waitUntilSettled(session, 60000)); // a step may leave the settings in error: no trace
        QTRY_VERIFY_WITH_TIMEOUT(!window.pagesBusy(), 60000);
        for (int i = 0; i < 3; ++i) { // the queued keep-on-screen, the scroll to the diagnostics
            QCoreApplication::processEvents();
            QTest::qWait(20);
        }
        QCOMPARE(shell.presentation()->presenting(), presenting);
        const int typePx = QApplication::font().pixelSize();
        const LessonStep* s = shell.lessonsPanel()->currentStep();
        QVERIFY(s);
        QStringList problems;
        QList<QWidget*> shownTargets;
        for (const LessonTarget& t : s->targets) {
            switch (t.kind) {
            case LessonTarget::Kind::Widget: {
                QWidget* w = findShown(&window, t.name);
                problems << (w ? widgetProblems(w, &window, screen, typePx)
                               : QStringList{QStringLiteral("no widget %1 is shown").arg(t.name)});
                if (w)
                    shownTargets << w;
                break;
            }
            case LessonTarget::Kind::CodeLine: problems << codeLineProblems(&window, screen, t.name, typePx); break;
            case LessonTarget::Kind::DiagramPart: problems << diagramProblems(&window, screen, t.name, typePx); break;
            case LessonTarget::Kind::Cells: problems << cellsProblems(&window, screen, t.name, typePx); break;
            }
        }
        problems << cutAtTopProblems(shownTargets);
        shell.presentation()->setPresenting(false); // the type size is the application's
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
    }
};

int main(int argc, char** argv)
{
    const QString config = testing::useOffscreenScreens(QList<QSize>(std::begin(kScreens), std::end(kScreens)),
                                                        QStringLiteral("attnlab-lesson-screens"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiLessonTargets test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_lesson_targets.moc"
