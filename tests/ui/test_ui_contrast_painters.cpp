// Contrast in every theme, without a window. The painters draw text through RenderStyle::drawText, which logs
// each (ink, background) pair it used; every pair logged while a painter draws must reach WCAG 2's 4.5:1
// (3:1 for large text), and the log must not be empty (a painter that bypasses the style is caught). The
// WCAG maths, the style's own inks, and the legend that names the kind of scale it uses.
#include "call/call_parser.h"
#include "common/trace_fixtures.h"
#include "common/theme_list.h"
#include "designs/design_layout.h"
#include "designs/tradeoffs.h"
#include "forward/experiment.h"
#include "lessons/divergence.h"
#include "render/design_layout_painter.h"
#include "render/divergence_painter.h"
#include "render/heatmap_painter.h"
#include "render/heatmap_source.h"
#include "render/render_style.h"
#include "render/shape_diagram_painter.h"
#include "render/tradeoff_chart_painter.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

#include <functional>

using namespace attnlab;
using namespace attnlab::ui;
using testing::themes;

namespace {

const std::string kMha = "MultiHeadAttention(3, 4, 6, 0.0, 2)";

// Renders `paint` into an image filled with the style's background, with the log on; returns the log.
ContrastLog renderLogged(const QPalette& palette, QSize size,
                         const std::function<void(QPainter&, const QRectF&, const RenderStyle&)>& paint)
{
    RenderStyle style = RenderStyle::fromPalette(palette, QPalette::Base);
    style.log = std::make_shared<ContrastLog>();
    QImage image(size, QImage::Format_RGB32);
    image.fill(style.background);
    QPainter p(&image);
    paint(p, QRectF(QPointF(0, 0), QSizeF(size)), style);
    return *style.log;
}

QString describe(const TextContrast& t)
{
    return QStringLiteral("'%1': %2 on %3 is %4:1, needs %5:1")
        .arg(t.text.left(60), t.ink.name(), t.background.name())
        .arg(contrastRatio(t.ink, t.background), 0, 'f', 2)
        .arg(requiredContrast(t.large));
}

} // namespace

class TestUiContrastPainters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void wcagRatios_data()
    {
        QTest::addColumn<QColor>("ink");
        QTest::addColumn<QColor>("background");
        QTest::addColumn<double>("ratio");
        QTest::newRow("black on white") << QColor(Qt::black) << QColor(Qt::white) << 21.0;
        QTest::newRow("white on black (order does not matter)") << QColor(Qt::white) << QColor(Qt::black) << 21.0;
        QTest::newRow("white on white") << QColor(Qt::white) << QColor(Qt::white) << 1.0;
        QTest::newRow("#777 on white, just under AA") << QColor(0x77, 0x77, 0x77) << QColor(Qt::white) << 4.48;
        QTest::newRow("#767676 on white, just over AA") << QColor(0x76, 0x76, 0x76) << QColor(Qt::white) << 4.54;
        QTest::newRow("pure red on white") << QColor(Qt::red) << QColor(Qt::white) << 4.00;
        QTest::newRow("the old dark-theme bug: #1e1e1e on #26282c")
            << QColor(0x1e, 0x1e, 0x1e) << QColor(0x26, 0x28, 0x2c) << 1.13;
    }
    void wcagRatios()
    {
        QFETCH(QColor, ink);
        QFETCH(QColor, background);
        QFETCH(double, ratio);
        QVERIFY2(std::abs(contrastRatio(ink, background) - ratio) < 0.01,
                 qPrintable(QString::number(contrastRatio(ink, background))));
    }

    void largeText_data()
    {
        QTest::addColumn<int>("px");
        QTest::addColumn<bool>("bold");
        QTest::addColumn<bool>("large");
        QTest::newRow("24 px (18 pt)") << 24 << false << true;
        QTest::newRow("23 px") << 23 << false << false;
        QTest::newRow("19 px bold (over 14 pt)") << 19 << true << true;
        QTest::newRow("18 px bold") << 18 << true << false;
        QTest::newRow("15 px") << 15 << false << false;
    }
    void largeText()
    {
        QFETCH(int, px);
        QFETCH(bool, bold);
        QFETCH(bool, large);
        QFont f;
        f.setPixelSize(px);
        f.setBold(bold);
        QCOMPARE(isLargeText(f), large);
        QCOMPARE(requiredContrast(isLargeText(f)), large ? 3.0 : 4.5);
    }

    // The style's own inks, whatever palette it is built from, including ones chosen to be hard.
    void styleRoles_data()
    {
        QTest::addColumn<QPalette>("palette");
        for (const auto& t : themes())
            QTest::newRow(t.name) << t.palette();
        QPalette grey; // a platform palette with weak text: the style must lift it
        grey.setColor(QPalette::Window, QColor(0x80, 0x80, 0x80));
        grey.setColor(QPalette::WindowText, QColor(0x60, 0x60, 0x60));
        grey.setColor(QPalette::Base, QColor(0x90, 0x90, 0x90));
        grey.setColor(QPalette::Text, QColor(0x70, 0x70, 0x70));
        QTest::newRow("grey platform palette") << grey;
    }
    void styleRoles()
    {
        QFETCH(QPalette, palette);
        for (auto surface : {QPalette::Window, QPalette::Base}) {
            const RenderStyle s = RenderStyle::fromPalette(palette, surface);
            const std::vector<std::tuple<const char*, QColor, QColor>> pairs = {
                {"text on background", s.text, s.background},      {"text on panel", s.text, s.panel},
                {"muted on background", s.muted, s.background},    {"muted on panel", s.muted, s.panel},
                {"same on its fill", s.same, s.sameFill},          {"differs on its fill", s.differs, s.differsFill},
                {"warning on its fill", s.warning, s.warningFill}, {"info on its fill", s.info, s.infoFill},
                {"same on background", s.same, s.background},      {"differs on background", s.differs, s.background},
                {"moved on background", s.moved, s.background},    {"highlighted source line", s.lineText, s.lineFill},
            };
            for (const auto& [what, ink, bg] : pairs)
                QVERIFY2(contrastRatio(ink, bg) >= 4.5, qPrintable(QStringLiteral("%1: %2 on %3 = %4")
                                                                       .arg(what, ink.name(), bg.name())
                                                                       .arg(contrastRatio(ink, bg))));
            if (s.highContrast) // the high-contrast palettes aim at AAA
                QVERIFY(contrastRatio(s.text, s.background) >= 7.0);
        }
    }

    void painters_data()
    {
        QTest::addColumn<QPalette>("palette");
        QTest::addColumn<QString>("painter");
        const QStringList painters = {
            QStringLiteral("shape diagram: every stage"),     QStringLiteral("heatmap: weights"),
            QStringLiteral("heatmap: masked scores"),         QStringLiteral("heatmap: raw scores"),
            QStringLiteral("divergence: every status"),       QStringLiteral("design layout"),
            QStringLiteral("design layout: cannot be built"), QStringLiteral("trade-off chart")};
        for (const auto& t : themes())
            for (const QString& p : painters)
                QTest::newRow(qPrintable(QStringLiteral("%1 / %2").arg(QString::fromLatin1(t.name), p)))
                    << t.palette() << p;
    }
    void painters()
    {
        QFETCH(QPalette, palette);
        QFETCH(QString, painter);
        ContrastLog log;
        auto collect = [&](QSize size, const std::function<void(QPainter&, const QRectF&, const RenderStyle&)>& f) {
            const ContrastLog part = renderLogged(palette, size, f);
            QVERIFY2(!part.empty(), "the painter drew no text through the style");
            log.insert(log.end(), part.begin(), part.end());
        };
        if (painter.startsWith(QLatin1String("shape diagram"))) {
            const auto trace = testing::traceOf(kMha, 6, InputSource::Book);
            for (int i = 0; i < static_cast<int>(trace->stages.size()); ++i)
                collect({1100, 520}, [&](QPainter& p, const QRectF& r, const RenderStyle& s) {
                    ShapeDiagramPainter(*trace, i, 1).paint(p, r, s);
                });
        } else if (painter.startsWith(QLatin1String("heatmap"))) {
            const auto trace = testing::traceOf(kMha, 6, InputSource::Book);
            const AttentionMatrix kind = painter.endsWith(QLatin1String("weights"))  ? AttentionMatrix::Weights
                                         : painter.contains(QLatin1String("masked")) ? AttentionMatrix::MaskedScores
                                                                                     : AttentionMatrix::Scores;
            HeatmapStyle hs;
            hs.title = QStringLiteral("head 0");
            hs.footer = QStringLiteral("mean distance 1.2 tokens");
            const HeatmapPainter hp(heatmapSlice(trace, kind, 0, 0),
                                    heatmapScale(trace, kind, 0, HeatmapScaleMode::Auto),
                                    {"Your", "journey", "starts", "with", "one", "step"}, hs);
            collect({760, 620}, [&](QPainter& p, const QRectF& r, const RenderStyle& s) { hp.paint(p, r, s); });
        } else if (painter.startsWith(QLatin1String("divergence"))) {
            for (DivergenceStatus status : {DivergenceStatus::Same, DivergenceStatus::Shape, DivergenceStatus::Values,
                                            DivergenceStatus::Error, DivergenceStatus::NotReached})
                for (bool first : {false, true}) {
                    DivergenceCard card;
                    card.row = {"attn_scores", status, {2, 6, 6}, {2, 6, 3}, "the buggy code's sentence"};
                    card.axes = {Axis::b, Axis::num_tokens, Axis::num_tokens};
                    card.first = first;
                    card.stoppedAt = QStringLiteral("keys");
                    collect({620, 480}, [&](QPainter& p, const QRectF& r, const RenderStyle& s) {
                        DivergencePainter(card).paint(p, r, s);
                    });
                }
        } else if (painter.startsWith(QLatin1String("design layout"))) {
            const std::string call = painter.contains(QLatin1String("cannot")) ? "MultiHeadAttention(6, 6, 4, 0.0, 4)"
                                                                               : "MultiHeadAttention(8, 8, 4, 0.0, 2)";
            const DesignLayoutPainter dp(compare_designs(*parse_call(call).config));
            collect({1200, 700}, [&](QPainter& p, const QRectF& r, const RenderStyle& s) { dp.paint(p, r, s); });
        } else {
            HeadTradeoffQuery q;
            q.d_out = 24;
            q.num_tokens = 16;
            const TradeoffChartPainter tp(head_tradeoffs(q), 4);
            collect({1000, 620}, [&](QPainter& p, const QRectF& r, const RenderStyle& s) { tp.paint(p, r, s); });
        }
        for (const TextContrast& t : log)
            QVERIFY2(contrastRatio(t.ink, t.background) >= requiredContrast(t.large), qPrintable(describe(t)));
    }

    // Raw scores (which can be negative) on the diverging scale centred on 0, weights on the sequential
    // one, and the legend says which.
    void legendNamesTheScale_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("isDiverging");
        QTest::newRow("raw scores") << static_cast<int>(AttentionMatrix::Scores) << true;
        QTest::newRow("masked scores") << static_cast<int>(AttentionMatrix::MaskedScores) << true;
        QTest::newRow("weights") << static_cast<int>(AttentionMatrix::Weights) << false;
    }
    void legendNamesTheScale()
    {
        QFETCH(int, kind);
        QFETCH(bool, isDiverging);
        const auto trace = testing::traceOf(kMha, 6, InputSource::Book);
        const auto matrix = static_cast<AttentionMatrix>(kind);
        const ColorScale scale = heatmapScale(trace, matrix, 0, HeatmapScaleMode::Auto);
        QCOMPARE(scale.kind == ColorScale::Kind::Diverging, isDiverging);
        if (isDiverging) {
            QCOMPARE(scale.lo, -scale.hi); // centred on 0
            QCOMPARE(scale.valueAt(0.5), 0.0);
            QCOMPARE(scale.map(0.0), diverging(0.0));
        } else {
            QCOMPARE(scale.lo, 0.0);
        }
        const QString expected = isDiverging ? QStringLiteral("diverging, centred on 0") : QStringLiteral("sequential");
        QCOMPARE(scale.kindName(), expected);
        HeatmapStyle hs;
        const HeatmapPainter hp(heatmapSlice(trace, matrix, 0, 0), scale, {}, hs);
        const ContrastLog log =
            renderLogged(RenderStyle::printPalette(), {600, 500},
                         [&](QPainter& p, const QRectF& r, const RenderStyle& s) { hp.paint(p, r, s); });
        QString drawn;
        for (const TextContrast& t : log)
            drawn += t.text + QLatin1Char('|');
        QVERIFY2(drawn.contains(expected), qPrintable(drawn));
        QVERIFY(!drawn.contains(isDiverging ? QStringLiteral("sequential") : QStringLiteral("diverging")));
    }
};

QTEST_MAIN(TestUiContrastPainters)
#include "test_ui_contrast_painters.moc"
