// attention-lab-cli tokenize --tokenizer gpt2|FOLDER: GPT-2's ids for the book's chapter 2 example, each piece
// readable (␣ for a space, ↵ for a newline, \xNN for the bytes of a cut character), the same ids from a folder
// holding the files under Hugging Face's names, and refusals in one sentence.
#include "common/cli_runner.h"
#include "common/process_measure.h"
#include "common/sanitized.h"
#include "text/gpt2_pretokenize.h"
#include "text/gpt2_tokenizer_files.h"

#include <QJsonArray>
#include <QTemporaryDir>
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
    void vocabulary_without_end_of_text_data();
    void vocabulary_without_end_of_text();
    void whole_pair_beside_a_stray_file();
    void files_are_counted_against_the_budget();
    void peak_stays_within_the_count_data();
    void peak_stays_within_the_count();
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

// GPT-2's vocabulary less <|endoftext|> (its last id): the text says it is read as text, never "as its token -1".
void TestCliGpt2Tokenize::vocabulary_without_end_of_text_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("special") << QStringList{};
    QTest::newRow("special-as-text") << QStringList{"--special-as-text"};
}

void TestCliGpt2Tokenize::vocabulary_without_end_of_text()
{
    QFETCH(QStringList, options);
    QTemporaryDir dir;
    QFile shippedVocab(shipped("encoder.json")), vocab(dir.filePath("encoder.json"));
    QVERIFY(shippedVocab.open(QIODevice::ReadOnly) && vocab.open(QIODevice::WriteOnly));
    QByteArray text = shippedVocab.readAll();
    QVERIFY(text.endsWith(", \"<|endoftext|>\": 50256}"));
    text.replace(", \"<|endoftext|>\": 50256}", "}");
    vocab.write(text);
    vocab.close();
    QVERIFY(QFile::copy(shipped("vocab.bpe"), dir.filePath("vocab.bpe")));
    const Result r = cli(QStringList{"tokenize", "--tokenizer", dir.path(), "--text", "tea <|endoftext|>"} + options);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("(<|endoftext|> not in this vocabulary, so read as text)"), qPrintable(r.out));
    QVERIFY2(!r.out.contains("-1"), qPrintable(r.out));
    const Result json = cli(QStringList{"tokenize", "--tokenizer", dir.path(), "--text", "tea", "--json"} + options);
    QCOMPARE(json.json()["end_of_text"].toString(), QString("absent"));
}

// A vocab.json left beside OpenAI's encoder.json + vocab.bpe (was refused as half a pair): the whole pair is read,
// and the text names both files it read.
void TestCliGpt2Tokenize::whole_pair_beside_a_stray_file()
{
    QTemporaryDir dir;
    QVERIFY(QFile::copy(shipped("encoder.json"), dir.filePath("encoder.json")));
    QVERIFY(QFile::copy(shipped("vocab.bpe"), dir.filePath("vocab.bpe")));
    QVERIFY(QFile::copy(shipped("encoder.json"), dir.filePath("vocab.json")));
    const Result r = cli({"tokenize", "--tokenizer", dir.path(), "--text", kBook});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(
        r.out.contains("ids from " + dir.filePath("encoder.json") + " with the merges of " + dir.filePath("vocab.bpe")),
        qPrintable(r.out));
}

// The files are counted by their sizes against --max-memory before they are read: a vocab.json of 200 MB (sparse,
// zeros: read, it would be refused as "not valid JSON" after taking its size in memory) is refused by the budget.
void TestCliGpt2Tokenize::files_are_counted_against_the_budget()
{
    QTemporaryDir dir;
    QFile vocab(dir.filePath("vocab.json"));
    QVERIFY(vocab.open(QIODevice::WriteOnly) && vocab.resize(200ll << 20));
    vocab.close();
    QVERIFY(QFile::copy(shipped("vocab.bpe"), dir.filePath("merges.txt")));
    const Result r = cli({"tokenize", "--tokenizer", dir.path(), "--text", "tea", "--max-memory", "100M"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("the tokenizer " + dir.filePath("vocab.json") + " + " + dir.filePath("merges.txt") +
                            " needs about") &&
                 r.err.contains("more than the 100.00 MiB memory budget, so nothing was read"),
             qPrintable(r.err));
    QCOMPARE(r.err.count('\n'), 1);
    // GPT-2's own files fit a budget of tens of MB; the book's tokenizer is built in and takes no --max-memory.
    QCOMPARE(cli({"tokenize", "--tokenizer", "gpt2", "--text", "tea", "--max-memory", "200M"}).code, 0);
    QCOMPARE(cli({"tokenize", "--text", "tea", "--max-memory", "200M"}).code, 1);
}

// What gpt2_tokenizer_bytes counts for the files covers what reading them takes: the peak of tokenize with them over
// the peak with the book's built-in tokenizer. GPT-2's own files, and a vocabulary as dense as one can be (839,172
// tokens of one to three printable characters, `"abc":123456,`, each with its merge; 15 MB, large enough that its
// tables stand well above this process's own memory, which a child's peak cannot read below).
void TestCliGpt2Tokenize::peak_stays_within_the_count_data()
{
    QTest::addColumn<bool>("dense");
    QTest::newRow("gpt2-own-files") << false;
    QTest::newRow("dense-three-letter-tokens") << true;
}

void TestCliGpt2Tokenize::peak_stays_within_the_count()
{
#ifdef ATTNLAB_SANITIZED
    QSKIP("a sanitizer's shadow memory and quarantine are not the program's own");
#endif
    QFETCH(bool, dense);
    QTemporaryDir dir;
    attnlab::Gpt2TokenizerFiles files{shipped("encoder.json").toStdString(), shipped("vocab.bpe").toStdString()};
    if (dense) { // written as it is made: held here, the test's own memory would be the floor of the child's peak
        files = {dir.filePath("vocab.json").toStdString(), dir.filePath("merges.txt").toStdString()};
        QFile v(QString::fromStdString(files.vocab)), m(QString::fromStdString(files.merges));
        QVERIFY(v.open(QIODevice::WriteOnly) && m.open(QIODevice::WriteOnly));
        std::int64_t id = 0;
        const auto add = [&](const std::string& token) {
            std::string quoted;
            for (char c : token)
                quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
            const std::string entry = (id == 0 ? "{\"" : ",\"") + quoted + "\":" + std::to_string(id);
            v.write(QByteArray::fromStdString(entry));
            ++id;
        };
        for (int b = 0; b < 256; ++b)
            add(attnlab::gpt2_byte_symbols(std::string(1, static_cast<char>(b))));
        m.write("#version: 0.2\n");
        for (char a = '!'; a <= '~'; ++a) // the 94 printable characters but space, each its own byte's symbol
            for (char b = '!'; b <= '~'; ++b) {
                add({a, b});
                m.write(QByteArray::fromStdString({a, ' ', b, '\n'}));
            }
        for (char a = '!'; a <= '~'; ++a)
            for (char b = '!'; b <= '~'; ++b)
                for (char c = '!'; c <= '~'; ++c) {
                    add({a, b, c});
                    m.write(QByteArray::fromStdString({a, b, ' ', c, '\n'}));
                }
        v.write("}");
    }
    const QString tokenizer = dense ? dir.path() : QStringLiteral("gpt2");
    const Measured book = measure_process_bytes({ATTNLAB_CLI_PATH, "tokenize", "--text", "tea"});
    const Measured read =
        measure_process_bytes({ATTNLAB_CLI_PATH, "tokenize", "--tokenizer", tokenizer.toStdString(), "--text", "tea"});
    QVERIFY2(book.code == 0 && read.code == 0, qPrintable(read.err));
    const long long counted = static_cast<long long>(attnlab::gpt2_tokenizer_bytes(files));
    qInfo("tables %.1f MiB, counted %.1f MiB", (read.peak_rss_bytes - book.peak_rss_bytes) / 1048576.0,
          counted / 1048576.0);
    QVERIFY2(read.peak_rss_bytes - book.peak_rss_bytes <= counted,
             qPrintable(QString("%1 > %2").arg(read.peak_rss_bytes - book.peak_rss_bytes).arg(counted)));
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
