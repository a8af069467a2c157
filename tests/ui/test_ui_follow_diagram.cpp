// Follow a value from the shape diagram, in every theme: a block clicked is the Session's selection (that
// block's element, at the clicked coordinate, in the shown sequence and head), and the diagram of a related
// stage bands the blocks where that number lives or that it was computed from; the keyboard does the same.
#include "common/session_fixtures.h"
#include "common/theme_list.h"
#include "features/stepper/stepper_view.h"
#include "render/render_style.h"
#include "render/shape_diagram_follow.h"
#include "features/stepper/shape_diagram_widget.h"

#include <QApplication>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

struct Band {
    bool previous;
    int dim;
    qint64 first, last;
    ShapeFollowMark::Kind kind;
};

QString describe(const std::vector<ShapeFollowMark>& marks)
{
    QStringList out;
    for (const ShapeFollowMark& m : marks)
        out << QStringLiteral("%1 dim %2 [%3, %4] kind %5")
                   .arg(m.previous ? "before" : "after")
                   .arg(m.dim)
                   .arg(m.first)
                   .arg(m.last)
                   .arg(static_cast<int>(m.kind));
    return out.join("; ");
}

const ShapeBlock* blockOf(const ShapeDiagramLayout& l, bool previous, int dim)
{
    for (const ShapeBlock& b : previous ? l.before : l.after)
        if (b.dim == dim)
            return &b;
    return nullptr;
}

// Where coordinate `at` of a block is drawn: its share of the block's width, low in the box (the name
// plate sits in the middle).
QPoint pointOf(const ShapeBlock& b, qint64 at)
{
    const double x = b.rect.left() + (static_cast<double>(at) + 0.5) * b.rect.width() / static_cast<double>(b.size);
    return QPointF(x, b.rect.bottom() - 4).toPoint();
}

} // namespace

Q_DECLARE_METATYPE(std::vector<Band>)

class TestUiFollowDiagram : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { testing::openWindow(session_, window_, QStringLiteral("book"), {1600, 1000}); }
    void cleanup()
    {
        window_.reset();
        session_.reset();
        QApplication::setPalette(QPalette());
    }
    void clickedBlockIsFollowed_data();
    void clickedBlockIsFollowed();
    void keyboardFollowsBlocks();

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

void TestUiFollowDiagram::clickedBlockIsFollowed_data()
{
    QTest::addColumn<int>("theme");
    QTest::addColumn<QString>("clicked");
    QTest::addColumn<int>("dim");
    QTest::addColumn<qint64>("at");
    QTest::addColumn<QList<qint64>>("selected");
    QTest::addColumn<QString>("related");
    QTest::addColumn<std::vector<Band>>("bands");
    using K = ShapeFollowMark::Kind;
    // The book's toy: b 2, num_tokens 6, d_out 2, num_heads 2, head_dim 1; the page shows sequence 0, head 0.
    for (int t = 0; t < static_cast<int>(testing::themes().size()); ++t) {
        const QString theme = QString::fromLatin1(testing::themes()[static_cast<std::size_t>(t)].name);
        // The row name outlives the lambda: a QByteArray, read in the same expression as newRow.
        const auto row = [&](const char* name) { return (theme + QStringLiteral(": ") + name).toUtf8(); };
        // queries.view's head stripe 1: the same float in queries (d_out 1) and in queries.heads.
        QTest::newRow(row("view, head 1").constData())
            << t << "queries.view" << 2 << qint64(1) << QList<qint64>{0, 0, 1, 0} << "queries.heads"
            << std::vector<Band>{{false, 0, 0, 0, K::Followed}, {false, 1, 1, 1, K::Followed},
                                 {false, 2, 0, 0, K::Followed}, {false, 3, 0, 0, K::Followed},
                                 {true, 0, 0, 0, K::Followed},  {true, 1, 0, 0, K::Followed},
                                 {true, 2, 1, 1, K::Followed},  {true, 3, 0, 0, K::Followed}};
        // keys.heads' token 3 of head 0: the same float in keys.view, token 3, head 0.
        QTest::newRow(row("heads, token 3").constData())
            << t << "keys.heads" << 2 << qint64(3) << QList<qint64>{0, 0, 3, 0} << "keys.view"
            << std::vector<Band>{{false, 0, 0, 0, K::Followed}, {false, 1, 3, 3, K::Followed},
                                 {false, 2, 0, 0, K::Followed}, {false, 3, 0, 0, K::Followed},
                                 {true, 0, 0, 0, K::Followed},  {true, 1, 3, 3, K::Followed},
                                 {true, 2, 0, 0, K::Followed}};
        // A score of key 4 reads key row 4 of keys.heads.
        QTest::newRow(row("scores, key 4").constData())
            << t << "attn_scores" << 3 << qint64(4) << QList<qint64>{0, 0, 0, 4} << "keys.heads"
            << std::vector<Band>{{false, 0, 0, 0, K::Source},
                                 {false, 1, 0, 0, K::Source},
                                 {false, 2, 4, 4, K::Source},
                                 {false, 3, 0, 0, K::Source}};
        // A weight of query 2 reads that query's whole masked row.
        QTest::newRow(row("weights, query 2").constData())
            << t << "attn_weights" << 2 << qint64(2) << QList<qint64>{0, 0, 2, 0} << "attn_scores.masked"
            << std::vector<Band>{{false, 0, 0, 0, K::Source},
                                 {false, 1, 0, 0, K::Source},
                                 {false, 2, 2, 2, K::Source},
                                 {false, 3, 0, 5, K::Source}};
        // A context value of token 1 reads weights row 1.
        QTest::newRow(row("context, token 1").constData())
            << t << "context.heads" << 2 << qint64(1) << QList<qint64>{0, 0, 1, 0} << "attn_weights"
            << std::vector<Band>{{false, 0, 0, 0, K::Source},
                                 {false, 1, 0, 0, K::Source},
                                 {false, 2, 1, 1, K::Source},
                                 {false, 3, 0, 5, K::Source}};
        // context.merged's d_out 1 is a copy of context.transposed's head 1 (contiguous() copied it), which is
        // context.heads' head 1, token 0.
        QTest::newRow(row("merged, d_out 1").constData())
            << t << "context.merged" << 2 << qint64(1) << QList<qint64>{0, 0, 1} << "context.transposed"
            << std::vector<Band>{{false, 0, 0, 0, K::Copy}, {false, 1, 0, 0, K::Copy}, {false, 2, 1, 1, K::Copy},
                                 {false, 3, 0, 0, K::Copy}, {true, 0, 0, 0, K::Copy},  {true, 1, 1, 1, K::Copy},
                                 {true, 2, 0, 0, K::Copy},  {true, 3, 0, 0, K::Copy}};
    }
}

void TestUiFollowDiagram::clickedBlockIsFollowed()
{
    QFETCH(int, theme);
    QFETCH(QString, clicked);
    QFETCH(int, dim);
    QFETCH(qint64, at);
    QFETCH(QList<qint64>, selected);
    QFETCH(QString, related);
    QFETCH(std::vector<Band>, bands);
    QApplication::setPalette(testing::themes()[static_cast<std::size_t>(theme)].palette());
    ShapeDiagramWidget* diagram = window_->stepperView()->diagram();
    QVERIFY(session_->view()->setStageByName(clicked));
    QTRY_VERIFY(diagram->diagramLayout().stage == session_->view()->stageIndex());
    const ShapeBlock* block = blockOf(diagram->diagramLayout(), false, dim);
    QVERIFY(block);
    QTest::mouseClick(diagram, Qt::LeftButton, {}, pointOf(*block, at));
    QCOMPARE(session_->document()->selectedElement().stage, clicked);
    QCOMPARE(session_->document()->selectedElement().index, selected);
    QVERIFY(!diagram->diagramLayout().follow.empty()); // the clicked stage shows the number too

    QVERIFY(session_->view()->setStageByName(related));
    QTRY_VERIFY(diagram->diagramLayout().stage == session_->view()->stageIndex());
    const std::vector<ShapeFollowMark>& marks = diagram->diagramLayout().follow;
    QVERIFY2(marks.size() == bands.size(), qPrintable(describe(marks)));
    for (std::size_t i = 0; i < bands.size(); ++i) {
        const Band& want = bands[i];
        const auto it = std::find_if(marks.begin(), marks.end(), [&](const ShapeFollowMark& m) {
            return m.previous == want.previous && m.dim == want.dim && m.first == want.first && m.last == want.last &&
                   m.kind == want.kind;
        });
        QVERIFY2(it != marks.end(), qPrintable(QStringLiteral("band %1 missing from %2").arg(i).arg(describe(marks))));
        const ShapeBlock* b = blockOf(diagram->diagramLayout(), want.previous, want.dim);
        QVERIFY(b && b->rect.contains(it->rect.center()));
    }

    // Drawn in this theme: the band shows against the block it lies on (the pixel under it changes).
    const ShapeFollowMark& first = marks.front();
    const ShapeBlock* b = blockOf(diagram->diagramLayout(), first.previous, first.dim);
    const QPoint probe = QPointF(first.rect.center().x(), b->rect.top() + 8 * diagram->diagramLayout().scale).toPoint();
    const QColor marked = diagram->grab().toImage().pixelColor(probe);
    session_->document()->setSelectedElement({});
    QTRY_VERIFY(diagram->diagramLayout().follow.empty());
    const QColor plain = diagram->grab().toImage().pixelColor(probe);
    QVERIFY2(
        contrastRatio(marked, plain) >= 1.3,
        qPrintable(QStringLiteral("%1 on %2: %3").arg(marked.name(), plain.name()).arg(contrastRatio(marked, plain))));
}

void TestUiFollowDiagram::keyboardFollowsBlocks()
{
    ShapeDiagramWidget* diagram = window_->stepperView()->diagram();
    QVERIFY(session_->view()->setStageByName(QStringLiteral("queries.heads")));
    QTRY_VERIFY(diagram->diagramLayout().stage == session_->view()->stageIndex());
    diagram->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(diagram->hasFocus());
    const int stage = session_->view()->stageIndex();
    QTest::keyClick(diagram, Qt::Key_Right); // onto dim 0 (b); the window's Right does not step the stage
    QTest::keyClick(diagram, Qt::Key_Right);
    QTest::keyClick(diagram, Qt::Key_Right); // dim 2, num_tokens
    QCOMPARE(session_->view()->stageIndex(), stage);
    QCOMPARE(diagram->focusedBlock(), 2);
    QVERIFY2(diagram->accessibleDescription().contains("dim 2 (num_tokens, size 6) of queries.heads"),
             qPrintable(diagram->accessibleDescription()));
    QTest::keyClick(diagram, Qt::Key_Space);
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 0, 0, 0}));
    QTest::keyClick(diagram, Qt::Key_Down);
    QTest::keyClick(diagram, Qt::Key_Down);
    QCOMPARE(session_->document()->selectedElement().stage, QStringLiteral("queries.heads"));
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 0, 2, 0}));
    QTest::keyClick(diagram, Qt::Key_Up);
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 0, 1, 0}));
    QVERIFY(diagram->accessibleDescription().contains("The followed number is marked"));
    // Left from the first block wraps to the last, the row queries.heads came from.
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(diagram, Qt::Key_Left);
    QCOMPARE(diagram->focusedBlock(), 7);
    QTest::keyClick(diagram, Qt::Key_Down); // queries.view's head_dim: its only coordinate, 0
    QCOMPARE(session_->document()->selectedElement().stage, QStringLiteral("queries.view"));
    QCOMPARE(session_->document()->selectedElement().index, (QList<qint64>{0, 1, 0, 0}));
}

QTEST_MAIN(TestUiFollowDiagram)
#include "test_ui_follow_diagram.moc"
