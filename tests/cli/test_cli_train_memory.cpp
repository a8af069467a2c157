// train's memory estimate bounds the whole process, as test_memory_budget checks it for the other commands: each
// sweep finishes with its peak resident memory within the bytes its refusal of a one-byte budget states, and a
// budget 2 MiB under them (the program's own measured part may move by a MiB between runs) is refused in one
// sentence before anything is trained. The shapes are the ones
// whose cost the old estimate left out (weights and AdamW's moments of runs in parallel, a long context at batch
// 1, --dump-run's batches), scaled down to a few hundred MB.
#include "common/process_measure.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include "common/sanitized.h"

namespace {

long long own_resident_bytes()
{
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const auto match = QRegularExpression(R"(VmRSS:\s*(\d+) kB)").match(QString::fromLatin1(status.readAll()));
    return match.hasMatch() ? match.captured(1).toLongLong() * 1024 : 0;
}

long long estimate_of(const QStringList& args)
{
    const Measured m = measure_process(ATTNLAB_CLI_PATH, args + QStringList{"--max-memory", "1"});
    const auto match = QRegularExpression(R"(\((\d+) bytes)").match(m.err);
    return m.code == 1 && match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

class TestCliTrainMemory : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
#ifdef ATTNLAB_SANITIZED
        QSKIP("a sanitizer's shadow memory and quarantine are not the program's own");
#endif
    }

    void peak_stays_within_the_estimate_data()
    {
        QTest::addColumn<QStringList>("args");
        // The issue's shape, at emb 768: two seeds' weights, gradients and moments at once.
        QTest::newRow("wide-two-seeds") << QStringList{
            "--task", "previous-token", "--emb", "768",     "--layers", "1",       "--context", "2",       "--batch",
            "1",      "--heads",        "1",     "--seeds", "2",        "--vocab", "2",         "--steps", "2"};
        QTest::newRow("long-context-batch-1")
            << QStringList{"--task", "previous-token", "--emb", "4",       "--heads", "4", "--context",
                           "512",    "--batch",        "1",     "--steps", "1"};
        QTest::newRow("default-sweep") << QStringList{"--task", "induction", "--steps", "30"};
        QTest::newRow("dump-run") << QStringList{"--task", "induction", "--heads", "2",          "--seed",
                                                 "1",      "--steps",   "1500",    "--dump-run", "@DIR@/r.safetensors"};
        QTest::newRow("verdict") << QStringList{"--task", "the-verdict", "--steps", "5", "--heads", "4"};
    }

    void peak_stays_within_the_estimate()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir, refusedDir;
        const QStringList train = QStringList{"train"} + args;
        const long long estimate = estimate_of(QStringList(train).replaceInStrings("@DIR@", dir.path()));
        QVERIFY2(estimate > 0, "the refusal of a one-byte budget states the bytes the sweep needs");
        const long long own = own_resident_bytes();
        // The estimate counts the program itself as its resident size when the check runs, rounded up to a MiB:
        // one run's and the next's can differ by that MiB, so the budgets below leave it either way.
        const long long slack = 2 * 1048576;
        const Measured ran =
            measure_process(ATTNLAB_CLI_PATH, QStringList(train).replaceInStrings("@DIR@", dir.path()) +
                                                  QStringList{"--max-memory", QString::number(estimate + slack)});
        QVERIFY2(ran.code == 0, qPrintable(ran.err));
        qInfo("%s: estimate %.1f MiB, peak %.1f MiB, estimate/peak %.2f", QTest::currentDataTag(), estimate / 1048576.0,
              ran.peak_rss_bytes / 1048576.0, double(estimate) / double(ran.peak_rss_bytes));
        if (estimate > own) // otherwise the child's own peak is hidden under this process's resident size
            QVERIFY2(ran.peak_rss_bytes <= estimate,
                     qPrintable(QString("peak %1 bytes > estimate %2 bytes").arg(ran.peak_rss_bytes).arg(estimate)));
        const Measured refused =
            measure_process(ATTNLAB_CLI_PATH, QStringList(train).replaceInStrings("@DIR@", refusedDir.path()) +
                                                  QStringList{"--max-memory", QString::number(estimate - slack)});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.trimmed().count('\n') == 0 && refused.err.contains("memory budget"),
                 qPrintable(refused.err));
        QVERIFY2(refused.out.isEmpty(), qPrintable(refused.out)); // nothing trained
        QVERIFY(QDir(refusedDir.path()).isEmpty());               // no dump was started
    }
};

QTEST_GUILESS_MAIN(TestCliTrainMemory)
#include "test_cli_train_memory.moc"
