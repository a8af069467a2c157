// The colour science behind the head colours, against published numbers: CIEDE2000 on all 34 pairs of
// Sharma, Wu & Dalal's Table 1, CIELAB of the sRGB primaries, and the Machado et al. (2009) simulation
// against an independent NumPy computation (tests/reference/head_colors_search.py, same formulas).
#include "render/color_vision.h"

#include <QTest>

#include <cmath>

using namespace attnlab::ui::cvd;

Q_DECLARE_METATYPE(Vision)

class TestColorVision : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ciede2000MatchesSharmaTable_data();
    void ciede2000MatchesSharmaTable();
    void ciede2000IsZeroOnlyForEqualColours();
    void srgbTransferRoundTrips();
    void labOfKnownColours_data();
    void labOfKnownColours();
    void machadoRowsSumToOne_data();
    void machadoRowsSumToOne();
    void dichromatMatricesLoseOneDimension();
    void simulatedColours_data();
    void simulatedColours();
    void contrastRatios();
};

void TestColorVision::ciede2000MatchesSharmaTable_data()
{
    QTest::addColumn<double>("L1");
    QTest::addColumn<double>("a1");
    QTest::addColumn<double>("b1");
    QTest::addColumn<double>("L2");
    QTest::addColumn<double>("a2");
    QTest::addColumn<double>("b2");
    QTest::addColumn<double>("expected");
    // Table 1 of G. Sharma, W. Wu, E. N. Dalal, "The CIEDE2000 color-difference formula: implementation
    // notes, supplementary test data, and mathematical observations", Color Res. Appl. 30(1), 2005.
    static const double table[34][7] = {
        {50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425},
        {50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615},
        {50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412},
        {50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000},
        {50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000},
        {50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000},
        {50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669},
        {50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195},
        {50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195},
        {50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045},
        {50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045},
        {50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461},
        {50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065},
        {50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492},
        {50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977},
        {50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030},
        {50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535},
        {50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000},
        {50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000},
        {50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000},
        {50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000},
        {60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644},
        {63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630},
        {61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731},
        {35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645},
        {22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373},
        {36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146},
        {90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441},
        {90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381},
        {6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377},
        {2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082},
    };
    for (int i = 0; i < 34; ++i) {
        const auto& r = table[i];
        QTest::addRow("pair %d", i + 1) << r[0] << r[1] << r[2] << r[3] << r[4] << r[5] << r[6];
    }
}

void TestColorVision::ciede2000MatchesSharmaTable()
{
    QFETCH(double, L1);
    QFETCH(double, a1);
    QFETCH(double, b1);
    QFETCH(double, L2);
    QFETCH(double, a2);
    QFETCH(double, b2);
    QFETCH(double, expected);
    // The table prints four decimals; the formula is symmetric, so both orders must round to it.
    const double forward = ciede2000({L1, a1, b1}, {L2, a2, b2});
    const double backward = ciede2000({L2, a2, b2}, {L1, a1, b1});
    QVERIFY2(std::abs(forward - expected) < 0.5e-4, qPrintable(QString::number(forward, 'f', 6)));
    QVERIFY2(std::abs(backward - expected) < 0.5e-4, qPrintable(QString::number(backward, 'f', 6)));
}

void TestColorVision::ciede2000IsZeroOnlyForEqualColours()
{
    QCOMPARE(ciede2000({50, 10, -20}, {50, 10, -20}), 0.0);
    QCOMPARE(ciede2000({0, 0, 0}, {0, 0, 0}), 0.0);
    QVERIFY(ciede2000({50, 0, 0}, {51, 0, 0}) > 0.5);
    // Black against white: the lightness term alone, 100 / S_L at L' = 50.
    QVERIFY(std::abs(ciede2000(srgbToLab({0, 0, 0}), srgbToLab({1, 1, 1})) - 100.0) < 1e-6);
}

void TestColorVision::srgbTransferRoundTrips()
{
    for (int v = 0; v <= 255; ++v) {
        const double c = v / 255.0;
        QVERIFY(std::abs(linearToSrgb(srgbToLinear(c)) - c) < 1e-12);
    }
    // The two pieces of the curve meet at the breakpoint, and mid-grey is about 21.6% light.
    QVERIFY(std::abs(srgbToLinear(0.04045) - 0.04045 / 12.92) < 1e-12);
    QVERIFY(std::abs(srgbToLinear(0.5) - 0.214041) < 1e-6);
}

void TestColorVision::labOfKnownColours_data()
{
    QTest::addColumn<unsigned>("rgb");
    QTest::addColumn<double>("L");
    QTest::addColumn<double>("a");
    QTest::addColumn<double>("b");
    // CIELAB (D65) of the sRGB primaries and mid-grey, as tabulated for the IEC 61966-2-1 matrix.
    QTest::newRow("white") << 0xffffffu << 100.0 << 0.0 << 0.0;
    QTest::newRow("red") << 0xff0000u << 53.2408 << 80.0925 << 67.2032;
    QTest::newRow("green") << 0x00ff00u << 87.7347 << -86.1827 << 83.1793;
    QTest::newRow("blue") << 0x0000ffu << 32.2970 << 79.1875 << -107.8602;
    QTest::newRow("grey 128") << 0x808080u << 53.5850 << 0.0 << 0.0;
}

void TestColorVision::labOfKnownColours()
{
    QFETCH(unsigned, rgb);
    QFETCH(double, L);
    QFETCH(double, a);
    QFETCH(double, b);
    const Lab lab = srgbToLab(fromHex(rgb));
    QVERIFY2(std::abs(lab.L - L) < 2e-3 && std::abs(lab.a - a) < 2e-3 && std::abs(lab.b - b) < 2e-3,
             qPrintable(QStringLiteral("%1 %2 %3").arg(lab.L).arg(lab.a).arg(lab.b)));
}

void TestColorVision::machadoRowsSumToOne_data()
{
    QTest::addColumn<Vision>("vision");
    for (Vision v : kAllVisions)
        QTest::newRow(visionName(v)) << v;
}

void TestColorVision::machadoRowsSumToOne()
{
    QFETCH(Vision, vision);
    for (const auto& row : machadoMatrix(vision))
        QVERIFY(std::abs(row[0] + row[1] + row[2] - 1.0) < 2e-6); // the table's six decimals
    // So white and every grey stay themselves: a dichromat sees the neutral axis unchanged.
    for (double grey : {0.0, 0.2, 0.5, 1.0}) {
        const Rgb s = simulate({grey, grey, grey}, vision);
        QVERIFY(std::abs(s.r - grey) < 1e-5 && std::abs(s.g - grey) < 1e-5 && std::abs(s.b - grey) < 1e-5);
    }
}

void TestColorVision::dichromatMatricesLoseOneDimension()
{
    // Protanopia and deuteranopia project onto a plane (determinant ~0): a colour and its confusion
    // partner become one. Machado's tritanopia is not a projection, so it is left out here.
    auto det = [](const Matrix3& m) {
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
               m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    QVERIFY(std::abs(det(machadoMatrix(Vision::Protanopia))) < 1e-5);
    QVERIFY(std::abs(det(machadoMatrix(Vision::Deuteranopia))) < 1e-5);
    QVERIFY(std::abs(det(machadoMatrix(Vision::Tritanopia))) > 0.1);
    // Red and green, the classic confusion: far apart normally, much closer for a protanope.
    const Rgb red = fromHex(0xff0000), green = fromHex(0x00ff00);
    const double normal = ciede2000(srgbToLab(red), srgbToLab(green));
    const double protan =
        ciede2000(srgbToLab(simulate(red, Vision::Protanopia)), srgbToLab(simulate(green, Vision::Protanopia)));
    QVERIFY(normal > 80);
    QVERIFY2(protan < normal / 2, qPrintable(QString::number(protan)));
}

void TestColorVision::simulatedColours_data()
{
    QTest::addColumn<unsigned>("rgb");
    QTest::addColumn<Vision>("vision");
    QTest::addColumn<double>("r");
    QTest::addColumn<double>("g");
    QTest::addColumn<double>("b");
    // From NumPy (tests/reference/head_colors_search.py: sRGB decode, matrix, clip to [0, 1], encode).
    QTest::newRow("orange protan") << 0xe69f00u << Vision::Protanopia << 0.725684 << 0.636809 << 0.0;
    QTest::newRow("orange deutan") << 0xe69f00u << Vision::Deuteranopia << 0.791219 << 0.704755 << 0.066022;
    QTest::newRow("orange tritan") << 0xe69f00u << Vision::Tritanopia << 0.985301 << 0.547499 << 0.530580;
    QTest::newRow("sky blue protan") << 0x56b4e9u << Vision::Protanopia << 0.607732 << 0.701669 << 0.923586;
    QTest::newRow("sky blue tritan (clipped)") << 0x56b4e9u << Vision::Tritanopia << 0.0 << 0.759730 << 0.775800;
    QTest::newRow("red protan") << 0xff0000u << Vision::Protanopia << 0.426608 << 0.372654 << 0.0;
    QTest::newRow("red deutan") << 0xff0000u << Vision::Deuteranopia << 0.640060 << 0.565807 << 0.0;
    QTest::newRow("green deutan") << 0x00ff00u << Vision::Deuteranopia << 0.936051 << 0.839248 << 0.229192;
    QTest::newRow("blue 0072b2 tritan") << 0x0072b2u << Vision::Tritanopia << 0.0 << 0.508866 << 0.538707;
    QTest::newRow("normal is identity") << 0xd55e00u << Vision::Normal << 0xd5 / 255.0 << 0x5e / 255.0 << 0.0;
}

void TestColorVision::simulatedColours()
{
    QFETCH(unsigned, rgb);
    QFETCH(Vision, vision);
    QFETCH(double, r);
    QFETCH(double, g);
    QFETCH(double, b);
    const Rgb s = simulate(fromHex(rgb), vision);
    QVERIFY2(std::abs(s.r - r) < 1e-5 && std::abs(s.g - g) < 1e-5 && std::abs(s.b - b) < 1e-5,
             qPrintable(QStringLiteral("%1 %2 %3").arg(s.r, 0, 'f', 6).arg(s.g, 0, 'f', 6).arg(s.b, 0, 'f', 6)));
}

void TestColorVision::contrastRatios()
{
    QVERIFY(std::abs(contrastRatio({0, 0, 0}, {1, 1, 1}) - 21.0) < 1e-9);
    QCOMPARE(contrastRatio(fromHex(0x336699), fromHex(0x336699)), 1.0);
    // WCAG's own example figure: #777777 on white is just under 4.5:1.
    const double grey = contrastRatio(fromHex(0x777777), {1, 1, 1});
    QVERIFY2(grey > 4.47 && grey < 4.49, qPrintable(QString::number(grey)));
    QCOMPARE(contrastRatio(fromHex(0x123456), fromHex(0xabcdef)), contrastRatio(fromHex(0xabcdef), fromHex(0x123456)));
}

QTEST_APPLESS_MAIN(TestColorVision)
#include "test_color_vision.moc"
