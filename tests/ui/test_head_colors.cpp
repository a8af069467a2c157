// The head colours as a colour-blind student sees them: for every head count up to twelve, the smallest
// CIEDE2000 distance between two heads' colours under normal vision and simulated protanopia,
// deuteranopia and tritanopia (Machado et al. 2009, severity 1.0) stays above the figure measured when
// the list was chosen; every colour keeps 3:1 against light and dark pages; its label ink 4.5:1.
#include "render/color_vision.h"
#include "render/head_colors.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace attnlab::ui;
using namespace attnlab::ui::cvd;

Q_DECLARE_METATYPE(Vision)

namespace {

Rgb rgbOf(const QColor& c)
{
    return {c.redF(), c.greenF(), c.blueF()};
}

// The smallest ΔE00 between the simulated colours of heads 0..n-1.
double minimumDistance(int n, Vision v)
{
    std::vector<Lab> seen;
    for (int h = 0; h < n; ++h)
        seen.push_back(srgbToLab(simulate(rgbOf(headColor(h, n)), v)));
    double smallest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            smallest =
                std::min(smallest, ciede2000(seen[static_cast<std::size_t>(i)], seen[static_cast<std::size_t>(j)]));
    return smallest;
}

} // namespace

class TestHeadColors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void distinguishable_data();
    void distinguishable();
    void visibleOnLightAndDarkPages_data();
    void visibleOnLightAndDarkPages();
    void labelInkReadsOnEveryColour();
    void colourOfAHeadIgnoresTheCount();
    void labels();
};

void TestHeadColors::distinguishable_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<Vision>("vision");
    QTest::addColumn<double>("threshold");
    // Floors under the figures measured for the list in head_colors.cpp (rounded down to 0.5 ΔE00).
    // Sizes 1 (nothing to tell apart) to 12; the presets use 1, 2, 3, 4, 6, 8 and 12.
    static const double kFloor[kDistinctHeadColors + 1] = {0,   0,   51.0, 16.5, 12.5, 10.5, 9.0,
                                                           9.0, 8.5, 8.0,  7.5,  7.0,  7.0};
    for (int n = 2; n <= kDistinctHeadColors; ++n)
        for (Vision v : kAllVisions)
            QTest::addRow("%d heads, %s", n, visionName(v)) << n << v << kFloor[n];
}

void TestHeadColors::distinguishable()
{
    QFETCH(int, heads);
    QFETCH(Vision, vision);
    QFETCH(double, threshold);
    const double d = minimumDistance(heads, vision);
    qInfo("%2d heads  %-13s  min ΔE00 %.2f", heads, visionName(vision), d);
    QVERIFY2(d >= threshold, qPrintable(QStringLiteral("min ΔE00 %1 < %2").arg(d, 0, 'f', 2).arg(threshold)));
}

void TestHeadColors::visibleOnLightAndDarkPages_data()
{
    QTest::addColumn<unsigned>("page");
    QTest::newRow("white") << 0xffffffu;
    QTest::newRow("light window #efefef") << 0xefefefu;
    QTest::newRow("black (High Contrast dark)") << 0x000000u;
    QTest::newRow("Dark window #26282c") << 0x26282cu;
    QTest::newRow("Dark base #1c1d20") << 0x1c1d20u;
}

void TestHeadColors::visibleOnLightAndDarkPages()
{
    QFETCH(unsigned, page);
    // WCAG 1.4.11 asks 3:1 for graphical objects: a head's frame or chip must stand out from the page.
    for (int h = 0; h < kDistinctHeadColors; ++h) {
        const double ratio = contrastRatio(rgbOf(headColor(h)), fromHex(page));
        QVERIFY2(ratio >= 3.0,
                 qPrintable(QStringLiteral("head %1 (%2): %3:1").arg(h).arg(headColor(h).name()).arg(ratio)));
    }
}

void TestHeadColors::labelInkReadsOnEveryColour()
{
    for (int h = 0; h < kDistinctHeadColors; ++h) {
        const QColor fill = headColor(h), ink = headLabelInk(fill);
        QVERIFY(ink == QColor(Qt::black) || ink == QColor(Qt::white));
        const double ratio = contrastRatio(rgbOf(fill), rgbOf(ink));
        QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("head %1: %2:1").arg(h).arg(ratio)));
        // and the other choice would not have been better
        const QColor other = ink == QColor(Qt::black) ? QColor(Qt::white) : QColor(Qt::black);
        QVERIFY(contrastRatio(rgbOf(fill), rgbOf(other)) <= ratio);
    }
}

void TestHeadColors::colourOfAHeadIgnoresTheCount()
{
    // Head 3 is the same colour with 4 heads as with 12, and past twelve colours repeat.
    for (int n : {1, 2, 3, 4, 6, 8, 12, 16, 25, 128})
        for (int h = 0; h < n; ++h)
            QCOMPARE(headColor(h, n), headColor(h % kDistinctHeadColors, kDistinctHeadColors));
    QVERIFY(headColor(12, 24) == headColor(0, 24)); // the number is what tells these two apart
    for (int i = 0; i < kDistinctHeadColors; ++i)
        for (int j = i + 1; j < kDistinctHeadColors; ++j)
            QVERIFY(headColor(i) != headColor(j));
}

void TestHeadColors::labels()
{
    QCOMPARE(headLabel(3), QStringLiteral("head 3"));
    QCOMPARE(headShortLabel(11), QStringLiteral("h11"));
    QCOMPARE(headLabel(127), QStringLiteral("head 127"));
}

QTEST_APPLESS_MAIN(TestHeadColors)
#include "test_head_colors.moc"
