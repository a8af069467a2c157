// What the app writes goes through the one atomic writer: `attention-lab --save-session` and `--screenshot`
// (the real program, offscreen) on a full and a read-only disk (a tmpfs, as root) keep the old file byte
// for byte and exit 1 with one sentence; a device node, FIFO or symbolic link at the path is refused and
// left as it was; a 248-character name works. File > Export and the recorder copy refuse the same way.
#include "common/gui_runner.h"
#include "common/scratch_fs.h"
#include "features/debug/compare_actions.h"
#include "shell/exporters.h"

#include <QtTest>
#include <QWidget>

using namespace attnlab::ui;

using testing::entries;
using testing::readAll;

namespace {

} // namespace

class TestUiAtomicSaves : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(config_.isValid()); }
    void full_filesystem_keeps_old_file_data();
    void full_filesystem_keeps_old_file();
    void read_only_filesystem_keeps_old_file_data() { full_filesystem_keeps_old_file_data(); }
    void read_only_filesystem_keeps_old_file();
    void refuses_what_is_not_a_regular_file_data();
    void refuses_what_is_not_a_regular_file();
    void long_name_is_written_data() { full_filesystem_keeps_old_file_data(); }
    void long_name_is_written();
    void exports_refuse_and_keep_old_files();

private:
    // The book preset, small and quick; `look` changes what is saved, so a new file differs from the old.
    QStringList run(const QString& option, const QString& path, const QString& look = QStringLiteral("stepper"))
    {
        return {"--preset", "book", "--view", look, "--" + option, path};
    }
    QTemporaryDir config_; // the user's settings folder stand-in
};

void TestUiAtomicSaves::full_filesystem_keeps_old_file_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("name");
    QTest::newRow("save-session") << "save-session"
                                  << "s.attnlab.json";
    QTest::newRow("screenshot") << "screenshot"
                                << "picture.png";
}

void TestUiAtomicSaves::full_filesystem_keeps_old_file()
{
    QFETCH(QString, option);
    QFETCH(QString, name);
    testing::ScratchFs fs(1 << 20);
    if (!fs.ok())
        QSKIP(qPrintable(fs.reason()));
    const QString path = fs.filePath(name);
    const testing::GuiRun first = testing::runGui(run(option, path), config_.path());
    QVERIFY2(first.code == 0, qPrintable(first.err));
    const QByteArray old = readAll(path);
    QVERIFY(!old.isEmpty());
    QVERIFY(fs.fill());
    for (const QString& target : {path, fs.filePath("new-" + name)}) {
        const testing::GuiRun r = testing::runGui(run(option, target, "heatmaps"), config_.path());
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("(No space left on device); free some space"), // found before a byte is written
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(target), qPrintable(r.err));
        QCOMPARE(readAll(path), old);
        QCOMPARE(entries(fs.path()), (QStringList{"filler", name}));
    }
}

void TestUiAtomicSaves::read_only_filesystem_keeps_old_file()
{
    QFETCH(QString, option);
    QFETCH(QString, name);
    testing::ScratchFs fs(1 << 20);
    if (!fs.ok())
        QSKIP(qPrintable(fs.reason()));
    const QString path = fs.filePath(name);
    QCOMPARE(testing::runGui(run(option, path), config_.path()).code, 0);
    const QByteArray old = readAll(path);
    QVERIFY(fs.remountReadOnly());
    const testing::GuiRun r = testing::runGui(run(option, path, "heatmaps"), config_.path());
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("failed (Read-only file system)"), qPrintable(r.err));
    QCOMPARE(readAll(path), old);
    QCOMPARE(entries(fs.path()), QStringList{name});
}

void TestUiAtomicSaves::refuses_what_is_not_a_regular_file_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    for (const QString option : {"save-session", "screenshot"}) {
        const QByteArray o = option.toUtf8();
        QTest::newRow(o + "-char-device") << option << "chardev"
                                          << "it is a character device, not a regular file";
        QTest::newRow(o + "-fifo") << option << "fifo"
                                   << "it is a FIFO (named pipe), not a regular file";
        QTest::newRow(o + "-symlink") << option << "symlink"
                                      << "it is a symbolic link, which would be replaced";
        QTest::newRow(o + "-symlink-loop") << option << "loop"
                                           << "it is a symbolic link that loops back on itself";
    }
}

void TestUiAtomicSaves::refuses_what_is_not_a_regular_file()
{
    QFETCH(QString, option);
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString path = dir.filePath("out"), target = dir.filePath("target");
    QVERIFY(QFile(target).open(QIODevice::WriteOnly));
    if (kind == "chardev" && !testing::makeCharDevice(path))
        QSKIP("making a device node needs root");
    if (kind == "fifo")
        QVERIFY(testing::makeFifo(path));
    if (kind == "symlink")
        QVERIFY(testing::makeSymlink(target, path));
    if (kind == "loop")
        QVERIFY(testing::makeSymlink(path + "2", path) && testing::makeSymlink(path, path + "2"));
    const QStringList before = entries(dir.path());
    const mode_t kindBefore = testing::fileKind(path);
    const testing::GuiRun r = testing::runGui(run(option, path), config_.path());
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(" to " + path + ": " + message), qPrintable(r.err));
    QCOMPARE(entries(dir.path()), before);
    QCOMPARE(testing::fileKind(path), kindBefore);
    QCOMPARE(readAll(target), QByteArray());
}

void TestUiAtomicSaves::long_name_is_written()
{
    QFETCH(QString, option);
    QFETCH(QString, name);
    QTemporaryDir dir;
    const QString longName = QString(248 - name.size(), QLatin1Char('l')) + name;
    const testing::GuiRun r = testing::runGui(run(option, dir.filePath(longName)), config_.path());
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(entries(dir.path()), QStringList{longName});
}

void TestUiAtomicSaves::exports_refuse_and_keep_old_files()
{
    QTemporaryDir dir;
    const QString target = dir.filePath("target");
    QVERIFY(QFile(target).open(QIODevice::WriteOnly));
    QWidget widget;
    widget.resize(40, 30);
    using Save = std::function<bool(const QString&, QString*)>;
    const QList<std::pair<QString, Save>> saves{
        {"png", [&](const QString& p, QString* e) { return exportPng(&widget, p, e); }},
        {"svg", [&](const QString& p, QString* e) { return exportSvg(&widget, p, "t", e); }},
        {"csv", [&](const QString& p, QString* e) { return writeTextFile(p, "a,b\n", e); }},
        {"recorder", [&](const QString& p, QString* e) { return saveRecorderCopy(p, e); }},
    };
    for (const auto& [what, save] : saves) {
        const QString link = dir.filePath(what + "-link"), fifo = dir.filePath(what + "-fifo");
        QVERIFY(testing::makeSymlink(target, link) && testing::makeFifo(fifo));
        QString error;
        QVERIFY2(!save(link, &error) && error.contains("it is a symbolic link"), qPrintable(what + ": " + error));
        QVERIFY2(!save(fifo, &error) && error.contains("it is a FIFO"), qPrintable(what + ": " + error));
        QCOMPARE(testing::fileKind(link), mode_t(S_IFLNK));
        QCOMPARE(testing::fileKind(fifo), mode_t(S_IFIFO));
        const QString file = dir.filePath(what + ".out");
        QVERIFY2(save(file, &error), qPrintable(what + ": " + error));
        QVERIFY(!readAll(file).isEmpty());
    }
    QCOMPARE(readAll(target), QByteArray());
    QCOMPARE(entries(dir.path()).size(), 1 + 3 * 4); // the target, and per save a link, a FIFO and a file
}

QTEST_MAIN(TestUiAtomicSaves)
#include "test_ui_atomic_saves.moc"
