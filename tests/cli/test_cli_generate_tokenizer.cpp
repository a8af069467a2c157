// attention-lab-cli generate counts a checkpoint's tokenizer files by their sizes before reading them, as run and
// tokenize do: a vocab.json larger than the machine (sparse, 1 TiB) beside a small checkpoint is refused at once in
// one sentence naming the machine, with no advice of a budget generate does not take.
#include "common/cli_runner.h"

#include <QTemporaryDir>
#include <QtTest>

class TestCliGenerateTokenizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void tokenizer_counted_before_reading();
};

void TestCliGenerateTokenizer::tokenizer_counted_before_reading()
{
    const QString data = QStringLiteral(ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f32/");
    QTemporaryDir dir;
    for (const char* name : {"model.safetensors", "config.json"})
        QVERIFY(QFile::copy(data + name, dir.filePath(name)));
    QFile vocab(dir.filePath("vocab.json"));
    QVERIFY(vocab.open(QIODevice::WriteOnly) && vocab.resize(1ll << 40));
    vocab.close();
    QFile merges(dir.filePath("merges.txt"));
    QVERIFY(merges.open(QIODevice::WriteOnly) && merges.write("#version: 0.2\n") > 0);
    merges.close();
    const Result r = cli({"generate", "--model", dir.path(), "--text", "Hello", "--tokens", "2"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("the tokenizer ") && r.err.contains("this machine has, so nothing was read; give a "
                                                                "smaller tokenizer."),
             qPrintable(r.err));
    QVERIFY2(!r.err.contains("--max-memory"), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
    // The control: the same checkpoint with its own small tokenizer files generates.
    QVERIFY(QFile::remove(dir.filePath("vocab.json")) && QFile::remove(dir.filePath("merges.txt")));
    const Result ok = cli({"generate", "--model", dir.path(), "--text", "Hello", "--tokens", "2", "--json"});
    QVERIFY2(ok.code == 0, qPrintable(ok.err));
}

QTEST_GUILESS_MAIN(TestCliGenerateTokenizer)
#include "test_cli_generate_tokenizer.moc"
