// The trade-off explorer, driven through the real window: one row and one chart column per divisor of
// d_out, a click on either applies that num_heads, and the d_out buttons apply a width the current
// num_heads divides.
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "features/tradeoffs/tradeoff_chart_widget.h"
#include "features/tradeoffs/tradeoff_table.h"
#include "features/tradeoffs/tradeoffs_view.h"

#include <QApplication>
#include <QHeaderView>
#include <QPushButton>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiTradeoffs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        session_ = std::make_unique<Session>();
        window_ = std::make_unique<MainWindow>(session_.get());
        session_->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        session_->view()->setTab(ViewMode::Tradeoffs);
        window_->resize(1600, 1000);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void everyDivisorIsARowWithTheSameParameters()
    {
        TradeoffTable* table = window_->tradeoffsView()->table();
        QCOMPARE(table->rowCount(), 18); // 768 = 2^8 * 3 has 18 divisors
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("1"));
        QCOMPARE(table->item(17, 0)->text(), QStringLiteral("768"));
        for (int r = 0; r < table->rowCount(); ++r)
            QCOMPARE(table->item(r, 2)->text(), QStringLiteral("2,360,064"));
        const int current = table->rowOfHeads(12);
        QVERIFY(current >= 0);
        QCOMPARE(table->item(current, 1)->text(), QStringLiteral("64"));
        QVERIFY(table->selectionModel()->isRowSelected(current, {}));
        // The score memory grows with the heads: 4 * b * H * T * T bytes, 16 tokens.
        const auto& rows = window_->tradeoffsView()->chart()->chartPainter().tradeoffs().rows;
        QCOMPARE(rows[static_cast<std::size_t>(current)].score_bytes, 4.0 * 12 * 16 * 16);
    }

    // In projector type every header still reads whole: each column is at least as wide as its header
    // asks, at the desktop's type and at presentation's.
    void headersAreNeverCut_data()
    {
        QTest::addColumn<int>("typePx");
        QTest::newRow("desktop-16") << 16;
        QTest::newRow("projector-22") << 22;
        QTest::newRow("large-30") << 30;
    }
    void headersAreNeverCut()
    {
        QFETCH(int, typePx);
        const QFont before = QApplication::font();
        QFont font = before;
        font.setPixelSize(typePx);
        QApplication::setFont(font);
        window_->resize(1280, 720);
        QCoreApplication::processEvents();
        TradeoffTable* table = window_->tradeoffsView()->table();
        QHeaderView* header = table->horizontalHeader();
        for (int c = 0; c < table->columnCount(); ++c)
            QVERIFY2(header->sectionSize(c) >= header->sectionSizeHint(c),
                     qPrintable(QStringLiteral("%1: %2 < %3")
                                    .arg(table->horizontalHeaderItem(c)->text())
                                    .arg(header->sectionSize(c))
                                    .arg(header->sectionSizeHint(c))));
        QApplication::setFont(before);
    }

    void clickingATableRowAppliesThatNumHeads()
    {
        TradeoffTable* table = window_->tradeoffsView()->table();
        const int row = table->rowOfHeads(6);
        QVERIFY(row >= 0);
        table->scrollToItem(table->item(row, 3));
        const QRect cell = table->visualItemRect(table->item(row, 3));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(session_->document()->config().num_heads, 6);
        QVERIFY(!session_->trace()->hasErrors());
        // The table and chart follow: 6 is now the selected row.
        QVERIFY(table->selectionModel()->isRowSelected(table->rowOfHeads(6), {}));
    }

    void clickingAChartColumnAppliesThatNumHeads()
    {
        TradeoffChartWidget* chart = window_->tradeoffsView()->chart();
        const auto& rows = chart->chartPainter().tradeoffs().rows;
        std::size_t row = 0;
        while (row < rows.size() && rows[row].num_heads != 24)
            ++row;
        QVERIFY(row < rows.size());
        const QRectF bar = chart->chartPainter().barRect(chart->chartRect(), 2, row);
        QTest::mouseClick(chart, Qt::LeftButton, {}, bar.center().toPoint() - QPoint(0, 2));
        QCOMPARE(session_->document()->config().num_heads, 24);
        QTRY_VERIFY_WITH_TIMEOUT(session_->trace()->trace() && !session_->trace()->busy(), 30000);
        QCOMPARE(session_->trace()->trace()->config.num_heads, 24);
    }

    void widthButtonsOfferOnlyMultiplesOfNumHeads()
    {
        session_->document()->setSlot(Slot::d_out, 770); // 770 / 12 is not whole
        QVERIFY(session_->trace()->hasErrors());
        const auto& buttons = window_->tradeoffsView()->widthButtons();
        QVERIFY(!buttons.empty());
        for (QPushButton* b : buttons)
            QCOMPARE(b->text().toInt() % 12, 0);
        QVERIFY(!window_->findChild<QPushButton*>(QStringLiteral("width-770")));
        auto* b780 = window_->findChild<QPushButton*>(QStringLiteral("width-780"));
        auto* b768 = window_->findChild<QPushButton*>(QStringLiteral("width-768"));
        QVERIFY(b780 && b768);
        QTest::mouseClick(b780, Qt::LeftButton);
        QCOMPARE(session_->document()->config().d_out, 780);
        QVERIFY(!session_->trace()->hasErrors());
        QTRY_VERIFY(window_->findChild<QPushButton*>(QStringLiteral("width-780")) &&
                    window_->findChild<QPushButton*>(QStringLiteral("width-780"))->isChecked());
        // The head rows now list the divisors of 780.
        QCOMPARE(window_->tradeoffsView()->table()->rowCount(), 24);
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiTradeoffs)
#include "test_ui_tradeoffs.moc"
