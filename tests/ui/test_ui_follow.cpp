// Follow a value in the real window: a number clicked in the values grid is the Session's selection (the
// full index, with the shown sequence and head); stepping to another stage marks where that number lives
// and the cells it was computed from, and the panel under the diagram says it in words.
#include "common/session_fixtures.h"
#include "features/stepper/stepper_view.h"
#include "features/stepper/follow_panel.h"
#include "features/stepper/tensor_grid.h"

#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QString markOf(QTableWidget* table, int row, int column)
{
    QTableWidgetItem* item = table->item(row, column);
    return item ? item->data(Qt::UserRole).toString() : QString();
}

int marked(QTableWidget* table)
{
    int n = 0;
    for (int r = 0; r < table->rowCount(); ++r)
        for (int c = 0; c < table->columnCount(); ++c)
            n += !markOf(table, r, c).isEmpty();
    return n;
}

} // namespace

class TestUiFollow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { testing::openWindow(session_, window_, QStringLiteral("book"), {1600, 1000}); }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }
    void clickedNumberIsFollowed();
    void keyboardMovesTheSelection();
    void layoutStageNamesItsComputation();
    void followedNumberBeyondTheCornerIsBroughtIntoView();

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

void TestUiFollow::clickedNumberIsFollowed()
{
    QTableWidget* table = window_->stepperView()->grid()->table();
    QVERIFY(session_->view()->setStageByName(QStringLiteral("attn_scores")));
    session_->view()->setHead(1);
    QTRY_COMPARE(table->rowCount(), 6);
    const QRect cell = table->visualItemRect(table->item(3, 1));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(session_->document()->selectedElement().stage, QStringLiteral("attn_scores"));
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 1, 3, 1}));
    QCOMPARE(markOf(table, 3, 1), QStringLiteral("the followed number"));
    FollowPanel* panel = window_->stepperView()->follow();
    QVERIFY(panel->isVisible());
    QVERIFY2(panel->text()->text().contains("attn_scores (0, 1, 3, 1)"), qPrintable(panel->text()->text()));
    QVERIFY(panel->text()->text().contains("dot product"));

    // queries.heads: row 3 of head 1 is what the score read (head_dim 1: one cell).
    QVERIFY(session_->view()->setStageByName(QStringLiteral("queries.heads")));
    QTRY_COMPARE(markOf(table, 3, 0), QStringLiteral("a source of the followed number"));
    QCOMPARE(marked(table), 1);
    // keys.heads: row 1.
    QVERIFY(session_->view()->setStageByName(QStringLiteral("keys.heads")));
    QTRY_COMPARE(markOf(table, 1, 0), QStringLiteral("a source of the followed number"));
    QCOMPARE(marked(table), 1);
    // The weights of that row read the whole masked row: following a weight marks it there.
    QVERIFY(session_->view()->setStageByName(QStringLiteral("attn_weights")));
    QTRY_COMPARE(table->rowCount(), 6);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(4, 2)).center());
    QVERIFY(session_->view()->setStageByName(QStringLiteral("attn_scores.masked")));
    QTRY_COMPARE(marked(table), 6);
    for (int c = 0; c < 6; ++c)
        QCOMPARE(markOf(table, 4, c), QStringLiteral("a source of the followed number"));
    QVERIFY(session_->view()->setStageByName(QStringLiteral("attn_scores")));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(3, 1)).center());
    // Another head shows none of it.
    session_->view()->setHead(0);
    QVERIFY(session_->view()->setStageByName(QStringLiteral("queries.heads")));
    QTRY_COMPARE(marked(table), 0);
    // Let go: nothing followed, the panel gives the diagram its room back.
    panel->findChild<QPushButton*>(QStringLiteral("follow-clear"))->click();
    QVERIFY(session_->document()->selectedElement().empty());
    QVERIFY(!panel->isVisible());
}

void TestUiFollow::keyboardMovesTheSelection()
{
    QTableWidget* table = window_->stepperView()->grid()->table();
    QVERIFY(session_->view()->setStageByName(QStringLiteral("context.merged")));
    QTRY_COMPARE(table->rowCount(), 6);
    table->setFocus();
    table->setCurrentCell(2, 0);
    QTest::keyClick(table, Qt::Key_Right);
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 2, 1}));
    QTest::keyClick(table, Qt::Key_Down);
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 3, 1}));
    QCOMPARE(table->currentRow(), 3); // the marks change, the keyboard's place stays
    // context.heads holds the same number as a copy: head 1, row 3.
    session_->view()->setHead(1);
    QVERIFY(session_->view()->setStageByName(QStringLiteral("context.heads")));
    QTRY_COMPARE(markOf(table, 3, 0), QStringLiteral("a copy of the followed number"));
}

// Issue 43.5: a number of queries.heads was only moved there by view and transpose; the panel names the
// projection that computed it, and the input row it read is marked as a source in x.
void TestUiFollow::layoutStageNamesItsComputation()
{
    QTableWidget* table = window_->stepperView()->grid()->table();
    QVERIFY(session_->view()->setStageByName(QStringLiteral("queries.heads")));
    session_->view()->setHead(1);
    QTRY_COMPARE(table->rowCount(), 6);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(2, 0)).center());
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 1, 2, 0}));
    const QString text = window_->stepperView()->follow()->text()->text();
    QVERIFY2(text.contains("The number itself was computed at queries (0, 2, 1), as a projection: the row of x times "
                           "row 1 of W_query.weight"),
             qPrintable(text));
    QVERIFY(session_->view()->setStageByName(QStringLiteral("x")));
    QTRY_COMPARE(marked(table), 3); // token 2's d_in = 3 inputs
    for (int c = 0; c < 3; ++c)
        QCOMPARE(markOf(table, 2, c), QStringLiteral("a source of the followed number"));
    QVERIFY(session_->view()->setStageByName(QStringLiteral("queries")));
    QTRY_COMPARE(markOf(table, 2, 1), QStringLiteral("the followed number"));
}

// Issue 43.15: GPT-2 small's grids show a 12 × 12 window of 768 columns; a number followed beyond it is
// brought into view and marked, where it stayed hidden in the top-left corner.
void TestUiFollow::followedNumberBeyondTheCornerIsBroughtIntoView()
{
    window_.reset();
    session_.reset();
    testing::openWindow(session_, window_, QStringLiteral("gpt2-small"), {1600, 1000});
    TensorGrid* grid = window_->stepperView()->grid();
    QTableWidget* table = grid->table();
    QVERIFY(session_->view()->setStageByName(QStringLiteral("context.merged")));
    QTRY_COMPARE(table->columnCount(), TensorGrid::kCorner);
    QCOMPARE(grid->firstColumn(), 0);
    session_->document()->setSelectedElement({QStringLiteral("context.merged"), {0, 3, 66}});
    QTRY_COMPARE(grid->firstColumn(), 66 - TensorGrid::kCorner / 2);
    const int column = 66 - static_cast<int>(grid->firstColumn());
    QCOMPARE(table->horizontalHeaderItem(column)->text(), QStringLiteral("66"));
    QCOMPARE(markOf(table, 3 - static_cast<int>(grid->firstRow()), column), QStringLiteral("the followed number"));
    QCOMPARE(marked(table), 1);
    QVERIFY2(grid->summary()->text().contains("around the followed number"), qPrintable(grid->summary()->text()));
    // A click in the moved window follows the number under it, not the corner's.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(1, 2)).center());
    QCOMPARE(session_->document()->selectedElement().index,
             (QList<qint64>{0, 1 + grid->firstRow(), 2 + grid->firstColumn()}));
    // context.heads holds it as head 1 (66 = 64 + 2), feature 2: the head's 64 columns show it in full.
    session_->document()->setSelectedElement({QStringLiteral("context.merged"), {0, 3, 66}});
    session_->view()->setHead(1);
    QVERIFY(session_->view()->setStageByName(QStringLiteral("context.heads")));
    QTRY_VERIFY(marked(table) >= 1);
    QCOMPARE(markOf(table, 3 - static_cast<int>(grid->firstRow()), 2 - static_cast<int>(grid->firstColumn())),
             QStringLiteral("a copy of the followed number"));
}

QTEST_MAIN(TestUiFollow)
#include "test_ui_follow.moc"
