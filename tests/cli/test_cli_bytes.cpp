// Arguments that are not UTF-8 text, given to the CLI as raw bytes (a file name is any bytes but '/'
// and NUL; a shell passes what it is given), and `<command> --help` for every command. A text that
// must be UTF-8 is refused in one sentence; a path is printed, in JSON too, with U+FFFD standing for
// the bytes it cannot show, and the command does its work. None of it may end in an abort.
#include "common/process_measure.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

namespace {

const std::string kCli = ATTNLAB_CLI_PATH;
const std::string kSmall = "MultiHeadAttention(3, 2, 6, 0.0, 2)";

} // namespace

class TestCliBytes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void textNotUtf8_data();
    void textNotUtf8();
    void pathNotUtf8_data();
    void pathNotUtf8();
    void helpForEveryCommand_data();
    void helpForEveryCommand();
    void longArgumentsAreNotEchoedWhole();
    // QTemporaryDir cannot remove names a QString cannot hold: std::filesystem can.
    void cleanupTestCase() { std::filesystem::remove_all(QFile::encodeName(tmp_.path()).toStdString()); }

private:
    QTemporaryDir tmp_;
};

void TestCliBytes::textNotUtf8_data()
{
    QTest::addColumn<QByteArray>("command");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("json");
    QTest::newRow("tokenize-ff-json") << QByteArray("tokenize") << QByteArray("I HAD \xff") << true;
    QTest::newRow("tokenize-ff-plain") << QByteArray("tokenize") << QByteArray("I HAD \xff") << false;
    QTest::newRow("tokenize-latin1") << QByteArray("tokenize") << QByteArray("\xe9t\xe9") << true;
    QTest::newRow("tokenize-cut-short") << QByteArray("tokenize") << QByteArray("caf\xc3") << true;
    QTest::newRow("tokenize-surrogate") << QByteArray("tokenize") << QByteArray("a\xed\xa0\x80z") << true;
    QTest::newRow("tokenize-overlong") << QByteArray("tokenize") << QByteArray("\xc0\xaf") << false;
    QTest::newRow("run-model-latin1-json") << QByteArray("run") << QByteArray("\xe9t\xe9") << true;
    QTest::newRow("run-model-latin1-plain") << QByteArray("run") << QByteArray("\xe9t\xe9") << false;
}

void TestCliBytes::textNotUtf8()
{
    QFETCH(QByteArray, command);
    QFETCH(QByteArray, text);
    QFETCH(bool, json);
    const std::string dump = tmp_.filePath(QStringLiteral("text.safetensors")).toStdString();
    std::vector<std::string> argv{kCli, command.toStdString(), "--text", text.toStdString()};
    if (command == "run")
        argv.insert(argv.end(), {"--model", "h4", "--dump", dump});
    if (json)
        argv.push_back("--json");
    const Measured m = measure_process_bytes(argv);
    QVERIFY2(m.signal == 0, qPrintable(QStringLiteral("killed by signal %1: %2").arg(m.signal).arg(m.err)));
    QCOMPARE(m.code, 1);
    QVERIFY2(m.err.contains(QLatin1String("is not UTF-8 text")), qPrintable(m.err));
    QCOMPARE(m.err.count(QLatin1Char('\n')), 1);
    QVERIFY(m.out.isEmpty());
    QVERIFY(!QFileInfo::exists(QString::fromStdString(dump)));
}

void TestCliBytes::pathNotUtf8_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::newRow("byte-ff") << QByteArray("w\xff.safetensors");
    QTest::newRow("latin1-e9") << QByteArray("caf\xe9.safetensors");
    QTest::newRow("lone-continuation") << QByteArray("\x80\x80.safetensors");
}

void TestCliBytes::pathNotUtf8()
{
    QFETCH(QByteArray, name);
    const std::string path = QFile::encodeName(tmp_.path()).toStdString() + "/" + name.toStdString();
    // run --dump to the path, then inspect it: both print the path in their JSON.
    const Measured run = measure_process_bytes({kCli, "run", "--call", kSmall, "--dump", path, "--json"});
    QVERIFY2(run.signal == 0 && run.code == 0, qPrintable(run.err));
    QJsonParseError error{};
    const QJsonObject wrote = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(run.out));
    QVERIFY(wrote["dump"].toString().contains(QChar(0xFFFD)));
    QCOMPARE(wrote["stages"].toInt(), 17);
    QVERIFY(::access(path.c_str(), R_OK) == 0);

    const Measured inspect = measure_process_bytes({kCli, "inspect", path, "--json"});
    QVERIFY2(inspect.signal == 0, qPrintable(inspect.err));
    // A dump is not a module's weights: refused in one sentence, not aborted while printing.
    QCOMPARE(inspect.code, 1);
    QCOMPARE(inspect.err.count(QLatin1Char('\n')), 1);

    const std::string weights = QFile::encodeName(tmp_.path()).toStdString() + "/weights-" + name.toStdString();
    std::error_code ec; // std::filesystem: QFile's names are QStrings, which cannot hold these bytes
    std::filesystem::copy_file(ATTNLAB_TEST_DATA_DIR "/../robustness/files/mha_3_2_torch.safetensors", weights, ec);
    QVERIFY2(!ec, ec.message().c_str());
    std::filesystem::permissions(weights, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    const Measured good = measure_process_bytes({kCli, "inspect", weights, "--json"});
    QVERIFY2(good.signal == 0 && good.code == 0, qPrintable(good.err));
    const QJsonObject info = QJsonDocument::fromJson(good.out.toUtf8(), &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(good.out));
    QVERIFY(info["file"].toString().contains(QChar(0xFFFD)));
}

void TestCliBytes::helpForEveryCommand_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("flag");
    const Measured all = measure_process(QString::fromStdString(kCli), {"--help"});
    QCOMPARE(all.code, 0);
    int commands = 0;
    QStringList seen;
    for (const QString& line : all.out.split(QLatin1Char('\n'))) {
        // "  name --option ..." opens a command's synopsis; its description lines are indented further.
        if (!line.startsWith(QLatin1String("  ")) || line.startsWith(QLatin1String("   ")))
            continue;
        const QString name = line.trimmed().section(QLatin1Char(' '), 0, 0);
        if (seen.contains(name)) // a command with two synopsis lines
            continue;
        seen << name;
        QTest::newRow(qPrintable(name + "--help")) << name << QStringLiteral("--help");
        QTest::newRow(qPrintable(name + "-h")) << name << QStringLiteral("-h");
        ++commands;
    }
    QVERIFY(commands >= 13);
}

void TestCliBytes::helpForEveryCommand()
{
    QFETCH(QString, command);
    QFETCH(QString, flag);
    // The flag after other options too: asking for help never runs the command.
    const Measured m = measure_process(QString::fromStdString(kCli), {command, "--json", flag});
    QCOMPARE(m.code, 0);
    QVERIFY(m.err.isEmpty());
    QVERIFY2(m.out.startsWith(QLatin1String("Usage:\n  ") + command + QLatin1Char(' ')), qPrintable(m.out));
    QVERIFY(m.out.contains(QLatin1String("Exit status")));
}

void TestCliBytes::longArgumentsAreNotEchoedWhole()
{
    const std::string huge(100000, 'x');
    for (const std::vector<std::string>& argv : {
             std::vector<std::string>{kCli, "validate", "--call", kSmall, "--" + huge, "1"},
             std::vector<std::string>{kCli, "trace", "--call", kSmall, "--tokens", huge},
             std::vector<std::string>{kCli, "run", "--call", kSmall, "--max-memory", huge, "--dump", "x"},
             std::vector<std::string>{kCli, huge},
             std::vector<std::string>{kCli, "validate", huge},
         }) {
        const Measured m = measure_process_bytes(argv);
        QVERIFY2(m.code == 1 || m.code == 2, qPrintable(m.err.left(300)));
        QVERIFY2(m.err.size() < 400, qPrintable(m.err.left(300)));
        QVERIFY2(m.err.contains(QLatin1String("more characters")), qPrintable(m.err.left(300)));
    }
}

QTEST_GUILESS_MAIN(TestCliBytes)
#include "test_cli_bytes.moc"
