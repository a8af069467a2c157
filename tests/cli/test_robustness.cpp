// The robustness corpus (tests/robustness/cases.tsv): attention-lab-cli run on every malformed call,
// number and file, each of which must end with the listed exit code (1 refused input, 2 usage) and a
// short message on stderr, never a signal or a hang, and quickly. Files that git cannot hold (a FIFO,
// an unreadable file, a directory, a header nested 200,000 levels deep) are made here at run time.
//
// cases.tsv: one case a line, tab-separated: name, exit code, stderr substring (alternatives split
// by '|'), checks ('-' for none), then the arguments. In arguments and checks, @FILES@ is
// tests/robustness/files, @TMP@ a fresh temporary directory; an argument @CALL_30000@ is a call with
// 30,000 arguments, @LONG_CALL@ a call of 120,000 characters, @ARGV_30000@ 30,000 arguments.
// Checks, comma-separated: keep=PATH (a good dump is written there first and must survive byte for
// byte, with no temporary file left beside it), absent=PATH (no file there afterwards, no temporary
// file beside it), ulimit=BLOCKS (run under `ulimit -f BLOCKS` with SIGXFSZ ignored: the disk "fills").
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Case {
    QString name;
    int code = 0;
    QStringList needles;
    QStringList checks;
    QStringList args;
};

const QString kSmall = QStringLiteral("MultiHeadAttention(3, 2, 6, 0.0, 2)");

QString filesDir()
{
    return QStringLiteral(ATTNLAB_ROBUSTNESS_DIR "/files");
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList leftovers(const QString& path)
{
    const QFileInfo info(path);
    // The writer's temporary names: the target's name with a suffix, or a short hidden one for a long name.
    return QDir(info.absolutePath())
        .entryList({info.fileName() + ".tmp-*", QStringLiteral(".attnlab.tmp-*")}, QDir::AllEntries | QDir::Hidden);
}

} // namespace

class TestRobustness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void corpus_data();
    void corpus();
    void cleanupTestCase();

private:
    QString expand(QString text) const;
    void makeRuntimeFiles();

    QTemporaryDir tmp_;
    QList<Case> cases_;
    qint64 maxMs_ = 0;
    QString slowest_;
    int run_ = 0;
};

QString TestRobustness::expand(QString text) const
{
    return text.replace(QStringLiteral("@FILES@"), filesDir()).replace(QStringLiteral("@TMP@"), tmp_.path());
}

void TestRobustness::makeRuntimeFiles()
{
    const QString t = tmp_.path();
    QVERIFY(QDir(t).mkdir(QStringLiteral("dir.safetensors")));
    QCOMPARE(::mkfifo(QFile::encodeName(t + "/fifo.safetensors").constData(), 0600), 0);
    {
        QFile f(t + "/unreadable.safetensors"); // empty: as root it is readable, and then too short
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    QVERIFY(QFile::setPermissions(t + "/unreadable.safetensors", QFileDevice::Permissions()));
    // A shape nested 200,000 lists deep: a recursive printer of the header would overflow the stack.
    QByteArray header = "{\"t\":{\"dtype\":\"F32\",\"shape\":" + QByteArray(200000, '[') + QByteArray(200000, ']') +
                        ",\"data_offsets\":[0,0]}}";
    QByteArray deep(8, '\0');
    qToLittleEndian<quint64>(header.size(), deep.data());
    QFile f(t + "/deep.safetensors");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(deep + header);
    f.close();
    // A tensor name of 100,000 characters with control bytes, in an entry with a bad dtype.
    QByteArray name(100000, 'n');
    name.replace(10, 6, "\\u0001"); // a control character, escaped as JSON requires
    header = "{\"" + name + "\":{\"dtype\":\"Q8\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    QByteArray longName(8, '\0');
    qToLittleEndian<quint64>(header.size(), longName.data());
    QFile g(t + "/long_name.safetensors");
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write(longName + header + QByteArray(4, '\0'));
}

void TestRobustness::initTestCase()
{
    QVERIFY(tmp_.isValid());
    QVERIFY2(QFileInfo::exists(filesDir() + "/mha_3_2_torch.safetensors"), qPrintable(filesDir()));
    makeRuntimeFiles();
    QFile tsv(QStringLiteral(ATTNLAB_ROBUSTNESS_DIR "/cases.tsv"));
    QVERIFY(tsv.open(QIODevice::ReadOnly | QIODevice::Text));
    int line = 0;
    while (!tsv.atEnd()) {
        ++line;
        const QString text = QString::fromUtf8(tsv.readLine()).remove(QLatin1Char('\n'));
        if (text.trimmed().isEmpty() || text.startsWith(QLatin1Char('#')))
            continue;
        const QStringList cols = text.split(QLatin1Char('\t'));
        QVERIFY2(cols.size() >= 4, qPrintable(QStringLiteral("cases.tsv line %1: too few columns").arg(line)));
        Case c;
        c.name = cols[0];
        bool ok = false;
        c.code = cols[1].toInt(&ok);
        QVERIFY2(ok && (c.code == 1 || c.code == 2), qPrintable(QStringLiteral("cases.tsv line %1").arg(line)));
        c.needles = cols[2].split(QLatin1Char('|'));
        if (cols[3] != QLatin1String("-"))
            for (const QString& check : cols[3].split(QLatin1Char(',')))
                c.checks << expand(check);
        for (int i = 4; i < cols.size(); ++i) {
            const QString& a = cols[i];
            if (a == QLatin1String("@ARGV_30000@")) {
                for (int k = 0; k < 30000; ++k)
                    c.args << QStringLiteral("x");
            } else if (a == QLatin1String("@CALL_30000@")) {
                QString call = QStringLiteral("MultiHeadAttention(");
                for (int k = 0; k < 30000; ++k)
                    call += k ? QStringLiteral(", 1") : QStringLiteral("1");
                c.args << call + ")";
            } else if (a == QLatin1String("@LONG_CALL@")) {
                // Linux passes at most 128 KiB in one argument, so this is as long as a command line allows.
                c.args << QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12") + QString(120000, ' ') + ")";
            } else {
                c.args << expand(a);
            }
        }
        for (const Case& other : cases_)
            QVERIFY2(other.name != c.name, qPrintable("duplicate case name " + c.name));
        cases_ << c;
    }
    QVERIFY(cases_.size() >= 100);
}

void TestRobustness::corpus_data()
{
    QTest::addColumn<int>("index");
    for (int i = 0; i < cases_.size(); ++i)
        QTest::newRow(qPrintable(cases_[i].name)) << i;
}

void TestRobustness::corpus()
{
    QFETCH(int, index);
    const Case& c = cases_[index];
    // Set up: a good dump wherever a case promises to keep one.
    QHash<QString, QByteArray> kept;
    QString ulimit;
    for (const QString& check : c.checks) {
        if (check.startsWith(QLatin1String("keep="))) {
            const QString path = check.mid(5);
            QFile::remove(path);
            QProcess good;
            good.start(ATTNLAB_CLI_PATH, {"run", "--call", kSmall, "--input", "book", "--dump", path});
            QVERIFY(good.waitForFinished(60000));
            QVERIFY2(good.exitCode() == 0, good.readAllStandardError().constData());
            kept[path] = readAll(path);
            QVERIFY(kept[path].size() > 100);
        } else if (check.startsWith(QLatin1String("absent="))) {
            QFile::remove(check.mid(7));
        } else if (check.startsWith(QLatin1String("ulimit="))) {
            ulimit = check.mid(7);
        } else {
            QFAIL(qPrintable("unknown check " + check));
        }
    }

    QProcess p;
    QElapsedTimer timer;
    timer.start();
    if (ulimit.isEmpty()) {
        p.start(ATTNLAB_CLI_PATH, c.args);
    } else { // ignored signals stay ignored across exec, so the write fails with EFBIG instead of SIGXFSZ
        p.start(QStringLiteral("/bin/sh"),
                QStringList{"-c", "trap '' XFSZ; ulimit -f " + ulimit + "; exec \"$0\" \"$@\"", ATTNLAB_CLI_PATH} +
                    c.args);
    }
    QVERIFY2(p.waitForStarted(30000), qPrintable("could not start: " + p.errorString()));
    const bool finished = p.waitForFinished(30000);
    const qint64 ms = timer.elapsed();
    if (!finished) {
        p.kill();
        p.waitForFinished();
        QFAIL(qPrintable(QStringLiteral("no answer within 30 s")));
    }
    ++run_;
    if (ms > maxMs_) {
        maxMs_ = ms;
        slowest_ = c.name;
    }
    const QString err = QString::fromUtf8(p.readAllStandardError());
    const QString context = QStringLiteral("exit %1, %2 ms, stderr:\n%3").arg(p.exitCode()).arg(ms).arg(err.left(2000));
    QVERIFY2(p.exitStatus() == QProcess::NormalExit, qPrintable("killed by a signal; " + context));
    QVERIFY2(p.exitCode() == c.code, qPrintable(QStringLiteral("expected exit %1; ").arg(c.code) + context));
    bool found = false;
    for (const QString& needle : c.needles)
        found = found || err.contains(needle);
    QVERIFY2(found, qPrintable("stderr lacks '" + c.needles.join("' or '") + "'; " + context));
    // One sentence (a call's message adds the call and a caret line; validate says each error on its own line).
    const QStringList lines = err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(!lines.isEmpty() && lines.size() <= 6, qPrintable("expected 1 to 6 lines; " + context));
    QVERIFY2(err.size() < 1500, qPrintable("message too long; " + context));
    QVERIFY2(lines.first().startsWith(QLatin1String("attention-lab-cli")) ||
                 lines.first().startsWith(QLatin1String("Usage")),
             qPrintable(context));
    QVERIFY2(ms < 5000, qPrintable("too slow; " + context));

    for (const QString& check : c.checks) {
        if (check.startsWith(QLatin1String("keep="))) {
            const QString path = check.mid(5);
            QVERIFY2(readAll(path) == kept[path], qPrintable("the old file changed: " + path));
            QVERIFY2(leftovers(path).isEmpty(), qPrintable(leftovers(path).join(' ')));
        } else if (check.startsWith(QLatin1String("absent="))) {
            const QString path = check.mid(7);
            QVERIFY2(!QFileInfo(path).isFile(), qPrintable("a file was left at " + path));
            QVERIFY2(leftovers(path).isEmpty(), qPrintable(leftovers(path).join(' ')));
        }
    }
}

void TestRobustness::cleanupTestCase()
{
    QFile::setPermissions(tmp_.path() + "/unreadable.safetensors", QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    qInfo("robustness corpus: %d cases run; slowest answer %lld ms (%s)", run_, static_cast<long long>(maxMs_),
          qPrintable(slowest_));
}

QTEST_GUILESS_MAIN(TestRobustness)
#include "test_robustness.moc"
