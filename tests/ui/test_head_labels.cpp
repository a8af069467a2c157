// The head number is drawn beside every head colour: the shape diagram's stripes and head_dim block,
// the design layouts' W_query blocks and slices. Read from the labels the painters report placing
// (what they drew, where), for head counts from 1 to 64, so colour is never the only cue.
#include "call/call_parser.h"
#include "common/trace_fixtures.h"
#include "forward/experiment.h"
#include "render/design_layout_painter.h"
#include "render/head_colors.h"
#include "render/shape_diagram_painter.h"

#include <QPainter>
#include <QtTest>

#include <map>
#include <set>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

int stageIndex(const Trace& trace, const std::string& name)
{
    for (std::size_t i = 0; i < trace.stages.size(); ++i)
        if (trace.stages[i].name == name)
            return static_cast<int>(i);
    return -1;
}

QString call(int heads, int headDim)
{
    const int d = heads * headDim;
    return QStringLiteral("MultiHeadAttention(%1, %1, 1024, 0.0, %2)").arg(d).arg(heads);
}

// Which heads got a number, checking each label sits on (or, for the design's thin slices, beside)
// its colour and says the right head.
std::set<int> numberedHeads(const std::vector<ShapeDiagramPainter::HeadLabel>& labels)
{
    std::set<int> heads;
    for (const auto& l : labels) {
        const bool onSwatch = l.swatch.contains(l.text.center());
        const bool saysHead = l.label == QString::number(l.head) || l.label.startsWith(headLabel(l.head));
        if (onSwatch && saysHead)
            heads.insert(l.head);
        else
            qWarning() << "misplaced or wrong label" << l.label << "for head" << l.head << l.text << l.swatch;
    }
    return heads;
}

// The head labels the shape diagram lays out for `stage` with `head` framed, as the stepper shows it.
std::vector<ShapeDiagramPainter::HeadLabel> diagramHeadLabels(const Trace& trace, int stage, int head)
{
    return ShapeDiagramPainter(trace, stage, head).layout(QRectF(0, 0, 1100, 500)).headLabels();
}

} // namespace

Q_DECLARE_METATYPE(std::string)

class TestHeadLabels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shapeDiagramNumbersEveryStripe_data();
    void shapeDiagramNumbersEveryStripe();
    void shapeDiagramNamesTheFramedHeadWhenStripesAreTooThin();
    void headDimBlockSaysWhoseFeaturesItHolds();
    void designLayoutNumbersEveryHead_data();
    void designLayoutNumbersEveryHead();
    void designRoleNamesNeverMeet_data();
    void designRoleNamesNeverMeet();
};

void TestHeadLabels::shapeDiagramNumbersEveryStripe_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<std::string>("stage");
    for (int heads : {2, 3, 4, 6, 8, 12, 16})
        // split d_out, move num_heads, a stage that only has it, glue the heads back
        for (const char* stage : {"queries.view", "keys.heads", "attn_weights", "context.merged"})
            QTest::addRow("%d heads, %s", heads, stage) << heads << std::string(stage);
}

void TestHeadLabels::shapeDiagramNumbersEveryStripe()
{
    QFETCH(int, heads);
    QFETCH(std::string, stage);
    const auto trace = testing::traceOf(call(heads, 64).toStdString(), 6);
    const int index = stageIndex(*trace, stage);
    QVERIFY(index >= 0);
    const auto labels = diagramHeadLabels(*trace, index, 1);
    const std::set<int> numbered = numberedHeads(labels);
    for (int h = 0; h < heads; ++h)
        QVERIFY2(numbered.count(h), qPrintable(QStringLiteral("head %1 has no number beside its colour").arg(h)));
}

void TestHeadLabels::shapeDiagramNamesTheFramedHeadWhenStripesAreTooThin()
{
    // 64 stripes of a couple of pixels cannot carry 64 numbers; the framed (selected) head's is on the plate.
    const auto trace = testing::traceOf(call(64, 2).toStdString(), 6);
    const auto labels = diagramHeadLabels(*trace, stageIndex(*trace, "queries.view"), 37);
    bool framed = false;
    for (const auto& l : labels) {
        QCOMPARE(l.head, 37); // nothing else claims a number it could not show
        framed = framed || l.label == QStringLiteral("head 37 framed");
    }
    QVERIFY(framed);
}

void TestHeadLabels::headDimBlockSaysWhoseFeaturesItHolds()
{
    const auto trace = testing::traceOf(call(12, 64).toStdString(), 6);
    const auto labels = diagramHeadLabels(*trace, stageIndex(*trace, "queries.view"), 5);
    int headDim = 0;
    for (const auto& l : labels)
        if (l.label == headLabel(5)) {
            QVERIFY(l.swatch.contains(l.text));
            ++headDim;
        }
    QCOMPARE(headDim, 1);
}

void TestHeadLabels::designLayoutNumbersEveryHead_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QSize>("size");
    for (const QSize size : {QSize(1230, 720), QSize(850, 360)}) { // a wide page; the tab at 1280 x 720
        const QByteArray at = QByteArray::number(size.width()) + "x" + QByteArray::number(size.height());
        QTest::newRow("book, 2 heads, " + at) << QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)") << size;
        QTest::newRow("4 heads, " + at) << call(4, 16) << size;
        QTest::newRow("8 heads, " + at) << call(8, 32) << size;
        QTest::newRow("GPT-2 small, 12 heads, " + at)
            << QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)") << size;
    }
}

void TestHeadLabels::designLayoutNumbersEveryHead()
{
    QFETCH(QString, call);
    QFETCH(QSize, size);
    const DesignLayoutPainter painter(compare_designs(*parse_call(call.toStdString()).config));
    const DesignDrawing drawing = painter.layout(QRectF(QPointF(0, 0), QSizeF(size)));
    const DesignGeometry& g = drawing.geometry;
    std::map<std::size_t, std::set<int>> numbered;
    std::map<std::size_t, bool> anyInside;
    for (const auto& l : drawing.headLabels) {
        for (const auto& other : drawing.headLabels) // legible: no number on another
            if (&other != &l)
                QVERIFY2(!l.text.adjusted(0, 1, 0, -1).intersects(other.text),
                         qPrintable(l.label + QStringLiteral(" overlaps ") + other.label));
        anyInside[l.column] = anyInside[l.column] || l.inside;
        // "h10", or just "10" inside a block too small for the "h" (never beside it, over the next head's block)
        QVERIFY(l.label == headShortLabel(l.head) || (l.inside && l.label == QString::number(l.head)));
        QVERIFY(g.columns[l.column].column.contains(l.text.center()));
        // and on no other head's block (its own, or the block its slice cuts, contains its swatch)
        for (const DesignShape& other : g.shapes)
            if (other.kind == DesignShape::Kind::Weight && !other.rect.contains(l.swatch))
                QVERIFY2(!l.text.adjusted(1, 1, -1, -1).intersects(other.rect),
                         qPrintable(l.label + QStringLiteral(" covers ") + other.name));
        // on its block, or right beside it at the same height
        QVERIFY(l.swatch.contains(l.text.center()) || (std::abs(l.text.right() - l.swatch.left()) <= 3 &&
                                                       std::abs(l.text.center().y() - l.swatch.center().y()) < 1));
        numbered[l.column].insert(l.head);
    }
    std::map<std::size_t, std::set<int>> coloured; // every head colour the geometry puts in a column
    for (const DesignShape& s : g.shapes)
        if (s.head >= 0)
            coloured[s.column].insert(s.head);
    QVERIFY(!coloured.empty());
    // Every head numbered; only where the numbers sit beside slices thinner than a line of type, the first
    // and the last head's (the order) and those between that have room.
    for (const auto& [column, heads] : coloured) {
        const bool thinned = !anyInside[column] && numbered[column].size() < heads.size();
        QVERIFY2(numbered[column] == heads ||
                     (thinned && numbered[column].count(*heads.begin()) && numbered[column].count(*heads.rbegin())),
                 qPrintable(QStringLiteral("column %1: %2 heads coloured, %3 numbered")
                                .arg(column)
                                .arg(heads.size())
                                .arg(numbered[column].size())));
    }
}

// Issue 43.15: at 1600 x 1000, GPT-2 small's integrated blocks stand closer than "W_value" is wide, and
// the names ran together ("W_valueout_proj"). Each name keeps to its own block's share of the row: whole
// where it fits, else shortened (W_v, then V), never over a neighbour's.
void TestHeadLabels::designRoleNamesNeverMeet_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QSize>("size");
    // the tab's drawing at 1600 x 1000, a wide page, and the tab at 1280 x 720
    for (const QSize size : {QSize(1190, 620), QSize(1230, 720), QSize(850, 360)}) {
        const QByteArray at = QByteArray::number(size.width()) + "x" + QByteArray::number(size.height());
        QTest::newRow("book, " + at) << QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)") << size;
        QTest::newRow("8 heads, " + at) << call(8, 32) << size;
        QTest::newRow("GPT-2 small, " + at) << QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)") << size;
        QTest::newRow("GPT-2 small with bias, " + at)
            << QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12, qkv_bias=True)") << size;
    }
}

void TestHeadLabels::designRoleNamesNeverMeet()
{
    QFETCH(QString, call);
    QFETCH(QSize, size);
    const DesignLayoutPainter painter(compare_designs(*parse_call(call.toStdString()).config));
    const DesignDrawing drawing = painter.layout(QRectF(QPointF(0, 0), QSizeF(size)));
    const QFontMetricsF fm(drawing.font);
    std::map<std::size_t, int> perColumn;
    for (const DesignRoleLabel& l : drawing.roleLabels) {
        ++perColumn[l.column];
        QVERIFY2(fm.horizontalAdvance(l.label) <= l.rect.width() + 0.5, qPrintable(l.label + " is cut"));
        for (const DesignRoleLabel& other : drawing.roleLabels)
            if (&other != &l)
                QVERIFY2(!l.rect.intersects(other.rect), qPrintable(l.label + " runs into " + other.label));
        QVERIFY(drawing.geometry.columns[l.column].column.contains(l.rect.center()));
    }
    QCOMPARE(perColumn.size(), drawing.geometry.columns.size());
    QCOMPARE(perColumn[0], 4); // W_query, W_key, W_value, out_proj over the integrated module
    QCOMPARE(perColumn[1], 3); // the wrappers' first head: W_query, W_key, W_value
}

QTEST_MAIN(TestHeadLabels)
#include "test_head_labels.moc"
