// Which kernel ran the products, said by `bench --json` and `--version`, and the app's choice made
// through the real program: OpenBLAS's own pick, the user's OPENBLAS_CORETYPE, and the re-run with a
// better kernel when OpenBLAS's pick is below the CPU (made to happen on any machine by telling the
// program that OpenBLAS picked Prescott). And `run`, with or without --model, on one engine thread
// whatever the machine offers.
#include "common/process_measure.h"
#include "tensor/blas_kernel.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kCli = QStringLiteral(ATTNLAB_CLI_PATH);

QJsonObject benchBlas(const QStringList& env)
{
    const Measured m = measure_process(kCli,
                                       {"bench", "--call", "MultiHeadAttention(3, 2, 6, 0.0, 2)", "--batch", "1",
                                        "--tokens", "6", "--repeat", "1", "--json"},
                                       env);
    if (m.code != 0)
        qWarning("%s", qPrintable(m.err));
    return QJsonDocument::fromJson(m.out.toUtf8()).object().value("blas").toObject();
}

} // namespace

class TestCliBlas : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void openblasOwnPick();
    void userChoiceIsKept();
    void unknownUserChoiceIsSaid();
    void appReplacesAFallback();
    void versionNamesTheKernel();
    void runOnOneThread_data();
    void runOnOneThread();

private:
    QTemporaryDir tmp_;
};

void TestCliBlas::openblasOwnPick()
{
    const QJsonObject blas = benchBlas({"OPENBLAS_CORETYPE="});
    QVERIFY(!blas.value("library").toString().isEmpty());
    if (!blas.value("library").toString().startsWith("OpenBLAS"))
        QSKIP("built without OpenBLAS");
    QVERIFY(!blas.value("kernel").toString().isEmpty());
    QCOMPARE(blas.value("chosen_by").toString(), QString("OpenBLAS"));
    // This machine's own pick is never below what its CPU supports: otherwise the program re-ran itself.
    const auto better =
        attnlab::better_blas_kernel(blas.value("kernel").toString().toStdString(), attnlab::cpu_features());
    QVERIFY2(!better, qPrintable(blas.value("sentence").toString()));
}

void TestCliBlas::userChoiceIsKept()
{
    if (!attnlab::cpu_features().avx2)
        QSKIP("the Haswell kernel needs AVX2");
    // Also with the test hook: the user's variable wins over any choice of the app's.
    const QJsonObject blas = benchBlas({"OPENBLAS_CORETYPE=HASWELL", "ATTNLAB_BLAS_ASSUME_CORE=Prescott"});
    if (!blas.value("library").toString().startsWith("OpenBLAS"))
        QSKIP("built without OpenBLAS");
    QCOMPARE(blas.value("kernel").toString(), QString("Haswell"));
    QCOMPARE(blas.value("chosen_by").toString(), QString("user"));
    QVERIFY(blas.value("sentence").toString().contains("OPENBLAS_CORETYPE"));
}

void TestCliBlas::unknownUserChoiceIsSaid()
{
    const QJsonObject blas = benchBlas({"OPENBLAS_CORETYPE=NoSuchCore"});
    if (!blas.value("library").toString().startsWith("OpenBLAS"))
        QSKIP("built without OpenBLAS");
    QCOMPARE(blas.value("chosen_by").toString(), QString("OpenBLAS"));
    QCOMPARE(blas.value("ignored_coretype").toString(), QString("NoSuchCore"));
    QVERIFY(blas.value("sentence").toString().contains("NoSuchCore"));
}

void TestCliBlas::appReplacesAFallback()
{
    const auto better = attnlab::better_blas_kernel("Prescott", attnlab::cpu_features());
    if (!better)
        QSKIP("this CPU supports no kernel better than Prescott");
    const QJsonObject blas = benchBlas({"OPENBLAS_CORETYPE=", "ATTNLAB_BLAS_ASSUME_CORE=Prescott"});
    if (!blas.value("library").toString().startsWith("OpenBLAS"))
        QSKIP("built without OpenBLAS");
    QCOMPARE(blas.value("kernel").toString().toUpper(), QString::fromStdString(*better));
    QCOMPARE(blas.value("chosen_by").toString(), QString("app"));
    QCOMPARE(blas.value("replaced").toString(), QString("Prescott"));
    QVERIFY(blas.value("sentence").toString().contains("chosen by the app"));
}

void TestCliBlas::versionNamesTheKernel()
{
    const Measured m = measure_process(kCli, {"--version"}, {"OPENBLAS_CORETYPE="});
    QCOMPARE(m.code, 0);
    QVERIFY2(m.out.contains("matrix products: "), qPrintable(m.out));
    const attnlab::BlasReport here = attnlab::blas_report();
    QVERIFY2(m.out.contains(QString::fromStdString(here.library)), qPrintable(m.out));
}

void TestCliBlas::runOnOneThread_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("run-call") << QStringList{"run", "--call", "MultiHeadAttention(768, 768, 64, 0.0, 12)", "--tokens",
                                             "64"};
    QTest::newRow("run-model") << QStringList{"run", "--model", "verdict-gpt-h4", "--layer", "1"};
}

void TestCliBlas::runOnOneThread()
{
    QFETCH(QStringList, args);
    args << "--dump" << tmp_.filePath("threads.safetensors") << "--json";
    const Measured m = measure_process(kCli, args, {"OMP_NUM_THREADS=4", "OPENBLAS_NUM_THREADS=4"});
    QVERIFY2(m.code == 0, qPrintable(m.err));
    QCOMPARE(QJsonDocument::fromJson(m.out.toUtf8()).object().value("threads").toInt(), 1);
}

QTEST_GUILESS_MAIN(TestCliBlas)
#include "test_cli_blas.moc"
