// The one atomic writer (core/io/atomic_file.h): whole new file or the old one byte for byte, never a
// device, FIFO, socket, folder or link replaced, no temporary file left -- on a real full and a real
// read-only filesystem (a tmpfs, as root), with a 248-character name, and when a signal cuts it short.
#include "common/errors.h"
#include "common/scratch_fs.h"
#include "io/atomic_file.h"

#include <QtTest>

#include <csignal>
#include <sys/wait.h>

using namespace attnlab;
using testing::error_of;

using testing::entries;
using testing::readAll;

namespace {

std::string local(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writes_and_replaces_keeping_permissions();
    void abandoned_write_leaves_old_file();
    void refuses_what_is_not_a_regular_file_data();
    void refuses_what_is_not_a_regular_file();
    void long_names_fit();
    void full_filesystem_keeps_old_file();
    void read_only_filesystem_keeps_old_file();
    void signal_removes_temp_file_and_still_kills_data();
    void signal_removes_temp_file_and_still_kills();
};

void TestAtomicFile::writes_and_replaces_keeping_permissions()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("a.txt");
    write_file_atomically(local(path), "first");
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
    write_file_atomically(local(path), std::string(300000, 'x')); // more than the writer's buffer
    QCOMPARE(readAll(path), QByteArray(300000, 'x'));
    QCOMPARE(QFile::permissions(path), QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser);
    QCOMPARE(entries(dir.path()), QStringList{"a.txt"});
}

void TestAtomicFile::abandoned_write_leaves_old_file()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("a.txt");
    write_file_atomically(local(path), "old");
    {
        AtomicFile file(local(path));
        file.write(std::string(200000, 'n'));
        QVERIFY(QFileInfo::exists(QString::fromStdString(file.temp_path())));
    } // an exception between the writes unwinds like this
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(entries(dir.path()), QStringList{"a.txt"});
}

void TestAtomicFile::refuses_what_is_not_a_regular_file_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("char-device") << "chardev"
                                 << "it is a character device, not a regular file";
    QTest::newRow("fifo") << "fifo"
                          << "it is a FIFO (named pipe), not a regular file";
    QTest::newRow("socket") << "socket"
                            << "it is a socket, not a regular file";
    QTest::newRow("directory") << "dir"
                               << "a directory of that name is in the way";
    QTest::newRow("symlink") << "symlink"
                             << "it is a symbolic link, which would be replaced";
    QTest::newRow("dangling-symlink") << "dangling"
                                      << "it is a symbolic link, which would be replaced";
    QTest::newRow("symlink-loop") << "loop"
                                  << "symbolic link that loops back on itself";
    QTest::newRow("folder-loop") << "folder-loop"
                                 << "goes round a loop of symbolic links";
}

void TestAtomicFile::refuses_what_is_not_a_regular_file()
{
    QFETCH(QString, kind);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString target = dir.filePath("target.txt");
    QString path = dir.filePath("out");
    int socket = -1;
    QVERIFY(QFile(target).open(QIODevice::WriteOnly));
    if (kind == "chardev" && !testing::makeCharDevice(path))
        QSKIP("making a device node needs root");
    if (kind == "fifo")
        QVERIFY(testing::makeFifo(path));
    if (kind == "socket")
        QVERIFY((socket = testing::makeSocket(path)) >= 0);
    if (kind == "dir")
        QVERIFY(QDir(dir.path()).mkdir("out"));
    if (kind == "symlink")
        QVERIFY(testing::makeSymlink(target, path));
    if (kind == "dangling")
        QVERIFY(testing::makeSymlink(dir.filePath("nowhere"), path));
    if (kind == "loop")
        QVERIFY(testing::makeSymlink(dir.filePath("out2"), path) && testing::makeSymlink(path, dir.filePath("out2")));
    if (kind == "folder-loop") {
        QVERIFY(testing::makeSymlink(path, path));
        path += "/x.txt";
    }
    const QStringList before = entries(dir.path());
    const mode_t kindBefore = testing::fileKind(path);
    const QString error = error_of([&] { write_file_atomically(local(path), "new"); });
    if (socket >= 0)
        ::close(socket);
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.startsWith("cannot write '" + path + "': "), qPrintable(error));
    QCOMPARE(entries(dir.path()), before);
    QCOMPARE(testing::fileKind(path), kindBefore);
    QCOMPARE(readAll(target), QByteArray()); // a link's target is not written through either
}

void TestAtomicFile::long_names_fit()
{
    // 248 characters is a valid name; the usual temporary name (name + ".tmp-...") would pass 255.
    QTemporaryDir dir;
    for (const int length : {248, 255}) {
        const QString path = dir.filePath(QString(length - 12, QLatin1Char('n')) + ".safetensors");
        write_file_atomically(local(path), "bytes");
        write_file_atomically(local(path), "again");
        QCOMPARE(readAll(path), QByteArray("again"));
        QVERIFY(QFile::remove(path));
    }
    QCOMPARE(entries(dir.path()), QStringList{});
}

void TestAtomicFile::full_filesystem_keeps_old_file()
{
    testing::ScratchFs fs;
    if (!fs.ok())
        QSKIP(qPrintable(fs.reason()));
    const QString path = fs.filePath("a.txt");
    const QByteArray old(5000, 'o');
    write_file_atomically(local(path), std::string_view(old.constData(), old.size()));
    const QString gap = fs.filePath("gap");
    write_file_atomically(local(gap), std::string(8192, 'g'));
    QVERIFY(fs.fill());
    // Full to the last block: refused before a byte is written.
    QString error = error_of([&] { write_file_atomically(local(path), std::string(100000, 'n')); });
    QVERIFY2(error.startsWith("cannot write '" + path + "': the disk holding") &&
                 error.contains("has no space left (No space left on device); free some space"),
             qPrintable(error));
    QCOMPARE(readAll(path), old);
    // A little room, less than the data: the write runs out of space part way, and still leaves nothing behind.
    QVERIFY(QFile::remove(gap));
    error = error_of([&] { write_file_atomically(local(path), std::string(100000, 'n')); });
    QVERIFY2(error.startsWith("cannot write '" + path +
                              "': writing the data failed (No space left on device); "
                              "free some space"),
             qPrintable(error));
    QCOMPARE(readAll(path), old);
    QCOMPARE(entries(fs.path()), (QStringList{"a.txt", "filler"}));
}

void TestAtomicFile::read_only_filesystem_keeps_old_file()
{
    testing::ScratchFs fs;
    if (!fs.ok())
        QSKIP(qPrintable(fs.reason()));
    const QString path = fs.filePath("a.txt");
    write_file_atomically(local(path), "old");
    QVERIFY(fs.remountReadOnly());
    const QString error = error_of([&] { write_file_atomically(local(path), "new"); });
    QVERIFY2(error.contains("creating a file in '" + fs.path() + "' failed (Read-only file system)"),
             qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("old"));
    QCOMPARE(entries(fs.path()), QStringList{"a.txt"});
}

void TestAtomicFile::signal_removes_temp_file_and_still_kills_data()
{
    QTest::addColumn<int>("sig");
    QTest::newRow("SIGINT") << SIGINT;
    QTest::newRow("SIGTERM") << SIGTERM;
    QTest::newRow("SIGHUP") << SIGHUP;
}

void TestAtomicFile::signal_removes_temp_file_and_still_kills()
{
    QFETCH(int, sig);
    QTemporaryDir dir;
    const QString path = dir.filePath("a.txt");
    write_file_atomically(local(path), "old");
    int ready[2];
    QVERIFY(::pipe(ready) == 0);
    const pid_t child = ::fork();
    if (child == 0) { // as a program starts: the signal at its default (the test runner catches it)
        std::signal(sig, SIG_DFL);
        AtomicFile file(local(path));
        file.write(std::string(100000, 'n'));
        (void)!::write(ready[1], "r", 1);
        for (;;)
            ::pause();
    }
    char c = 0;
    QCOMPARE(::read(ready[0], &c, 1), ssize_t(1));
    QCOMPARE(entries(dir.path()).size(), 2); // the temporary file is there, being written
    ::kill(child, sig);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    ::close(ready[0]);
    ::close(ready[1]);
    QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == sig, qPrintable(QString::number(status)));
    QCOMPARE(entries(dir.path()), QStringList{"a.txt"});
    QCOMPARE(readAll(path), QByteArray("old"));
}

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
