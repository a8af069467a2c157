// The heatmaps at 1,024 tokens: softmax weights are about 1/1,024, so a linear 0-1 scale paints
// nearly everything the darkest colour; the default (auto) switches to a log scale, which shows the
// structure, and says so in the legend. And --stage attn_weights without --view opens the heatmaps.
#include "call/call_parser.h"
#include "common/gui_runner.h"
#include "render/colormap.h"
#include "forward/experiment.h"
#include "render/heatmap_painter.h"
#include "render/heatmap_source.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// Spread of lightness over the unmasked pixels: 0 for a uniform image.
double lightnessSpread(const QImage& image)
{
    double sum = 0, sum2 = 0;
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb c = image.pixel(x, y);
            if (isMaskedColor(c))
                continue;
            const double l = QColor(c).lightnessF();
            sum += l;
            sum2 += l * l;
            ++n;
        }
    const double mean = sum / n;
    return std::sqrt(std::max(0.0, sum2 / n - mean * mean));
}

QImage screenshot(const QString& dir, const QString& name, const QStringList& extra)
{
    const QString file = dir + QLatin1Char('/') + name + QStringLiteral(".png");
    const testing::GuiRun run = testing::runGui(
        QStringList{QStringLiteral("--call"), QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)"),
                    QStringLiteral("--tokens"), QStringLiteral("16"), QStringLiteral("--stage"),
                    QStringLiteral("attn_weights"), QStringLiteral("--screenshot"), file} +
            extra,
        {}, 60000);
    if (run.code != 0) {
        qWarning("%s", qPrintable(run.err)); // what the program said, as when its output went to the test's
        return {};
    }
    return QImage(file);
}

} // namespace

class TestUiHeatmapScale : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void logScaleShowsStructureAt1024Tokens()
    {
        ExperimentSpec spec;
        spec.config = *parse_call("MultiHeadAttention(64, 64, 1024, 0.0, 4)").config;
        spec.num_tokens = 1024;
        const auto trace = std::make_shared<const Trace>(run(prepare(spec)));
        const ColorScale automatic = heatmapScale(trace, AttentionMatrix::Weights, 0, HeatmapScaleMode::Auto);
        QVERIFY(automatic.logarithmic); // the default at 1,024 tokens
        QVERIFY(automatic.scaleName.contains(QStringLiteral("log")));
        QVERIFY(automatic.lo > 0 && automatic.lo < 1.0 / 1024);
        const ColorScale linear = heatmapScale(trace, AttentionMatrix::Weights, 0, HeatmapScaleMode::Linear);
        QVERIFY(!linear.logarithmic);

        const HeatmapSlice slice = heatmapSlice(trace, AttentionMatrix::Weights, 1, 0);
        const QImage logImage = HeatmapPainter::renderImage(slice, automatic, QSize(256, 256));
        const QImage linImage = HeatmapPainter::renderImage(slice, linear, QSize(256, 256));
        const double logSpread = lightnessSpread(logImage), linSpread = lightnessSpread(linImage);
        qInfo("lightness spread: log %.3f, linear %.3f", logSpread, linSpread);
        QVERIFY(logSpread > 0.03);          // visibly non-uniform (measured: 0.054)
        QVERIFY(logSpread > 4 * linSpread); // where the linear map is almost one colour
        // Late queries (bottom rows) spread over more keys than early ones: darker on a log scale.
        const QColor early(logImage.pixel(2, 2)), late(logImage.pixel(2, 253));
        QVERIFY(early.lightnessF() > late.lightnessF());

        // The legend's ends are the scale's ends, and small values print with significant digits.
        QCOMPARE(automatic.valueAt(1.0), automatic.hi);
        QVERIFY(std::abs(automatic.valueAt(0.0) - automatic.lo) < 1e-12);
        QCOMPARE(formatExact(1.0f / 1024), QStringLiteral("0.0009766"));
        // Scores stay linear and symmetric whatever is asked.
        QVERIFY(!heatmapScale(trace, AttentionMatrix::Scores, 0, HeatmapScaleMode::Log).logarithmic);
    }

    void attentionStagesMapToHeatmaps()
    {
        QCOMPARE(stage_facts("attn_weights").matrix, std::optional(AttentionMatrix::Weights));
        QCOMPARE(stage_facts("attn_scores.masked").matrix, std::optional(AttentionMatrix::MaskedScores));
        QCOMPARE(stage_facts("heads.3.attn_weights.dropout").matrix, std::optional(AttentionMatrix::Dropout));
        QVERIFY(!stage_facts("queries.view").matrix);
        QVERIFY(!stage_facts("context.merged").matrix);
    }

    void stageAttnWeightsWithoutViewOpensTheHeatmaps()
    {
        QTemporaryDir dir;
        const QImage implicit = screenshot(dir.path(), "implicit", {});
        const QImage heatmaps = screenshot(dir.path(), "heatmaps", {"--view", "heatmaps"});
        const QImage stepper = screenshot(dir.path(), "stepper", {"--view", "stepper"});
        QVERIFY(!implicit.isNull() && !heatmaps.isNull() && !stepper.isNull());
        QCOMPARE(implicit.size(), heatmaps.size());
        QVERIFY(implicit == heatmaps); // the same window, pixel for pixel
        QVERIFY(implicit != stepper);
    }
};

QTEST_MAIN(TestUiHeatmapScale)
#include "test_ui_heatmap_scale.moc"
