// The painters' layouts as pure geometry, without a window: what is under a cell's or a block's centre
// is that cell or block at every size, the same inputs give the same layout, and the text stays on
// the canvas.
#include "call/call_parser.h"
#include "common/trace_fixtures.h"
#include "designs/design_layout.h"
#include "render/design_layout_painter.h"
#include "render/heatmap_painter.h"
#include "render/heatmap_source.h"
#include "render/shape_diagram_painter.h"
#include "render/tradeoff_chart_painter.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const QList<QSizeF> kSizes = {{240, 220}, {760, 620}, {1200, 500}, {420, 900}};

QRectF inked(const QFont& font, const QRectF& rect, int flags, const QString& text)
{
    return QFontMetricsF(font).boundingRect(rect, flags, text);
}

bool within(const QRectF& inner, const QRectF& outer)
{
    return outer.adjusted(-1, -1, 1, 1).contains(inner);
}

HeatmapPainter bookHeatmap(bool axes)
{
    static const auto trace = testing::traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
    HeatmapStyle style;
    style.title = QStringLiteral("head 0 of 2 · Weights (softmax)");
    style.axes = axes;
    style.legend = axes;
    const QStringList tokens = {"Your", "journey", "starts", "with", "one", "step"};
    return HeatmapPainter(heatmapSlice(trace, AttentionMatrix::Weights, 0, 0), ColorScale::weights(1.0), tokens, style);
}

} // namespace

class TestRenderLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void heatmapCellCentresHitTheirCell()
    {
        for (bool axes : {true, false})
            for (const QSizeF& size : kSizes) {
                const HeatmapPainter painter = bookHeatmap(axes);
                const HeatmapLayout l = painter.layout(QRectF(QPointF(4, 4), size));
                QCOMPARE(l.rows, 6);
                for (int r = 0; r < l.rows; ++r)
                    for (int c = 0; c < l.cols; ++c) {
                        const auto at = l.hitTest(l.cellRect(r, c).center());
                        QVERIFY(at);
                        QCOMPARE(at->row, r);
                        QCOMPARE(at->col, c);
                        const auto hit = painter.cell(r, c);
                        QCOMPARE(hit->value, painter.slice().value(r, c));
                        QCOMPARE(hit->queryToken, painter.tokens()[r]);
                    }
                QVERIFY(!l.hitTest(l.matrix.topLeft() - QPointF(1, 1)));
            }
    }

    void heatmapLayoutIsDeterministicAndOnTheCanvas()
    {
        for (const QSizeF& size : kSizes) {
            const HeatmapPainter painter = bookHeatmap(true);
            const QRectF canvas(QPointF(4, 4), size);
            const HeatmapLayout a = painter.layout(canvas), b = painter.layout(canvas);
            QCOMPARE(a.matrix, b.matrix);
            QCOMPARE(a.labels.size(), b.labels.size());
            QVERIFY(within(a.matrix, canvas));
            QVERIFY(within(a.titleRect, canvas));
            QVERIFY(a.legend.isEmpty() || within(a.legend, canvas));
            // The two axis titles, and every token both ways where the cells are as tall as a line.
            QVERIFY(a.labels.size() >= (a.cell() >= a.line ? 6 + 6 + 2 : 2));
            for (std::size_t i = 0; i < a.labels.size(); ++i) {
                QCOMPARE(a.labels[i].text, b.labels[i].text);
                QCOMPARE(a.labels[i].onCanvas(), b.labels[i].onCanvas());
                QVERIFY2(within(a.labels[i].onCanvas(), canvas), qPrintable(a.labels[i].text));
                QVERIFY(!a.labels[i].onCanvas().intersects(a.matrix)); // labels beside the cells, never on them
            }
        }
    }

    // The axis titles' arrows point the way the indices grow: the key title runs right along the columns, the
    // query title runs down the rows (it read upwards, its arrow pointing against the query index).
    void heatmapAxisTitlesPointTheWayIndicesGrow()
    {
        for (const QSizeF& size : kSizes) {
            const HeatmapLayout l = bookHeatmap(true).layout(QRectF(QPointF(4, 4), size));
            int titles = 0;
            for (const HeatmapLabel& label : l.labels) {
                const QPointF reading = label.transform.map(QPointF(1, 0)) - label.transform.map(QPointF(0, 0));
                if (label.text.startsWith(QStringLiteral("query"))) {
                    ++titles;
                    QVERIFY2(reading.y() > 0.99 && std::abs(reading.x()) < 1e-9, qPrintable(label.text));
                    QVERIFY(label.onCanvas().right() <= l.matrix.left()); // left of the rows it names
                } else if (label.text.startsWith(QStringLiteral("key"))) {
                    ++titles;
                    QVERIFY2(reading.x() > 0.99 && std::abs(reading.y()) < 1e-9, qPrintable(label.text));
                    QVERIFY(label.onCanvas().top() >= l.matrix.bottom());
                }
            }
            QCOMPARE(titles, 2);
        }
    }

    // The multiply-adds legend says which parts are too thin to see in the stacked bars (GPT-2 small's scores and
    // context: 197 k each beside 28.3 M of projections, under a pixel), with their share; a part that shows is not
    // said to be thin; a narrow chart keeps the share in shorter words, and every row fits its panel.
    void tradeoffLegendSaysWhatTheBarsHide_data()
    {
        QTest::addColumn<int>("dOut");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("heads");
        QTest::addColumn<QSizeF>("size");
        QTest::addColumn<QStringList>("thin"); // the parts said too thin ("" where the share alone is said)
        QTest::addColumn<QString>("says");
        QTest::newRow("gpt2-small-wide") << 768 << 16 << 12 << QSizeF(1220, 300) << QStringList{"scores", "context"}
                                         << QString("0.5%: too thin to see");
        QTest::newRow("gpt2-small-narrow") << 768 << 16 << 12 << QSizeF(980, 300) << QStringList{} << QString("(0.5%)");
        QTest::newRow("book-toy-every-part-shows") << 2 << 6 << 2 << QSizeF(1220, 300) << QStringList{} << QString();
    }
    void tradeoffLegendSaysWhatTheBarsHide()
    {
        QFETCH(int, dOut);
        QFETCH(int, tokens);
        QFETCH(int, heads);
        QFETCH(QSizeF, size);
        QFETCH(QStringList, thin);
        QFETCH(QString, says);
        HeadTradeoffQuery query;
        query.d_out = dOut;
        query.num_tokens = tokens;
        const TradeoffChartPainter painter(head_tradeoffs(query), heads, 15);
        const QRectF rect(QPointF(0, 0), size);
        QFont font;
        const QStringList labels = painter.legendLabels(rect, font);
        QCOMPARE(labels.size(), 4);
        font.setPixelSize(15);
        const QFontMetricsF fm(font);
        double width = 0;
        for (const QString& l : labels)
            width += 2 * fm.height() + fm.horizontalAdvance(l);
        QVERIFY2(width <= size.width(), qPrintable(labels.join(" | ")));
        QVERIFY2(!labels[0].contains("thin") && !labels[0].contains('%'),
                 qPrintable(labels[0])); // the projections show
        for (const QString& part : {QStringLiteral("scores"), QStringLiteral("context")}) {
            const QString& label = labels[part == "scores" ? 1 : 2];
            QCOMPARE(label.contains("too thin to see"), thin.contains(part));
            if (!says.isEmpty())
                QVERIFY2(label.endsWith(says), qPrintable(label));
            else
                QVERIFY2(!label.contains('%'), qPrintable(label));
        }
    }

    // A small multiple's measures (16 heads of a trained model): at a width where the full words fit they are
    // kept; narrower, the abbreviated ones; narrower still, elided. No line ever runs past the heatmap's width.
    void heatmapFooterFitsItsWidth_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<QString>("expect"); // "long", "short" or "elided"
        QTest::newRow("four-heads-300px") << 300.0 << "long";
        QTest::newRow("sixteen-heads-74px") << 74.0 << "short";
        QTest::newRow("sliver-30px") << 30.0 << "elided";
    }
    void heatmapFooterFitsItsWidth()
    {
        QFETCH(double, width);
        QFETCH(QString, expect);
        static const auto trace = testing::traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
        HeatmapStyle style;
        style.title = QStringLiteral("head 0");
        style.axes = false;
        style.legend = false;
        style.fontPx = 15;
        style.footer = QStringLiteral("distance 13.6 · entropy 2.98\nprevious 0.09 · first 0.07");
        style.footerShort = QStringLiteral("dist 13.6 · ent 2.98\nprev 0.09 · first 0.07");
        const HeatmapPainter painter(heatmapSlice(trace, AttentionMatrix::Weights, 0, 0), ColorScale::weights(1.0), {},
                                     style);
        const HeatmapLayout l = painter.layout(QRectF(0, 0, width, width * 1.6));
        const QStringList lines = l.footerText.split('\n');
        for (const QString& line : lines)
            QVERIFY2(QFontMetricsF(l.footerFont).horizontalAdvance(line) <= width - 4, qPrintable(line));
        if (expect == "long")
            QVERIFY(l.footerText.startsWith("distance 13.6"));
        else if (expect == "short")
            QCOMPARE(lines, QStringList({"dist 13.6", "ent 2.98", "prev 0.09", "first 0.07"}));
        else
            QVERIFY(l.footerText.contains(QChar(0x2026)));
    }

    void shapeBlocksAndStripesHitThemselves()
    {
        static const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
        for (const char* name : {"x", "queries.view", "keys.heads", "attn_weights", "context.merged"})
            for (const QSizeF& size : {QSizeF(1100, 500), QSizeF(800, 420), QSizeF(1600, 900)}) {
                const int stage = static_cast<int>(std::find_if(trace->stages.begin(), trace->stages.end(),
                                                                [&](const Stage& s) { return s.name == name; }) -
                                                   trace->stages.begin());
                QVERIFY(stage < static_cast<int>(trace->stages.size()));
                const ShapeDiagramLayout l = ShapeDiagramPainter(*trace, stage, 3).layout(QRectF(QPointF(0, 0), size));
                QVERIFY(!l.after.empty());
                for (const auto* row : {&l.before, &l.after})
                    for (const ShapeBlock& b : *row) {
                        const auto hit = l.hitTest(b.rect.center());
                        QVERIFY2(hit, name);
                        QCOMPARE(hit->stage, stage);
                        QCOMPARE(hit->dim, b.dim);
                        QCOMPARE(hit->axis, b.axis);
                        QCOMPARE(hit->previous, b.previous);
                        for (std::size_t h = 0; h < b.stripes.size(); ++h) {
                            const auto onStripe = l.hitTest(b.stripes[h].center());
                            QVERIFY(onStripe && onStripe->kind == ShapeHit::Kind::Head);
                            QCOMPARE(onStripe->head, static_cast<int>(h));
                        }
                    }
                QVERIFY(!l.hitTest(QPointF(-5, -5)));
            }
    }

    void shapeLayoutIsDeterministicAndOnTheCanvas()
    {
        static const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
        for (int stage = 0; stage < static_cast<int>(trace->stages.size()); ++stage) {
            const QRectF canvas(0, 0, 1100, 520);
            const ShapeDiagramPainter painter(*trace, stage, 1);
            const ShapeDiagramLayout a = painter.layout(canvas), b = painter.layout(canvas);
            QCOMPARE(a.scale, b.scale);
            QCOMPARE(a.after.size(), b.after.size());
            for (std::size_t i = 0; i < a.after.size(); ++i)
                QCOMPARE(a.after[i].rect, b.after[i].rect);
            const QString where = QString::fromStdString(trace->stages[static_cast<std::size_t>(stage)].name);
            for (const auto* texts : {&a.header, &a.dimsBefore, &a.dimsAfter, &a.notes})
                for (const ShapeText& t : *texts)
                    if (!t.atBaseline)
                        QVERIFY2(within(inked(t.font, t.rect, t.flags, t.text), canvas),
                                 qPrintable(where + QStringLiteral(": ") + t.text));
            for (const ShapeBadge& badge : a.badges)
                QVERIFY2(within(badge.rect, canvas), qPrintable(where + QStringLiteral(": ") + badge.text.text));
            for (const ShapeHeadLabel& h : a.headLabels())
                QVERIFY(within(h.text, canvas));
        }
    }

    // head_dim's corner names its head and its name plate never covers that name, from a wide pane down to
    // the 1280 x 720 stepper's (where the plate covered "head 0" until the corner said just "0").
    void headDimCornerIsNotUnderItsPlate_data()
    {
        QTest::addColumn<QSizeF>("size");
        QTest::newRow("wide-1100x520") << QSizeF(1100, 520);
        QTest::newRow("stepper-1280x720-650x240") << QSizeF(650, 240);
        QTest::newRow("narrow-420x200") << QSizeF(420, 200);
    }
    void headDimCornerIsNotUnderItsPlate()
    {
        QFETCH(QSizeF, size);
        static const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
        int corners = 0;
        for (int stage = 0; stage < static_cast<int>(trace->stages.size()); ++stage) {
            const ShapeDiagramLayout l = ShapeDiagramPainter(*trace, stage, 0).layout(QRectF(QPointF(0, 0), size));
            for (const auto* row : {&l.before, &l.after})
                for (const ShapeBlock& b : *row) {
                    if (b.axis != Axis::head_dim)
                        continue;
                    ++corners;
                    const ShapeHeadMark& m = b.marks.front();
                    QVERIFY2(!m.text.intersects(b.plate),
                             qPrintable(QString::fromStdString(trace->stages[static_cast<std::size_t>(stage)].name)));
                    QVERIFY(m.label == QStringLiteral("head 0") || m.label == QStringLiteral("0"));
                    QVERIFY(within(m.text, b.rect));
                }
        }
        QVERIFY(corners >= 4); // queries.view, keys.view, values.view, context.merged at least
    }

    void designShapesHitThemselves()
    {
        const DesignLayoutPainter painter(
            compare_designs(*parse_call("MultiHeadAttention(64, 64, 32, 0.0, 4)").config));
        for (const QSizeF& size : {QSizeF(1230, 720), QSizeF(900, 600)}) {
            const DesignDrawing d = painter.layout(QRectF(QPointF(0, 0), size));
            QVERIFY(!d.geometry.shapes.empty());
            for (const DesignShape& s : d.geometry.shapes) {
                if (s.kind == DesignShape::Kind::Unit)
                    continue;
                const DesignShape* hit = d.geometry.hitTest(s.rect.center());
                QVERIFY(hit);
                QCOMPARE(hit->column, s.column);
                QVERIFY(hit->rect.adjusted(-1, -1, 1, 1).contains(s.rect.center()));
            }
            for (const DesignHeadLabel& l : d.headLabels)
                QVERIFY(within(l.text, d.geometry.columns[l.column].column));
        }
    }

    // In projector type a column's least width (20 characters) times three is wider than the page beside
    // the lessons dock: the columns then share the width, every column and weight stays inside the canvas
    // and the drawing keeps a scale (it was 0: every weight a speck, the third column past the edge).
    void designColumnsShareANarrowCanvas_data()
    {
        QTest::addColumn<int>("fontPx");
        QTest::addColumn<double>("width");
        QTest::newRow("22px-840") << 22 << 840.0;
        QTest::newRow("22px-600") << 22 << 600.0;
        QTest::newRow("16px-700") << 16 << 700.0;
    }
    void designColumnsShareANarrowCanvas()
    {
        QFETCH(int, fontPx);
        QFETCH(double, width);
        const DesignLayoutPainter painter(
            compare_designs(*parse_call("MultiHeadAttention(768, 768, 1024, 0.0, 12)").config), fontPx);
        const QRectF canvas(0, 0, width, 480);
        const DesignGeometry g = painter.layout(canvas).geometry;
        QCOMPARE(g.columns.size(), std::size_t(3));
        QVERIFY2(g.scale > 0.005, qPrintable(QString::number(g.scale)));
        for (const DesignColumn& c : g.columns)
            QVERIFY2(c.column.right() <= canvas.right() + 0.5, qPrintable(QString::number(c.column.right())));
        for (const DesignShape& s : g.shapes)
            QVERIFY(s.rect.right() <= canvas.right() + 0.5);
    }

    // A widget is laid out before it has its size: an empty or tiny canvas gives an empty or degenerate
    // layout, never a division by zero (the sanitizer build runs this).
    // Head numbers beside slices thinner than a line are set in type one can read (they were 7 px on a projector,
    // sized to the slice): at least three quarters of the body type, thinned where they would overlap, and each
    // column still says its first head and its last.
    void designHeadNumbersAreReadable_data()
    {
        QTest::addColumn<int>("fontPx");
        QTest::newRow("desktop-15") << 15;
        QTest::newRow("projector-17") << 17;
    }
    void designHeadNumbersAreReadable()
    {
        QFETCH(int, fontPx);
        const DesignLayoutPainter painter(
            compare_designs(*parse_call("MultiHeadAttention(768, 768, 1024, 0.0, 12)").config), fontPx);
        const DesignDrawing d = painter.layout(QRectF(0, 0, 1220, 24 * fontPx));
        QVERIFY(!d.headLabels.empty());
        std::map<std::size_t, std::vector<int>> heads;
        for (const DesignHeadLabel& l : d.headLabels) {
            QVERIFY2(QFontInfo(l.font).pixelSize() >= fontPx * 3 / 4,
                     qPrintable(QStringLiteral("%1 at %2 px").arg(l.label).arg(QFontInfo(l.font).pixelSize())));
            heads[l.column].push_back(l.head);
            for (const DesignHeadLabel& o : d.headLabels)
                QVERIFY(&o == &l || !o.text.adjusted(0, 1, 0, -1).intersects(l.text));
        }
        for (const auto& [column, hs] : heads) {
            QVERIFY(std::find(hs.begin(), hs.end(), 0) != hs.end());
            QVERIFY(std::find(hs.begin(), hs.end(), 11) != hs.end());
        }
    }

    void designLayoutOfAnEmptyCanvas_data()
    {
        QTest::addColumn<QSizeF>("size");
        QTest::newRow("empty") << QSizeF(0, 0);
        QTest::newRow("no height") << QSizeF(900, 0);
        QTest::newRow("no width") << QSizeF(0, 600);
        QTest::newRow("tiny") << QSizeF(3, 2);
    }
    void heatmapAndShapeLayoutsOfAnEmptyCanvas_data() { designLayoutOfAnEmptyCanvas_data(); }
    void heatmapAndShapeLayoutsOfAnEmptyCanvas()
    {
        QFETCH(QSizeF, size);
        const QRectF canvas(QPointF(0, 0), size);
        for (bool axes : {false, true}) {
            const HeatmapLayout l = bookHeatmap(axes).layout(canvas);
            QVERIFY(std::isfinite(l.matrix.width()) && std::isfinite(l.matrix.height()));
            QVERIFY(!l.hitTest(QPointF(1, 1)) || l.matrix.contains(QPointF(1, 1)));
        }
        const auto trace = testing::traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
        for (int stage = 0; stage < static_cast<int>(trace->stages.size()); ++stage) {
            const ShapeDiagramLayout l = ShapeDiagramPainter(*trace, stage, 3).layout(canvas);
            QVERIFY(std::isfinite(l.scale));
        }
    }

    void designLayoutOfAnEmptyCanvas()
    {
        QFETCH(QSizeF, size);
        for (const char* call :
             {"MultiHeadAttention(768, 768, 1024, 0.0, 12)", "MultiHeadAttention(8, 8, 4, 0.0, 2)"}) {
            const DesignLayoutPainter painter(compare_designs(*parse_call(call).config));
            const DesignDrawing d = painter.layout(QRectF(QPointF(0, 0), size));
            for (const DesignShape& shape : d.geometry.shapes)
                QVERIFY(std::isfinite(shape.rect.x()) && std::isfinite(shape.rect.width()));
        }
    }
};

QTEST_MAIN(TestRenderLayout)
#include "test_render_layout.moc"
