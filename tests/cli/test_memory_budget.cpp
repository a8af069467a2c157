// The memory budget is an upper bound on the whole process: each command given exactly the bytes it says
// it needs finishes with its peak resident memory within them, and one byte less is refused in one
// sentence before anything big is allocated. The cases are the shapes that once ran past their estimate
// (a wrapper with very many heads, an out_proj far larger than everything else, a GPT-2 sized dump, a
// diagnosis running two passes), scaled down to a few hundred MB.
#include "common/cli_runner.h"
#include "common/process_measure.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <utility>

#include "common/sanitized.h"

namespace {

const char* kGpt2 = "MultiHeadAttention(768, 768, 1024, 0.0, 12)";

// A child's ru_maxrss starts from this process's resident size when it is spawned (the kernel takes the
// spawning address space's high-water mark at exec), so a peak is only the child's own above that.
long long own_resident_bytes()
{
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    const auto match = QRegularExpression(R"(VmRSS:\s*(\d+) kB)").match(QString::fromLatin1(status.readAll()));
    return match.hasMatch() ? match.captured(1).toLongLong() * 1024 : 0;
}

// Lowers this process's high-water mark to what it holds now, so earlier children's output left behind
// does not count for the next one (best effort: older kernels refuse).
void reset_own_peak()
{
    QFile clear("/proc/self/clear_refs");
    if (clear.open(QIODevice::WriteOnly))
        clear.write("5");
}

// The CLI's run, and what this process held when it started it.
std::pair<Measured, long long> measure_cli(const QStringList& args)
{
    reset_own_peak();
    const long long own = own_resident_bytes();
    return {measure_process(ATTNLAB_CLI_PATH, args), own};
}

// The bytes the command says it needs: the exact count its refusal of a one-byte budget states.
long long estimate_of(const QStringList& args)
{
    const Measured m = measure_process(ATTNLAB_CLI_PATH, args + QStringList{"--max-memory", "1"});
    const auto match = QRegularExpression(R"(\((\d+) bytes)").match(m.err);
    return m.code == 1 && match.hasMatch() ? match.captured(1).toLongLong() : -1;
}

} // namespace

class TestMemoryBudget : public QObject {
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
        QTest::newRow("wrapper-many-heads-trace")
            << QStringList{"trace", "--call", "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 20000)"};
        QTest::newRow("wrapper-many-heads-trace-json")
            << QStringList{"trace", "--call", "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 5000)", "--json"};
        QTest::newRow("wide-out-proj-trace")
            << QStringList{"trace", "--call", "MultiHeadAttention(1, 4000, 6, 0.0, 4000)"};
        QTest::newRow("gpt2-run-dump") << QStringList{
            "run", "--call", kGpt2, "--batch", "2", "--tokens", "384", "--dump", "@DIR@/gpt2.safetensors"};
        QTest::newRow("wrapper-heads-run-dump") << QStringList{
            "run", "--call", "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 5000)", "--dump", "@DIR@/w.safetensors"};
        QTest::newRow("gpt2-diagnose-two-passes")
            << QStringList{"diagnose", "--call", kGpt2, "--bug", "mask-diagonal-0", "--batch", "2", "--tokens", "384"};
        QTest::newRow("causal-dropout-train") << QStringList{
            "trace", "--call", "CausalAttention(768, 64, 1024, 0.3)", "--batch", "2", "--tokens", "1024", "--train"};
        QTest::newRow("book-gpt2-default-run")
            << QStringList{"run", "--call", kGpt2, "--batch", "2", "--tokens", "6", "--dump", "@DIR@/book.safetensors"};
    }

    void peak_stays_within_the_estimate()
    {
        QFETCH(QStringList, args);
        QTemporaryDir dir, refusedDir;
        const long long estimate = estimate_of(QStringList(args).replaceInStrings("@DIR@", dir.path()));
        QVERIFY2(estimate > 0, "the refusal of a one-byte budget states the bytes the request needs");
        {
            const auto [ran, own] = measure_cli(QStringList(args).replaceInStrings("@DIR@", dir.path()) +
                                                QStringList{"--max-memory", QString::number(estimate)});
            QVERIFY2(ran.code == 0, qPrintable(ran.err));
            qInfo("%s: estimate %.1f MiB, peak %.1f MiB, estimate/peak %.2f", QTest::currentDataTag(),
                  estimate / 1048576.0, ran.peak_rss_bytes / 1048576.0, double(estimate) / double(ran.peak_rss_bytes));
            if (estimate > own) // otherwise the child's own peak is hidden under this process's resident size
                QVERIFY2(
                    ran.peak_rss_bytes <= estimate,
                    qPrintable(QString("peak %1 bytes > estimate %2 bytes").arg(ran.peak_rss_bytes).arg(estimate)));
        }
        const auto [refused, own] = measure_cli(QStringList(args).replaceInStrings("@DIR@", refusedDir.path()) +
                                                QStringList{"--max-memory", QString::number(estimate - 1)});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.trimmed().count('\n') == 0 && refused.err.contains("memory budget"),
                 qPrintable(refused.err));
        QVERIFY2(refused.peak_rss_bytes < std::max(own, 32ll << 20), "refused before anything big is allocated");
        QVERIFY(QDir(refusedDir.path()).isEmpty()); // no dump was started
    }

    void the_books_run_fits_the_default_budget()
    {
        const QStringList args = {"run", "--call", kGpt2, "--batch", "2", "--tokens", "6", "--dump", "/dev/null/never"};
        const long long estimate = estimate_of(args);
        QVERIFY(estimate > 0 && estimate < 64ll << 20); // tens of MiB, far below the 2 GiB default
    }

    void a_budget_below_the_program_itself_says_so()
    {
        const Measured m = measure_process(
            ATTNLAB_CLI_PATH, {"trace", "--call", "MultiHeadAttention(3, 2, 6, 0.0, 2)", "--max-memory", "1K"});
        QCOMPARE(m.code, 1);
        QVERIFY2(m.err.contains("the program itself takes") && m.err.trimmed().count('\n') == 0, qPrintable(m.err));
    }

    // A budget just under the need is said in digits that differ from the need's ("needs about 3.91 GiB ... more
    // than the 3.91 GiB memory budget" said nothing): a thousand bytes under, and a hundred thousand.
    void need_and_budget_differ_in_words_data()
    {
        QTest::addColumn<long long>("under");
        QTest::newRow("1000-bytes-under") << 1000ll;
        QTest::newRow("100000-bytes-under") << 100000ll;
    }
    void need_and_budget_differ_in_words()
    {
        QFETCH(long long, under);
        const QStringList args = {"run",      "--call", kGpt2,    "--batch",        "15",
                                  "--tokens", "1024",   "--dump", "/dev/null/never"};
        const long long need = estimate_of(args);
        QVERIFY(need > under);
        const Measured m =
            measure_process(ATTNLAB_CLI_PATH, args + QStringList{"--max-memory", QString::number(need - under)});
        QCOMPARE(m.code, 1);
        const auto said =
            QRegularExpression(R"(needs about (\S+ \S+) \(.*more than the (\S+ \S+) memory budget)").match(m.err);
        QVERIFY2(said.hasMatch(), qPrintable(m.err));
        QVERIFY2(said.captured(1) != said.captured(2), qPrintable(m.err));
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "test_memory_budget.moc"
