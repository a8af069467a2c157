// attention-lab-cli tokenize --tokenizer gpt2|FOLDER: GPT-2's ids for the book's chapter 2 example, each piece
// readable (␣ for a space, ↵ for a newline, \xNN for the bytes of a cut character), the same ids from a folder
// holding the files under Hugging Face's names, and refusals in one sentence.
#include "common/cli_runner.h"

#include <QJsonArray>
#include <QtTest>

namespace {

const QString kBook = "Hello, do you like tea? <|endoftext|> In the sunlit terraces of someunknownPlace.";

QJsonArray book_ids()
{
    QJsonArray ids;
    for (int id : {15496, 11,   466,   345,  588,  8887, 30,  220,   50256, 554,
                   262,   4252, 18250, 8812, 2114, 286,  617, 34680, 27271, 13})
        ids.append(id);
    return ids;
}

QString shipped(const QString& name)
{
    return QStringLiteral(ATTNLAB_TOKENIZERS_DIR "/gpt2/") + name;
}

} // namespace

class TestCliGpt2Tokenize : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void book_example_json();
    void book_example_text();
    void special_as_text();
    void cut_characters_are_bytes();
    void folder_with_hugging_face_names();
    void book_tokenizer_is_the_default();
    void broken_folder_is_refused();
    void refusals_data();
    void refusals();
};

void TestCliGpt2Tokenize::book_example_json()
{
    const Result r = cli({"tokenize", "--tokenizer", "gpt2", "--text", kBook, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject j = r.json();
    QCOMPARE(j["ids"].toArray(), book_ids());
    QCOMPARE(j["num_tokens"].toInt(), 20);
    QCOMPARE(j["vocab_size"].toInt(), 50257);
    QCOMPARE(j["end_of_text"].toString(), QString("special"));
    QVERIFY(j["vocab"].toString().endsWith("tokenizers/gpt2/encoder.json"));
    const QJsonArray tokens = j["tokens"].toArray();
    QCOMPARE(tokens[2].toObject()["piece"].toString(), QString("␣do"));
    QCOMPARE(tokens[2].toObject()["text"].toString(), QString(" do"));
    QCOMPARE(tokens[2].toObject()["bytes"].toString(), QString("20646f"));
    QCOMPARE(tokens[8].toObject()["piece"].toString(), QString("<|endoftext|>"));
    QString joined;
    for (const auto& t : tokens)
        joined += t.toObject()["text"].toString();
    QCOMPARE(joined, kBook);
}

void TestCliGpt2Tokenize::book_example_text()
{
    const Result r = cli({"tokenize", "--tokenizer", "gpt2", "--text", kBook + "\n"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.startsWith("21 tokens; GPT-2's byte-level BPE, vocabulary of 50257 ids from "), qPrintable(r.out));
    QVERIFY2(r.out.contains("(<|endoftext|> as its token 50256)\n"), qPrintable(r.out));
    for (const char* line : {"\n0\t15496\tHello\n", "\n2\t466\t␣do\n", "\n7\t220\t␣\n", "\n8\t50256\t<|endoftext|>\n",
                             "\n17\t34680\tunknown\n", "\n20\t198\t↵\n"})
        QVERIFY2(r.out.contains(QString::fromUtf8(line)), line);
    QVERIFY(!r.out.contains("Ġ"));
}

void TestCliGpt2Tokenize::special_as_text()
{
    const Result r = cli({"tokenize", "--tokenizer", "gpt2", "--text", "<|endoftext|>", "--special-as-text", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.json()["ids"].toArray(), QJsonArray({27, 91, 437, 1659, 5239, 91, 29}));
    QCOMPARE(r.json()["end_of_text"].toString(), QString("text"));
}

void TestCliGpt2Tokenize::cut_characters_are_bytes()
{
    const Result r = cli({"tokenize", "--tokenizer", "gpt2", "--text", "tea 🍵", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.json()["ids"].toArray(), QJsonArray({660, 64, 12520, 235, 113}));
    const QJsonObject cut = r.json()["tokens"].toArray()[2].toObject();
    QCOMPARE(cut["piece"].toString(), QString("␣\\xf0\\x9f"));
    QVERIFY(cut["text"].isNull());
    QCOMPARE(cut["bytes"].toString(), QString("20f09f"));
}

void TestCliGpt2Tokenize::folder_with_hugging_face_names()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(shipped("encoder.json"), dir.filePath("vocab.json")));
    QVERIFY(QFile::copy(shipped("vocab.bpe"), dir.filePath("merges.txt")));
    const Result r = cli({"tokenize", "--tokenizer", dir.path(), "--text", kBook, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(r.json()["ids"].toArray(), book_ids());
    QCOMPARE(r.json()["merges"].toString(), dir.filePath("merges.txt"));
}

void TestCliGpt2Tokenize::book_tokenizer_is_the_default()
{
    const Result plain = cli({"tokenize", "--text", "I HAD always thought", "--json"});
    const Result book = cli({"tokenize", "--tokenizer", "book", "--text", "I HAD always thought", "--json"});
    QCOMPARE(plain.code, 0);
    QCOMPARE(book.out, plain.out);
    QCOMPARE(book.json()["tokenizer"].toString(), QString("book-ch2-simple"));
}

void TestCliGpt2Tokenize::broken_folder_is_refused()
{
    QTemporaryDir dir;
    QFile vocab(dir.filePath("vocab.json"));
    QVERIFY(vocab.open(QIODevice::WriteOnly) && vocab.write("[]") == 2);
    vocab.close();
    QVERIFY(QFile::copy(shipped("vocab.bpe"), dir.filePath("merges.txt")));
    const Result r = cli({"tokenize", "--tokenizer", dir.path(), "--text", "tea"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err, "attention-lab-cli tokenize: " + dir.filePath("vocab.json") +
                        " holds a JSON array, not an object; a GPT-2 vocabulary is a JSON "
                        "object of token → id, ids 0 to N-1 each once.\n");
}

void TestCliGpt2Tokenize::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("no-such-folder") << QStringList{"--tokenizer", "/nonexistent/tok"}
                                    << "/nonexistent/tok does not exist; give gpt2 (GPT-2's own, shipped with the "
                                       "app) or a folder with vocab.json + merges.txt or encoder.json + vocab.bpe.";
    QTest::newRow("special-for-book") << QStringList{"--special-as-text"}
                                      << "--special-as-text is for GPT-2's tokenizer (--tokenizer gpt2 or a folder)";
    QTest::newRow("empty-name") << QStringList{"--tokenizer", ""} << "the tokenizer name is empty";
}

void TestCliGpt2Tokenize::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Result r = cli(QStringList{"tokenize", "--text", "tea"} + args);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
}

QTEST_GUILESS_MAIN(TestCliGpt2Tokenize)
#include "test_cli_gpt2_tokenize.moc"
