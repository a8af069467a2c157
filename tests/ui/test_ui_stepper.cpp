// Stepping through the forward pass, by button and by keyboard: the stage, the drawn diagram and the
// highlighted source line all move together; the heatmaps show every head.
#include "common/session_fixtures.h"
#include "render/heatmap_source.h"
#include "widgets/heatmap_widget.h"
#include "features/heatmaps/heatmaps_view.h"
#include "shell/main_window.h"
#include "forward/module_source.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "features/stepper/shape_diagram_widget.h"
#include "features/stepper/source_view.h"
#include "features/stepper/stepper_view.h"
#include "features/stepper/tensor_grid.h"

#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiStepper : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { testing::openWindow(session_, window_, QStringLiteral("book"), {1600, 1000}); }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void stepsByButtonAndKeyboard()
    {
        const auto names = stage_names(session_->document()->config());
        QCOMPARE(session_->trace()->trace()->stages.size(), names.size());
        QCOMPARE(session_->view()->stageIndex(), 0);
        auto* next = window_->findChild<QPushButton*>(QStringLiteral("next-stage"));
        QTest::mouseClick(next, Qt::LeftButton);
        // The book's statement order: keys first, and the views put values before queries.
        QCOMPARE(session_->view()->stage()->name, std::string("keys"));
        QTest::keyClick(window_.get(), Qt::Key_Right);
        QCOMPARE(session_->view()->stage()->name, std::string("queries"));
        QTest::keyClick(window_.get(), Qt::Key_Space);
        QTest::keyClick(window_.get(), Qt::Key_PageDown);
        QCOMPARE(session_->view()->stage()->name, std::string("keys.view"));
        QTest::keyClick(window_.get(), Qt::Key_Left);
        QTest::keyClick(window_.get(), Qt::Key_PageUp);
        QCOMPARE(session_->view()->stage()->name, std::string("queries"));
        auto* previous = window_->findChild<QPushButton*>(QStringLiteral("previous-stage"));
        for (int i = 0; i < 5; ++i)
            QTest::mouseClick(previous, Qt::LeftButton);
        QCOMPARE(session_->view()->stageIndex(), 0);
        QVERIFY(!previous->isEnabled());
    }

    // The window-wide stage keys act only where the stages are shown: over the Debugging tab's lists and
    // the other tabs the arrows and PageUp/PageDown are left to the widgets there.
    void stageKeysActOnlyOverTheStepperAndHeatmaps_data()
    {
        QTest::addColumn<int>("view");
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("step"); // expected change of the stage index
        const std::pair<const char*, int> keys[] = {{"Right", Qt::Key_Right},
                                                    {"Left", Qt::Key_Left},
                                                    {"PageDown", Qt::Key_PageDown},
                                                    {"PageUp", Qt::Key_PageUp}};
        for (const FeatureInfo& page : featureRegistry()) // every tab; only these two show the stages
            for (const auto& [keyName, key] : keys) {
                const bool steps = page.view() == ViewMode::Stepper || page.view() == ViewMode::Heatmaps;
                const int forward = key == Qt::Key_Right || key == Qt::Key_PageDown ? 1 : -1;
                QTest::newRow(qPrintable(QStringLiteral("%1, %2").arg(QLatin1String(page.id), keyName)))
                    << int(page.view()) << key << (steps ? forward : 0);
            }
    }

    void stageKeysActOnlyOverTheStepperAndHeatmaps()
    {
        QFETCH(int, view);
        QFETCH(int, key);
        QFETCH(int, step);
        session_->view()->setStageIndex(3);
        session_->view()->setTab(static_cast<ViewMode>(view));
        QTest::keyClick(window_.get(), static_cast<Qt::Key>(key));
        QCOMPARE(session_->view()->stageIndex(), 3 + step);
    }

    void steppingChangesTheDiagramAndTheHighlightedLine()
    {
        StepperView* view = window_->stepperView();
        QVERIFY(session_->view()->setStageByName("values"));
        QApplication::processEvents();
        const QImage before = view->diagram()->grab().toImage();
        const int lineBefore = view->source()->highlightedLine();
        QCOMPARE(lineBefore, source_line(ModuleKind::MultiHeadAttention, "values"));
        QVERIFY(module_source(ModuleKind::MultiHeadAttention)[static_cast<std::size_t>(lineBefore)].find("W_value") !=
                std::string::npos);

        QTest::keyClick(window_.get(), Qt::Key_Right);
        QCOMPARE(session_->view()->stage()->name, std::string("keys.view"));
        QApplication::processEvents();
        const QImage after = view->diagram()->grab().toImage();
        QVERIFY(before != after);
        const int lineAfter = view->source()->highlightedLine();
        QVERIFY(lineAfter != lineBefore);
        QVERIFY(module_source(ModuleKind::MultiHeadAttention)[static_cast<std::size_t>(lineAfter)].find("keys.view(") !=
                std::string::npos);
        QCOMPARE(view->source()->textCursor().blockNumber(), lineAfter);
    }

    void valuesGridShowsTheSelectedSlice()
    {
        session_->view()->setStageByName("attn_weights");
        session_->view()->setHead(1);
        session_->view()->setBatchIndex(1);
        QTableWidget* table = window_->stepperView()->grid()->table();
        QCOMPARE(table->rowCount(), 6);
        QCOMPARE(table->columnCount(), 6);
        const Tensor& w = session_->view()->stage()->tensor;
        QCOMPARE(table->item(3, 2)->text(), QString::number(w.at({1, 1, 3, 2}), 'f', 4)); // as the book prints
        QVERIFY(table->verticalHeaderItem(1)->text().contains("journey"));
        // Above the diagonal the weight is 0 because the causal mask hid the key: said so, not shown as 0.0000.
        QCOMPARE(w.at({1, 1, 0, 5}), 0.0f);
        QCOMPARE(table->item(0, 5)->text(), QStringLiteral("masked"));
        QVERIFY(table->item(0, 5)->toolTip().contains("causal mask"));
        QVERIFY(table->item(5, 0)->text() != QStringLiteral("masked")); // below: a weight the softmax gave
        QVERIFY2(window_->stepperView()->grid()->summary()->text().contains("15 masked (0:"),
                 qPrintable(window_->stepperView()->grid()->summary()->text()));
        // Before the mask, the scores are plain numbers.
        session_->view()->setStageByName("attn_scores");
        QVERIFY(table->item(0, 5)->text() != QStringLiteral("masked"));
    }

    void heatmapsShowEveryHeadAndSelectOnClick()
    {
        session_->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        session_->view()->setTab(ViewMode::Heatmaps);
        QTRY_VERIFY_WITH_TIMEOUT(session_->trace()->trace() && !session_->trace()->busy() &&
                                     session_->trace()->trace()->config.num_heads == 12,
                                 30000);
        HeatmapsView* view = window_->heatmapsView();
        QCOMPARE(static_cast<int>(view->smallMultiples().size()), 12);
        for (auto* w : view->smallMultiples()) {
            QVERIFY(w->isVisible());
            QVERIFY(w->heatmap().slice().valid());
        }
        QTest::mouseClick(view->smallMultiples()[7], Qt::LeftButton, {}, view->smallMultiples()[7]->rect().center());
        QCOMPARE(session_->view()->head(), 7);
        QCOMPARE(view->selectedHeatmap()->heatmap().slice().rows, 16);
        QVERIFY(view->selectedHeatmap()->heatmap().slice().values ==
                heatmapSlice(session_->trace()->trace(), AttentionMatrix::Weights, 7, 0).values);
        // Hovering a cell names query, key and the exact value.
        HeatmapWidget* large = view->selectedHeatmap();
        const QRectF m = large->heatmap().matrixRect(QRectF(large->rect()).adjusted(4, 4, -4, -4));
        const double cell = m.width() / 16;
        QTest::mouseMove(large, QPoint(int(m.left() + 2.5 * cell), int(m.top() + 9.5 * cell)));
        auto* readout = view->findChild<QLabel*>(QStringLiteral("hover-readout"));
        QTRY_VERIFY(readout->text().contains("query #9"));
        QVERIFY(readout->text().contains("key #2"));
        const float exact = heatmapSlice(session_->trace()->trace(), AttentionMatrix::Weights, 7, 0).value(9, 2);
        QVERIFY(readout->text().contains(formatValue(exact)));
    }

    void trainingModeAddsTheDropoutStageAndItsHeatmap()
    {
        session_->view()->setTab(ViewMode::Heatmaps); // a tab behind another is brought up to date when shown
        HeatmapsView* view = window_->heatmapsView();
        auto* dropoutButton = view->findChild<QPushButton*>(QStringLiteral("heatmap-kind-3"));
        QVERIFY(!dropoutButton->isEnabled()); // eval mode: no dropout stage to show
        session_->document()->setSlot(Slot::dropout, 0.5);
        session_->document()->setTraining(true);
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy() && session_->trace()->trace()->find("attn_weights.dropout"),
                                 30000);
        QVERIFY(dropoutButton->isEnabled());
        QTest::mouseClick(dropoutButton, Qt::LeftButton);
        QCOMPARE(session_->view()->heatmapKind(), AttentionMatrix::Dropout);
        const HeatmapSlice slice = view->selectedHeatmap()->heatmap().slice();
        QCOMPARE(slice.stage, std::string("attn_weights.dropout"));
        // Dropped weights are zeros, not masked cells: only the future stays hatched.
        int dropped = 0;
        for (int r = 0; r < slice.rows; ++r)
            for (int c = 0; c <= r; ++c)
                if (slice.value(r, c) == 0.0f) {
                    QVERIFY(!slice.masked(r, c));
                    ++dropped;
                }
        QVERIFY(dropped > 0);
        QVERIFY(slice.masked(0, 1));
    }

    // GroupedQueryAttention records two stages more than MultiHeadAttention: the counter and the list
    // follow, and the repeated keys come right after the heads-first stages.
    void groupedQueryStagesAreListedAndCounted()
    {
        session_->document()->setCallText(QStringLiteral("GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4)"));
        QVERIFY(testing::waitUntilSettled(*session_));
        const int count = static_cast<int>(session_->trace()->trace()->stages.size());
        QCOMPARE(count, static_cast<int>(stage_names(session_->document()->config()).size()));
        Config mha = session_->document()->config();
        mha.kind = ModuleKind::MultiHeadAttention;
        QCOMPARE(count, static_cast<int>(stage_names(mha).size()) + 2); // keys.repeated, values.repeated
        session_->view()->setStageIndex(count - 1);
        auto* position = window_->findChild<QLabel*>(QStringLiteral("stage-position"));
        QVERIFY(position);
        QCOMPARE(position->text(), QStringLiteral("stage %1 of %1").arg(count));
        session_->view()->setStageIndex(10);
        QCOMPARE(session_->view()->stage()->name, std::string("keys.repeated"));
        QCOMPARE(position->text(), QStringLiteral("stage 11 of %1").arg(count));
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiStepper)
#include "test_ui_stepper.moc"
