// Keyboard alone: on every page Tab reaches every control that can be operated and comes back round
// (no trap, nothing unreachable), and Shift+Tab goes the other way; the features drawn by hand work
// from the keyboard (the heatmap's cell and readout, selecting a head, the stage list, the tensor
// table); a focused control keeps Space and the arrows; the tabs switch with Ctrl+PageDown/PageUp
// and from the tab bar.
#include "common/page_walk.h"
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "features/registry.h"
#include "features/heatmaps/heatmaps_view.h"
#include "features/stepper/stepper_view.h"
#include "features/tradeoffs/tradeoffs_view.h"
#include "features/tradeoffs/tradeoff_chart_widget.h"
#include "shell/main_window.h"
#include "widgets/heatmap_widget.h"
#include "features/stepper/stage_stepper.h"
#include "features/stepper/tensor_grid.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QWidget* focused()
{
    return QApplication::focusWidget();
}

// Presses `key` on the focused widget until the focus is back on `start`; the widgets passed on the way.
QList<QWidget*> walk(QWidget* start, Qt::Key key, int limit)
{
    QList<QWidget*> visited;
    for (int i = 0; i < limit; ++i) {
        QTest::keyClick(focused(), key, key == Qt::Key_Backtab ? Qt::ShiftModifier : Qt::NoModifier);
        if (focused() == start)
            return visited;
        visited << focused();
    }
    return {}; // never came back: a trap
}

QString describeAll(const QList<QWidget*>& widgets)
{
    QStringList names;
    for (auto* w : widgets)
        names << testing::nameOf(w);
    return names.join("\n");
}

} // namespace

class TestUiKeyboard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        testing::openWindow(session_, window_, QStringLiteral("book"), {1600, 1000});
        QApplication::setActiveWindow(window_.get());
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
    }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void tabOrderReachesEveryControlAndComesRound_data()
    {
        QTest::addColumn<int>("page");
        const auto pages = testing::allPages();
        for (int i = 0; i < static_cast<int>(pages.size()); ++i)
            QTest::newRow(pages[static_cast<std::size_t>(i)].name) << i;
    }

    void tabOrderReachesEveryControlAndComesRound()
    {
        QFETCH(int, page);
        const testing::PageStop stop = testing::allPages()[static_cast<std::size_t>(page)];
        QVERIFY(testing::showPage(window_.get(), stop));
        QList<QWidget*> controls;
        QStringList unreachable;
        for (QWidget* w : testing::visibleControls(window_.get())) {
            if (!w->isEnabled())
                continue; // nothing to operate until it is enabled
            if (!(w->focusPolicy() & Qt::TabFocus))
                unreachable << testing::nameOf(w);
            controls << w;
        }
        QVERIFY2(unreachable.isEmpty(), qPrintable("not in the tab chain:\n" + unreachable.join("\n")));
        QVERIFY(controls.size() >= 10);
        QWidget* start = controls.front();
        start->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), start);

        const int limit = 3 * static_cast<int>(controls.size()) + 20;
        for (Qt::Key key : {Qt::Key_Tab, Qt::Key_Backtab}) {
            const QList<QWidget*> visited = walk(start, key, limit);
            QVERIFY2(!visited.isEmpty(), qPrintable(QStringLiteral("%1 never came back to %2; stuck at %3")
                                                        .arg(key == Qt::Key_Tab ? "Tab" : "Shift+Tab",
                                                             testing::nameOf(start), testing::nameOf(focused()))));
            QList<QWidget*> missed;
            for (QWidget* w : controls)
                if (w != start && !visited.contains(w) && std::none_of(visited.begin(), visited.end(), [w](QWidget* v) {
                        return testing::sameExclusiveGroup(v, w);
                    }))
                    missed << w;
            QVERIFY2(missed.isEmpty(), qPrintable(QStringLiteral("%1 on %2 never reached:\n%3")
                                                      .arg(key == Qt::Key_Tab ? "Tab" : "Shift+Tab",
                                                           QString::fromLatin1(stop.name), describeAll(missed))));
            for (QWidget* w : visited) // the walk stays on this page's visible widgets
                QVERIFY2(w->isVisible(), qPrintable(testing::nameOf(w)));
        }
    }

    // The arrows move the heatmap's highlighted cell; the readout follows as it follows the mouse, and
    // the window's stage keys stay out of the way while the heatmap has the focus.
    void heatmapArrowsMoveTheCellAndTheReadout()
    {
        session_->view()->setTab(ViewMode::Heatmaps);
        session_->view()->setStageIndex(2);
        HeatmapWidget* map = window_->heatmapsView()->selectedHeatmap();
        auto* readout = window_->heatmapsView()->findChild<QLabel*>(QStringLiteral("hover-readout"));
        QVERIFY(readout);
        map->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), map);
        QCOMPARE(map->currentRow(), 0);
        QCOMPARE(map->currentColumn(), 0);
        QCOMPARE(readout->text(), map->describe(*map->cellAt(0, 0))); // focus alone shows where it is
        const struct {
            Qt::Key key;
            Qt::KeyboardModifiers modifiers;
            int row, col;
        } steps[] = {{Qt::Key_Down, {}, 1, 0},
                     {Qt::Key_Down, {}, 2, 0},
                     {Qt::Key_Right, {}, 2, 1},
                     {Qt::Key_End, {}, 2, 5},
                     {Qt::Key_Right, {}, 2, 5},
                     {Qt::Key_Up, {}, 1, 5},
                     {Qt::Key_Home, {}, 1, 0},
                     {Qt::Key_Left, {}, 1, 0},
                     {Qt::Key_End, Qt::ControlModifier, 5, 5},
                     {Qt::Key_Home, Qt::ControlModifier, 0, 0}};
        for (const auto& s : steps) {
            QTest::keyClick(map, s.key, s.modifiers);
            QCOMPARE(map->currentRow(), s.row);
            QCOMPARE(map->currentColumn(), s.col);
            QCOMPARE(readout->text(), map->describe(*map->cellAt(s.row, s.col)));
            // The cell is the Session's, and every head's matrix shows it.
            QCOMPARE(session_->view()->heatmapCell(), (HeatmapCell{s.row, s.col}));
            for (const HeatmapWidget* head : window_->heatmapsView()->smallMultiples())
                QCOMPARE(head->currentRow(), s.row);
        }
        session_->view()->setHeatmapCell({3, 4}); // set by the Session (a lesson, a test): the large view follows
        QCOMPARE(map->currentRow(), 3);
        QCOMPARE(map->currentColumn(), 4);
        session_->view()->setHeatmapCell({99, -5}); // kept within the six tokens' matrix
        QCOMPARE(session_->view()->heatmapCell(), (HeatmapCell{5, 0}));
        session_->view()->setHeatmapCell({0, 0});
        QCOMPARE(session_->view()->stageIndex(), 2); // Left/Right moved the cell, not the stage
        QVERIFY(readout->text().contains(QStringLiteral("query")));

        // A masked cell reads as masked in the readout, as under the mouse.
        QTest::keyClick(map, Qt::Key_Right);
        QVERIFY2(readout->text().contains(QStringLiteral("masked")), qPrintable(readout->text()));
    }

    void enterOrSpaceOnASmallHeatmapSelectsItsHead()
    {
        session_->view()->setTab(ViewMode::Heatmaps);
        session_->view()->setStageIndex(3);
        const auto& small = window_->heatmapsView()->smallMultiples();
        QCOMPARE(static_cast<int>(small.size()), 2);
        QCOMPARE(session_->view()->head(), 0);
        small[1]->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), small[1]);
        QTest::keyClick(small[1], Qt::Key_Return);
        QCOMPARE(session_->view()->head(), 1);
        small[0]->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), small[0]);
        QTest::keyClick(small[0], Qt::Key_Space);
        QCOMPARE(session_->view()->head(), 0);
        QCOMPARE(session_->view()->stageIndex(), 3); // Space did not step the stages
    }

    void aFocusedButtonKeepsSpace()
    {
        session_->view()->setTab(ViewMode::Heatmaps);
        session_->view()->setStageIndex(3);
        auto* scores = window_->heatmapsView()->findChild<QPushButton*>(
            QStringLiteral("heatmap-kind-%1").arg(static_cast<int>(AttentionMatrix::Scores)));
        QVERIFY(scores);
        scores->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), scores);
        QTest::keyClick(scores, Qt::Key_Space);
        QCOMPARE(session_->view()->heatmapKind(), AttentionMatrix::Scores);
        QCOMPARE(session_->view()->stageIndex(), 3);
        // The kinds are one exclusive group: Tab stops at the chosen one, the arrows choose another.
        QTest::keyClick(scores, Qt::Key_Right);
        QCOMPARE(session_->view()->heatmapKind(), AttentionMatrix::MaskedScores);
        QTest::keyClick(focused(), Qt::Key_Right);
        QCOMPARE(session_->view()->heatmapKind(), AttentionMatrix::Weights);
        QTest::keyClick(focused(), Qt::Key_Left);
        QCOMPARE(session_->view()->heatmapKind(), AttentionMatrix::MaskedScores);
        QCOMPARE(session_->view()->stageIndex(), 3);
        // Over the stage list Space still steps: a list has nothing to press.
        session_->view()->setTab(ViewMode::Stepper);
        window_->stepperView()->stepper()->list()->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), static_cast<QWidget*>(window_->stepperView()->stepper()->list()));
        QTest::keyClick(focused(), Qt::Key_Space);
        QCOMPARE(session_->view()->stageIndex(), 4);
    }

    void stageListAndTensorTableByKeyboard()
    {
        session_->view()->setTab(ViewMode::Stepper);
        QListWidget* list = window_->stepperView()->stepper()->list();
        list->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), list);
        QTest::keyClick(list, Qt::Key_Down);
        QTest::keyClick(list, Qt::Key_Down);
        QCOMPARE(session_->view()->stageIndex(), 2);
        QTest::keyClick(list, Qt::Key_Right); // the window's stage keys still work over the list
        QCOMPARE(session_->view()->stageIndex(), 3);

        QVERIFY(session_->view()->setStageByName(QStringLiteral("attn_weights")));
        QTableWidget* table = window_->stepperView()->grid()->table();
        table->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), table);
        table->setCurrentCell(0, 0);
        const int stage = session_->view()->stageIndex();
        QTest::keyClick(table, Qt::Key_Right);
        QTest::keyClick(table, Qt::Key_Right);
        QCOMPARE(table->currentColumn(), 2); // the table's own arrows
        QCOMPARE(session_->view()->stageIndex(), stage);
    }

    // The trade-off chart's columns, chosen by the arrows as by a click; the table's rows by Enter.
    void tradeoffChartAndTableByKeyboard()
    {
        session_->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // d_out 768: many head counts
        QTRY_VERIFY_WITH_TIMEOUT(testing::idle(*session_) && session_->document()->config().num_heads == 12, 30000);
        session_->view()->setTab(ViewMode::Tradeoffs);
        QApplication::processEvents();
        TradeoffChartWidget* chart = window_->tradeoffsView()->chart();
        const auto& rows = chart->chartPainter().tradeoffs().rows;
        QVERIFY(rows.size() >= 4);
        int at = -1;
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (rows[i].num_heads == 12)
                at = static_cast<int>(i);
        QVERIFY(at > 0 && at + 1 < static_cast<int>(rows.size()));
        const std::int64_t before = rows[static_cast<std::size_t>(at) - 1].num_heads;
        const std::int64_t after = rows[static_cast<std::size_t>(at) + 1].num_heads;
        const std::int64_t first = rows.front().num_heads;
        chart->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), static_cast<QWidget*>(chart));
        QTest::keyClick(chart, Qt::Key_Right);
        QCOMPARE(session_->document()->config().num_heads, after);
        QTest::keyClick(chart, Qt::Key_Left);
        QTest::keyClick(chart, Qt::Key_Left);
        QCOMPARE(session_->document()->config().num_heads, before);
        QTest::keyClick(chart, Qt::Key_Home);
        QCOMPARE(session_->document()->config().num_heads, first);
        QVERIFY(chart->accessibleDescription().contains(QStringLiteral("num_heads %1 (in use)").arg(first)));

        auto* table = window_->tradeoffsView()->findChild<QTableWidget*>(QStringLiteral("tradeoff-table"));
        QVERIFY(table);
        table->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), static_cast<QWidget*>(table));
        table->setCurrentCell(2, 0);
        QTest::keyClick(table, Qt::Key_Return);
        QCOMPARE(session_->document()->config().num_heads, table->item(2, 0)->data(Qt::UserRole).toLongLong());
    }

    void tabsSwitchByKeyboard()
    {
        auto* tabs = window_->centralWidget()->findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->currentIndex(), 0);
        // From anywhere, the settings on the left included.
        auto* preset = window_->findChild<QComboBox*>(QStringLiteral("preset"));
        QVERIFY(preset);
        preset->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), preset);
        for (int i = 1; i <= tabs->count(); ++i) {
            QTest::keyClick(focused(), Qt::Key_PageDown, Qt::ControlModifier);
            QCOMPARE(tabs->currentIndex(), i % tabs->count());
        }
        QTest::keyClick(focused(), Qt::Key_PageUp, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), tabs->count() - 1);
        QCOMPARE(session_->view()->tab(), featureRegistry().back().view()); // the session follows the tab
        // From the tab bar, with the arrows (which over the stepper would otherwise step the stages).
        tabs->setCurrentIndex(0);
        tabs->tabBar()->setFocus(Qt::TabFocusReason);
        QTRY_COMPARE(focused(), static_cast<QWidget*>(tabs->tabBar()));
        const int stage = session_->view()->stageIndex();
        QTest::keyClick(tabs->tabBar(), Qt::Key_Right);
        QCOMPARE(tabs->currentIndex(), 1);
        QTest::keyClick(tabs->tabBar(), Qt::Key_Left);
        QCOMPARE(tabs->currentIndex(), 0);
        QCOMPARE(session_->view()->stageIndex(), stage);
        // Ctrl+Tab inside the tab widget too.
        QTest::keyClick(tabs->tabBar(), Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 1);
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiKeyboard)
#include "test_ui_keyboard.moc"
