// When views update (edits within a frame): a page behind another tab is not rebuilt after
// an edit but shows the current trace the moment it is shown; big heatmaps get their pictures from a
// worker, identical to the GUI thread's; small settings computed on the GUI thread still let the
// newest edit win over a large computation still running, in either order.
#include "common/session_fixtures.h"
#include "features/heatmaps/heatmaps_view.h"
#include "features/stepper/stepper_view.h"
#include "widgets/heatmap_widget.h"
#include "features/stepper/tensor_grid.h"

#include <QCheckBox>
#include <QLabel>
#include <QTableWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::idle;

namespace {

bool heatmapsShow(HeatmapsView* view, const std::shared_ptr<const Trace>& trace)
{
    bool all = view->selectedHeatmap()->heatmap().slice().trace == trace && !view->smallMultiples().empty();
    for (const HeatmapWidget* w : view->smallMultiples())
        all = all && w->heatmap().slice().trace == trace;
    return all;
}

// True once every head's drawn size has stayed the same for 100 ms of events (up to 10 s).
bool settled(HeatmapsView* view)
{
    auto sizes = [view] {
        std::vector<QSize> out;
        for (HeatmapWidget* w : view->smallMultiples())
            out.push_back(w->imageSize(w->heatmap()));
        out.push_back(view->selectedHeatmap()->imageSize(view->selectedHeatmap()->heatmap()));
        return out;
    };
    std::vector<QSize> last = sizes();
    for (int quiet = 0, waited = 0; waited < 10000; waited += 20) {
        QTest::qWait(20);
        const std::vector<QSize> now = sizes();
        quiet = now == last ? quiet + 20 : 0;
        last = now;
        if (quiet >= 100)
            return true;
    }
    return false;
}

QStringList cells(const QTableWidget* table)
{
    QStringList out;
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c)
            out << (table->item(r, c) ? table->item(r, c)->text() : QString());
    return out;
}

} // namespace

class TestUiRefresh : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    // An edit made on the stepper tab: the heatmaps tab waits, then shows the edit's trace when shown.
    void hiddenHeatmapsShowTheCurrentTraceWhenShown_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("tokens"); // 0: the preset's own input
        QTest::newRow("book, 2 x 6 tokens (pictures drawn in the paint)") << QStringLiteral("book") << 0;
        QTest::newRow("GPT-2 small, 16 tokens") << QStringLiteral("gpt2-small") << 16;
        QTest::newRow("GPT-2 small, 512 tokens (pictures from the worker)") << QStringLiteral("gpt2-small") << 512;
    }
    void hiddenHeatmapsShowTheCurrentTraceWhenShown()
    {
        QFETCH(QString, preset);
        QFETCH(int, tokens);
        testing::openWindow(session_, window_, preset);
        if (tokens)
            session_->document()->setInputShape(1, tokens);
        session_->view()->setTab(ViewMode::Heatmaps);
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 60000);
        HeatmapsView* view = window_->heatmapsView();
        QTRY_VERIFY_WITH_TIMEOUT(heatmapsShow(view, session_->trace()->trace()), 10000);

        session_->view()->setTab(ViewMode::Stepper);
        QVERIFY(!view->isVisible());
        window_->findChild<QCheckBox*>(QStringLiteral("qkv_bias"))->click(); // new weights, new trace
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 60000);
        const auto edited = session_->trace()->trace();
        QVERIFY(!heatmapsShow(view, edited)); // nobody looked: not rebuilt

        session_->view()->setTab(ViewMode::Heatmaps);
        QVERIFY(view->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(heatmapsShow(view, edited), 10000);
        QCOMPARE(view->smallMultiples().size(), static_cast<std::size_t>(session_->view()->headCount()));
        QCOMPARE(view->selectedHeatmap()->heatmap().slice().rows, tokens ? tokens : 6);
    }

    // The pictures a worker rendered are the ones the GUI thread would have drawn, at the size drawn.
    // A late layout pass (the page's scroll bar coming or going) can narrow every head by a few pixels
    // after the request: the sizes are left to settle before the edit, and a picture that still arrives
    // at an old size must be redrawn at the new one when it is painted.
    void workerPicturesMatchTheGuiThreads()
    {
        testing::openWindow(session_, window_, QStringLiteral("gpt2-small"));
        session_->view()->setTab(ViewMode::Heatmaps);
        session_->document()->setInputShape(1, 512);
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 60000);
        HeatmapsView* view = window_->heatmapsView();
        QTRY_VERIFY_WITH_TIMEOUT(heatmapsShow(view, session_->trace()->trace()), 10000);
        QVERIFY(settled(view));
        window_->findChild<QCheckBox*>(QStringLiteral("qkv_bias"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && heatmapsShow(view, session_->trace()->trace()), 60000);
        std::vector<HeatmapWidget*> widgets = view->smallMultiples();
        widgets.push_back(view->selectedHeatmap());
        for (HeatmapWidget* w : widgets) {
            const HeatmapPainter& painter = w->heatmap();
            QVERIFY(!painter.image().isNull());
            QVERIFY(painter.image() ==
                    HeatmapPainter::renderImage(painter.slice(), painter.scale(), painter.image().size()));
            QVERIFY(!w->imageSize(painter).isEmpty());
            // A head scrolled out of the page's view gets no paint event until it is scrolled to: the
            // grab paints it as the screen would then.
            if (painter.image().size() != w->imageSize(painter))
                w->grab();
            QCOMPARE(painter.image().size(), w->imageSize(painter));
            QVERIFY(painter.image() ==
                    HeatmapPainter::renderImage(painter.slice(), painter.scale(), w->imageSize(painter)));
        }
    }

    // The stepper's table, left stale behind the heatmaps tab, matches a fresh one when shown.
    void hiddenTensorGridShowsTheCurrentStageWhenShown()
    {
        testing::openWindow(session_, window_, QStringLiteral("book"));
        session_->view()->setTab(ViewMode::Heatmaps);
        auto* grid = window_->findChild<TensorGrid*>();
        QVERIFY(grid && !grid->isVisible());
        window_->findChild<QCheckBox*>(QStringLiteral("qkv_bias"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 30000);
        session_->view()->setStageIndex(session_->view()->stageIndex() + 1);
        session_->view()->setTab(ViewMode::Stepper);
        QVERIFY(grid->isVisible());
        TensorGrid fresh(session_->feature<StepperState>()); // never shown: refreshes at once, the reference
        QCOMPARE(grid->summary()->text(), fresh.summary()->text());
        QCOMPARE(cells(grid->table()), cells(fresh.table()));
    }

    // Newest request wins whichever of the two runs where: a small edit after a large one, and the reverse.
    void newestEditWinsAcrossGuiThreadAndWorker_data()
    {
        QTest::addColumn<bool>("smallLast");
        QTest::newRow("large (worker) then small (GUI thread)") << true;
        QTest::newRow("small (GUI thread) then large (worker)") << false;
    }
    void newestEditWinsAcrossGuiThreadAndWorker()
    {
        QFETCH(bool, smallLast);
        testing::openWindow(session_, window_, QStringLiteral("gpt2-small"));
        const std::int64_t first = smallLast ? 1024 : 8, last = smallLast ? 8 : 1024;
        session_->document()->setInputShape(1, first);
        session_->document()->setInputShape(1, last);
        QVERIFY(session_->trace()->busy());
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 60000);
        QCOMPARE(session_->trace()->trace()->stages.front().tensor.size(1), last);
        QTest::qWait(200); // nothing late may replace it
        QCOMPARE(session_->trace()->trace()->stages.front().tensor.size(1), last);
        QVERIFY(!session_->trace()->busy());
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiRefresh)
#include "test_ui_refresh.moc"
