// The painters draw into a QImage here exactly as they draw on screen, so pixels can be checked:
// masked cells are hatched grey (never the colour of a zero weight), diagrams change with the stage.
#include "call/call_parser.h"
#include "common/trace_fixtures.h"
#include "render/colormap.h"
#include "forward/experiment.h"
#include "render/head_colors.h"
#include "render/heatmap_painter.h"
#include "render/heatmap_source.h"
#include "render/render_style.h"
#include "render/shape_diagram_painter.h"

#include <QPainter>
#include <QPicture>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

using testing::traceOf;

namespace {

QImage render(const HeatmapPainter& painter, QSize size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    painter.paint(p, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

QImage renderDiagram(const Trace& trace, int stage)
{
    QImage image(1100, 500, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    ShapeDiagramPainter(trace, stage, 0).paint(p, QRectF(0, 0, 1100, 500));
    return image;
}

int nonWhitePixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += (image.pixel(x, y) & 0xffffff) != 0xffffff;
    return n;
}

int stageIndex(const Trace& trace, const std::string& name)
{
    for (std::size_t i = 0; i < trace.stages.size(); ++i)
        if (trace.stages[i].name == name)
            return static_cast<int>(i);
    return -1;
}

} // namespace

class TestUiPainters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void colormapsAreDistinctFromTheMask()
    {
        QCOMPARE(viridis(0.0), QRgb(0xff440154));
        QCOMPARE(viridis(1.0), QRgb(0xfffde725));
        QCOMPARE(diverging(0.0), QRgb(0xfff7f7f7));
        for (int i = 0; i <= 100; ++i) {
            QVERIFY(!isMaskedColor(viridis(i / 100.0)));
            QVERIFY(!isMaskedColor(diverging(i / 50.0 - 1.0)));
        }
        QVERIFY(headColor(0, 12) != headColor(1, 12));
        QVERIFY(headColor(0, 2) != headColor(1, 2));
    }

    void maskedCellRendersInTheMaskedColour()
    {
        const auto trace = traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
        const HeatmapSlice slice = heatmapSlice(trace, AttentionMatrix::Weights, 0, 0);
        QVERIFY(slice.valid());
        QCOMPARE(slice.rows, 6);
        QVERIFY(slice.masked(0, 5)); // query 0 may not see key 5
        QVERIFY(!slice.masked(5, 0));
        QCOMPARE(slice.value(0, 5), 0.0f); // softmax made it an exact zero ...
        HeatmapStyle style;
        style.axes = false;
        style.legend = false;
        const HeatmapPainter painter(slice, ColorScale::weights(1.0), {}, style);
        const QRectF area(0, 0, 600, 600);
        const QImage image = render(painter, area.size().toSize());
        const QRectF m = painter.matrixRect(area);
        const double cell = m.width() / 6;
        // Near the top of a cell, clear of the printed value.
        auto centre = [&](int row, int col) {
            return image.pixel(int(m.left() + (col + 0.5) * cell), int(m.top() + (row + 0.12) * cell));
        };
        // ... yet it is drawn hatched grey, unlike a weight that is merely 0.
        QVERIFY2(isMaskedColor(centre(0, 5)), qPrintable(QString::number(centre(0, 5), 16)));
        QVERIFY(isMaskedColor(centre(2, 4)));
        QVERIFY(!isMaskedColor(centre(5, 0)));
        QCOMPARE(centre(0, 0) | 0xff000000, ColorScale::weights(1.0).map(slice.value(0, 0)) | 0xff000000);
        QVERIFY(!isMaskedColor(ColorScale::weights(1.0).map(0.0)));

        const auto hit = painter.hitTest(area, QPointF(m.left() + 5.5 * cell, m.top() + 0.5 * cell));
        QVERIFY(hit.has_value());
        QCOMPARE(hit->query, 0);
        QCOMPARE(hit->key, 5);
        QVERIFY(hit->masked);
    }

    void maskedScoresAreMinusInfinity()
    {
        const auto trace = traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
        const HeatmapSlice slice = heatmapSlice(trace, AttentionMatrix::MaskedScores, 1, 1);
        QVERIFY(std::isinf(slice.value(1, 3)) && slice.value(1, 3) < 0);
        QVERIFY(std::isfinite(slice.value(3, 1)));
        const HeatmapSlice raw = heatmapSlice(trace, AttentionMatrix::Scores, 1, 1);
        QVERIFY(std::isfinite(raw.value(1, 3))); // the raw scores exist before masking
        QVERIFY(!raw.masked(1, 3));              // and are drawn as values, not hatched
    }

    void largeHeatmapIsDownsampledAndKeepsTheMask()
    {
        const auto trace = traceOf("MultiHeadAttention(64, 64, 1024, 0.0, 4)", 1024);
        const HeatmapSlice slice = heatmapSlice(trace, AttentionMatrix::Weights, 3, 0);
        QCOMPARE(slice.rows, 1024);
        QElapsedTimer timer;
        timer.start();
        const QImage image = HeatmapPainter::renderImage(slice, ColorScale::weights(1.0), QSize(300, 300));
        QCOMPARE(image.size(), QSize(300, 300));
        QVERIFY(isMaskedColor(image.pixel(290, 5)));    // top right: future keys
        QVERIFY(!isMaskedColor(image.pixel(5, 290)));   // bottom left: past keys
        QVERIFY(!isMaskedColor(image.pixel(150, 150))); // the diagonal stays coloured
        qInfo("1024 x 1024 -> 300 x 300 in %lld ms", static_cast<long long>(timer.elapsed()));
    }

    void heatmapWithLabelsAndLegendIsDrawn()
    {
        const auto trace = traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
        HeatmapStyle style;
        style.title = QStringLiteral("head 0");
        QStringList tokens;
        for (const auto& t : book_tokens())
            tokens << QString::fromStdString(t);
        const HeatmapPainter painter(heatmapSlice(trace, AttentionMatrix::Weights, 0, 0), ColorScale::weights(1.0),
                                     tokens, style);
        const QImage image = render(painter, QSize(700, 600));
        QVERIFY(nonWhitePixels(image) > 700 * 600 / 4);
        // The matrix leaves room for labels on the left and the legend on the right.
        const QRectF m = painter.matrixRect(QRectF(0, 0, 700, 600));
        QVERIFY(m.left() > 40);
        QVERIFY(m.right() < 700 - 60);
    }

    // A title longer than its matrix is wide is set smaller or elided: it never runs into the legend.
    void heatmapTitleStopsAtTheLegend_data()
    {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QSize>("size");
        const QString shortTitle = QStringLiteral("head 0");
        const QString longTitle = QStringLiteral("head 0 of 4 · Weights (softmax) · 57 × 57 tokens");
        QTest::newRow("short-title-wide") << shortTitle << QSize(700, 600);
        QTest::newRow("long-title-wide") << longTitle << QSize(700, 600);
        QTest::newRow("long-title-tall") << longTitle << QSize(520, 900);
        QTest::newRow("long-title-narrow") << longTitle << QSize(360, 900);
    }
    void heatmapTitleStopsAtTheLegend()
    {
        QFETCH(QString, title);
        QFETCH(QSize, size);
        const auto trace = traceOf("MultiHeadAttention(3, 2, 6, 0.0, 2)", 6, InputSource::Book);
        auto painterTitled = [&](const QString& t) {
            HeatmapStyle style;
            style.title = t;
            style.accent = headColor(0, 4);
            return HeatmapPainter(heatmapSlice(trace, AttentionMatrix::Weights, 0, 0), ColorScale::weights(1.0), {},
                                  style);
        };
        const HeatmapPainter titled = painterTitled(title), blank = painterTitled(QStringLiteral(" "));
        RenderStyle style = RenderStyle::print();
        style.log = std::make_shared<ContrastLog>();
        QImage a(size, QImage::Format_RGB32), b(size, QImage::Format_RGB32);
        a.fill(Qt::white);
        b.fill(Qt::white);
        const QRectF rect(QPointF(0, 0), QSizeF(size));
        {
            QPainter pa(&a), pb(&b);
            titled.paint(pa, rect, style);
            blank.paint(pb, rect, RenderStyle::print());
        }
        const QRectF legend = titled.legendRect(rect), m = titled.matrixRect(rect);
        QCOMPARE(m, blank.matrixRect(rect));
        QRect changed;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x)
                if (a.pixel(x, y) != b.pixel(x, y))
                    changed |= QRect(x, y, 1, 1);
        QVERIFY(!changed.isEmpty()); // the title is drawn
        QVERIFY2(changed.right() < legend.left() && changed.bottom() < m.top(),
                 qPrintable(QStringLiteral("the title draws over x %1..%2, y %3..%4; the legend starts at x %5, the "
                                           "matrix at y %6")
                                .arg(changed.left())
                                .arg(changed.right())
                                .arg(changed.top())
                                .arg(changed.bottom())
                                .arg(legend.left())
                                .arg(m.top())));
        // What was drawn is the title whole, or elided where even smaller type could not hold it: never a
        // title cut off mid-letter by its rectangle.
        const auto drawn = std::find_if(style.log->begin(), style.log->end(),
                                        [](const TextContrast& t) { return t.text.startsWith(QLatin1String("head")); });
        QVERIFY(drawn != style.log->end());
        QFont smallest;
        smallest.setPixelSize(HeatmapStyle{}.fontPx * 3 / 4 + 1);
        smallest.setBold(true);
        const bool fitsSmall = QFontMetricsF(smallest).horizontalAdvance(title) <= legend.left() - m.left() - 11;
        if (fitsSmall)
            QCOMPARE(drawn->text, title);
        else
            QVERIFY2(drawn->text.endsWith(QChar(0x2026)), qPrintable(drawn->text));
    }

    void titlesAreShrunkThenElided_data()
    {
        QTest::addColumn<double>("width");
        for (double w : {600.0, 400.0, 330.0, 250.0, 120.0, 8.0})
            QTest::addRow("width-%d", static_cast<int>(w)) << w;
    }
    void titlesAreShrunkThenElided()
    {
        QFETCH(double, width);
        const QString title = QStringLiteral("head 0 of 4 · Weights (softmax) · 57 × 57 tokens");
        QFont font;
        font.setPixelSize(16);
        font.setBold(true);
        const auto fitted = fitTitle(title, font, width);
        QVERIFY(fitted.font.pixelSize() >= 12 && fitted.font.pixelSize() <= 16);
        QVERIFY(QFontMetricsF(fitted.font).horizontalAdvance(fitted.text) <= width);
        const double full = QFontMetricsF(font).horizontalAdvance(title);
        if (full <= width) { // room: untouched
            QCOMPARE(fitted.text, title);
            QCOMPARE(fitted.font.pixelSize(), 16);
        } else if (fitted.text != title) { // elided only at the smallest size
            QCOMPARE(fitted.font.pixelSize(), 12);
            QVERIFY(fitted.text.isEmpty() || fitted.text.endsWith(QChar(0x2026)));
        }
    }

    void shapeDiagramDrawsEveryStage()
    {
        const auto trace = traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 8);
        QImage previous;
        for (int i = 0; i < static_cast<int>(trace->stages.size()); ++i) {
            const QImage image = renderDiagram(*trace, i);
            QVERIFY2(nonWhitePixels(image) > 20000, trace->stages[static_cast<std::size_t>(i)].name.c_str());
            if (!previous.isNull())
                QVERIFY(image != previous);
            previous = image;
        }
    }

    void viewStageShowsTheSplitInHeadColours()
    {
        const auto trace = traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 8);
        const QImage view = renderDiagram(*trace, stageIndex(*trace, "queries.view"));
        const QImage queries = renderDiagram(*trace, stageIndex(*trace, "queries"));
        // Several head colours appear once d_out is split; before the split there are none.
        auto countColour = [](const QImage& image, QColor c) {
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    n += (image.pixel(x, y) | 0xff000000) == c.rgb();
            return n;
        };
        for (int h : {0, 5, 11}) {
            QVERIFY2(countColour(view, headColor(h, 12)) > 50, qPrintable(QString::number(h)));
            QCOMPARE(countColour(queries, headColor(h, 12)), 0);
        }
    }

    // A short or narrow pane shrinks the drawing instead of cutting its last line (the contiguity
    // badges) or its widest row of boxes off, at desktop type (16 px) and presentation type (22 px).
    void shapeDiagramFitsItsPane_data()
    {
        QTest::addColumn<QString>("stage");
        QTest::addColumn<QSize>("pane");
        QTest::addColumn<int>("typePx");
        for (const char* stage : {"queries.view", "keys.heads", "attn_weights", "context.transposed", "output"})
            for (QSize pane : {QSize(960, 300), QSize(960, 360), QSize(960, 420), QSize(960, 470), QSize(960, 600),
                               QSize(500, 300), QSize(560, 470)})
                for (int px : {16, 22})
                    QTest::addRow("%s-%dx%d-%dpx", stage, pane.width(), pane.height(), px)
                        << QString::fromLatin1(stage) << pane << px;
        // The projector's pane beside the lessons dock.
        for (const char* stage : {"queries.view", "queries.heads", "attn_scores", "context.transposed"})
            QTest::addRow("%s-533x489-22px", stage) << QString::fromLatin1(stage) << QSize(533, 489) << 22;
    }
    void shapeDiagramFitsItsPane()
    {
        QFETCH(QString, stage);
        QFETCH(QSize, pane);
        QFETCH(int, typePx);
        static const auto trace = traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
        const QRectF rect(QPointF(0, 0), QSizeF(pane));
        QPicture picture;
        QPainter p(&picture);
        QFont type = p.font();
        type.setPixelSize(typePx);
        p.setFont(type);
        ShapeDiagramPainter(*trace, stageIndex(*trace, stage.toStdString()), 0).paint(p, rect);
        p.end();
        const QRect drawn = picture.boundingRect();
        QVERIFY2(drawn.bottom() <= rect.bottom() + 1 && drawn.right() <= rect.right() + 1,
                 qPrintable(QStringLiteral("drawn to x = %1, y = %2 in a %3 x %4 pane")
                                .arg(drawn.right())
                                .arg(drawn.bottom())
                                .arg(pane.width())
                                .arg(pane.height())));
        QVERIFY(drawn.height() > 100); // shrunk to fit, not drawn away

        // Every word inside the pane, text drawn from a baseline included (a picture's bounds leave that
        // out: GPT-2's "expected (b, num_heads, num_tokens, head_dim) = ..." ran past a projector's pane unseen).
        const ShapeDiagramLayout l =
            ShapeDiagramPainter(*trace, stageIndex(*trace, stage.toStdString()), 0).layout(rect, type);
        std::vector<const ShapeText*> texts;
        for (const auto* list : {&l.header, &l.notes})
            for (const ShapeText& t : *list)
                texts.push_back(&t);
        for (const ShapeBadge& b : l.badges)
            texts.push_back(&b.text);
        QVERIFY(texts.size() >= 4);
        const QRectF inside = rect.adjusted(-1, -1, 1, 1);
        for (const ShapeText* t : texts) {
            const QFontMetricsF fm(t->font);
            const QRectF extent = t->atBaseline ? QRectF(t->rect.left(), t->rect.top() - fm.ascent(),
                                                         fm.horizontalAdvance(t->text), fm.height())
                                                : fm.boundingRect(t->rect, t->flags, t->text);
            QVERIFY2(inside.contains(extent), qPrintable(QStringLiteral("\"%1\" spans x %2..%3, y %4..%5")
                                                             .arg(t->text)
                                                             .arg(extent.left())
                                                             .arg(extent.right())
                                                             .arg(extent.top())
                                                             .arg(extent.bottom())));
        }
    }

    // The drawing follows the type around it: with presentation type (1.4x) and room to spare it is
    // drawn larger than at desktop type, so it stays readable beside the larger labels on a projector.
    void shapeDiagramGrowsWithTheType_data()
    {
        QTest::addColumn<QString>("stage");
        for (const char* stage : {"x", "queries", "attn_weights", "output"})
            QTest::newRow(stage) << QString::fromLatin1(stage);
    }
    void shapeDiagramGrowsWithTheType()
    {
        QFETCH(QString, stage);
        static const auto trace = traceOf("MultiHeadAttention(768, 768, 1024, 0.0, 12)", 16);
        auto drawnAt = [&](int px) {
            QPicture picture;
            QPainter p(&picture);
            QFont type = p.font();
            type.setPixelSize(px);
            p.setFont(type);
            ShapeDiagramPainter(*trace, stageIndex(*trace, stage.toStdString()), 0).paint(p, QRectF(0, 0, 1100, 900));
            p.end();
            return picture.boundingRect();
        };
        const QRect desktop = drawnAt(16), presenting = drawnAt(22);
        QVERIFY2(presenting.height() > desktop.height() * 1.2,
                 qPrintable(QStringLiteral("%1 px tall at 16 px type, %2 px at 22 px")
                                .arg(desktop.height())
                                .arg(presenting.height())));
    }
};

QTEST_MAIN(TestUiPainters)
#include "test_ui_painters.moc"
