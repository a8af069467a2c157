// The kernel choice: for each kernel OpenBLAS may report and each class of CPU, whether the app asks for a
// better one, and which. The CPUs are described by their flags, so the table holds on any machine.
#include "tensor/blas_kernel.h"

#include <QtTest>

using attnlab::CpuFeatures;

Q_DECLARE_METATYPE(CpuFeatures)

namespace {

CpuFeatures sse_only()
{
    return {};
}
CpuFeatures avx2_fma()
{
    CpuFeatures f;
    f.avx2 = f.fma = true;
    return f;
}
CpuFeatures avx512()
{
    CpuFeatures f = avx2_fma();
    f.avx512f = f.avx512bw = f.avx512dq = f.avx512vl = true;
    return f;
}
CpuFeatures avx512f_only() // Xeon Phi: AVX-512 F without BW/VL, which the SkylakeX kernel needs
{
    CpuFeatures f = avx2_fma();
    f.avx512f = true;
    return f;
}

} // namespace

class TestBlasKernel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void choice_data();
    void choice();
    void thisMachineIsRead();
    void reportNamesTheKernel();
};

void TestBlasKernel::choice_data()
{
    QTest::addColumn<QString>("corename");
    QTest::addColumn<CpuFeatures>("cpu");
    QTest::addColumn<QString>("expected"); // empty: keep OpenBLAS's pick
    // The case that started it: a Xeon of model 207 that OpenBLAS 0.3.21 does not know.
    QTest::newRow("prescott-on-avx512") << "Prescott" << avx512() << "SKYLAKEX";
    QTest::newRow("haswell-on-avx512") << "Haswell" << avx512() << "SKYLAKEX";
    QTest::newRow("zen-on-avx512") << "Zen" << avx512() << "SKYLAKEX";
    QTest::newRow("sandybridge-on-avx512") << "Sandybridge" << avx512() << "SKYLAKEX";
    QTest::newRow("skylakex-on-avx512") << "SkylakeX" << avx512() << "";
    QTest::newRow("cooperlake-on-avx512") << "Cooperlake" << avx512() << "";
    QTest::newRow("sapphirerapids-on-avx512") << "SapphireRapids" << avx512() << "";
    QTest::newRow("prescott-on-avx2") << "Prescott" << avx2_fma() << "HASWELL";
    QTest::newRow("nehalem-on-avx2") << "Nehalem" << avx2_fma() << "HASWELL";
    QTest::newRow("sandybridge-on-avx2") << "Sandybridge" << avx2_fma() << "HASWELL";
    QTest::newRow("excavator-on-avx2") << "Excavator" << avx2_fma() << "HASWELL";
    QTest::newRow("haswell-on-avx2") << "Haswell" << avx2_fma() << "";
    QTest::newRow("zen-on-avx2") << "Zen" << avx2_fma() << "";
    QTest::newRow("prescott-on-avx512f-only") << "Prescott" << avx512f_only() << "HASWELL";
    QTest::newRow("prescott-on-sse") << "Prescott" << sse_only() << "";
    QTest::newRow("core2-on-sse") << "Core2" << sse_only() << "";
    QTest::newRow("case-does-not-matter") << "PRESCOTT" << avx512() << "SKYLAKEX";
    QTest::newRow("sse3-opteron") << "Opteron(SSE3)" << avx2_fma() << "HASWELL";
    // A name the table does not know is a kernel newer than it, not a worse one.
    QTest::newRow("unknown-name") << "Zen5" << avx512() << "";
    QTest::newRow("empty-name") << "" << avx512() << "";
}

void TestBlasKernel::choice()
{
    QFETCH(QString, corename);
    QFETCH(CpuFeatures, cpu);
    QFETCH(QString, expected);
    const auto chosen = attnlab::better_blas_kernel(corename.toStdString(), cpu);
    QCOMPARE(chosen ? QString::fromStdString(*chosen) : QString(), expected);
}

void TestBlasKernel::thisMachineIsRead()
{
    const CpuFeatures f = attnlab::cpu_features();
    // Nothing without what it builds on: AVX-512 needs AVX2 here, as every CPU that has it.
    if (f.avx512f)
        QVERIFY(f.avx2);
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (!cpuinfo.open(QIODevice::ReadOnly))
        QSKIP("no /proc/cpuinfo to compare with");
    const QByteArray text = cpuinfo.readAll();
    const QByteArray flags = text.mid(text.indexOf("\nflags"), 4096);
    QCOMPARE(f.avx2, flags.contains(" avx2"));
    QCOMPARE(f.fma, flags.contains(" fma"));
    QCOMPARE(f.avx512bw, flags.contains(" avx512bw"));
    QCOMPARE(f.avx512vl, flags.contains(" avx512vl"));
}

void TestBlasKernel::reportNamesTheKernel()
{
    const attnlab::BlasReport r = attnlab::blas_report();
    QVERIFY(!r.library.empty());
    const QString sentence = QString::fromStdString(r.sentence());
    QVERIFY2(sentence.startsWith(QString::fromStdString(r.library)), qPrintable(sentence));
    if (!r.kernel.empty()) {
        QVERIFY2(sentence.contains(QString::fromStdString(r.kernel)), qPrintable(sentence));
        QVERIFY(r.chosen_by == "OpenBLAS" || r.chosen_by == "user");
    }
}

QTEST_GUILESS_MAIN(TestBlasKernel)
#include "test_blas_kernel.moc"
