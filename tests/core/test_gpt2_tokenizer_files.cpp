// A GPT-2 tokenizer's files: small vocabularies written here (the 256 byte tokens and a few merges) load and merge
// as OpenAI's bpe() does; broken files are refused with one sentence naming the file and what is wrong; the
// files are found in a folder (Hugging Face's names or OpenAI's), beside a checkpoint, and shipped.
#include "common/errors.h"
#include "text/gpt2_pretokenize.h"
#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_files.h"

#include <QtTest>

#include <fstream>

using namespace attnlab;

namespace {

std::string json_string(const std::string& s)
{
    std::string out = "\"";
    for (char c : s)
        out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    return out + "\"";
}

// The 256 byte tokens (ids 0..255, in byte order) and then `extra` (written as the files write them).
std::string vocab_json(const std::vector<std::string>& extra = {"ab", "aa", "aba", "abc"})
{
    std::vector<std::string> tokens;
    for (int b = 0; b < 256; ++b)
        tokens.push_back(gpt2_byte_symbols(std::string(1, static_cast<char>(b))));
    tokens.insert(tokens.end(), extra.begin(), extra.end());
    std::string out = "{";
    for (std::size_t id = 0; id < tokens.size(); ++id)
        out += (id ? "," : "") + json_string(tokens[id]) + ":" + std::to_string(id);
    return out + "}";
}

const std::string kMerges = "#version: 0.2\na b\na a\nab c\n";

std::string write(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::vector<std::int64_t> ids(const Gpt2Tokenizer& t, const std::string& text)
{
    return t.encode(text, false);
}

} // namespace

class TestGpt2TokenizerFiles : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void small_vocabulary_merges_by_rank();
    void a_round_merges_every_occurrence_first();
    void long_runs_merge_quickly();
    void broken_files_are_refused_data();
    void broken_files_are_refused();
    void missing_files_are_refused();
    void files_are_found_in_a_folder();
    void whole_pair_beside_a_stray_file_data();
    void whole_pair_beside_a_stray_file();
    void sizes_are_counted_before_reading();
    void shipped_files_are_found();
};

void TestGpt2TokenizerFiles::small_vocabulary_merges_by_rank()
{
    const Gpt2Tokenizer t = Gpt2Tokenizer::from_text(vocab_json(), kMerges, {"vocab.json", "merges.txt"});
    QCOMPARE(t.vocab_size(), 260);
    QCOMPARE(t.end_of_text_id(), -1);
    const std::int64_t ab = 256, aa = 257, abc = 259; // each byte's id is the byte here
    QCOMPARE(ids(t, "abc"), (std::vector<std::int64_t>{abc}));
    QCOMPARE(ids(t, "aaa"), (std::vector<std::int64_t>{aa, 'a'})); // left to right, no overlap
    QCOMPARE(ids(t, "aaaa"), (std::vector<std::int64_t>{aa, aa}));
    QCOMPARE(ids(t, "aab"), (std::vector<std::int64_t>{'a', ab})); // "a b" ranks before "a a"
    QCOMPARE(t.decode(ids(t, "aab abc")), std::string("aab abc"));
    // Without <|endoftext|> in the vocabulary, allowing it changes nothing.
    QCOMPARE(t.encode("<|endoftext|>", true), t.encode("<|endoftext|>", false));
}

void TestGpt2TokenizerFiles::a_round_merges_every_occurrence_first()
{
    // "ab a" ranks before "a b": OpenAI's bpe() merges every "a b" of "abab" in one round ("ab ab"), and only
    // then looks for "ab a", which is gone; a merge-one-at-a-time heap would make "aba b".
    const Gpt2Tokenizer t =
        Gpt2Tokenizer::from_text(vocab_json(), "#version: 0.2\nab a\na b\n", {"vocab.json", "merges.txt"});
    QCOMPARE(ids(t, "abab"), (std::vector<std::int64_t>{256, 256}));
    QCOMPARE(ids(t, "aba"), (std::vector<std::int64_t>{258}));
}

void TestGpt2TokenizerFiles::long_runs_merge_quickly()
{
    // A run of one letter is one piece; its merges must not cost the square of its length (a second at most
    // even in a debug build; quadratic would take minutes).
    const Gpt2Tokenizer& gpt2 = shipped_gpt2_tokenizer("");
    const std::string run(200000, 'a');
    const std::vector<std::int64_t> got = gpt2.encode(run, false);
    QCOMPARE(gpt2.decode(got), run);
    QVERIFY(got.size() < run.size() / 2);
    // A million letters overflow PCRE2's JIT stack; the interpreter takes over and the run stays one piece.
    QCOMPARE(gpt2_pretokenize(std::string(1000000, 'a')).size(), std::size_t{1});
    QCOMPARE(gpt2_pretokenize(std::string(1000000, '!')).size(), std::size_t{1});
}

void TestGpt2TokenizerFiles::broken_files_are_refused_data()
{
    QTest::addColumn<std::string>("vocab");
    QTest::addColumn<std::string>("merges");
    QTest::addColumn<QString>("message");
    const std::string merges = kMerges;
    QTest::newRow("vocab-cut-short") << std::string("{\"a\": 1,") << merges
                                     << "vocab.json is not valid JSON (it ends before the JSON does)";
    QTest::newRow("vocab-not-json") << std::string("{\"a\": 1,]") << merges
                                    << "vocab.json is not valid JSON (it goes wrong at byte position 8)";
    QTest::newRow("vocab-empty") << std::string() << merges << "vocab.json is not valid JSON";
    QTest::newRow("vocab-array") << std::string("[1, 2]") << merges
                                 << "vocab.json holds a JSON array, not an object; a GPT-2 vocabulary is a JSON "
                                    "object of token → id, ids 0 to N-1 each once.";
    QTest::newRow("id-a-string") << std::string("{\"a\": \"0\"}") << merges
                                 << "vocab.json: token \"a\" has a string for its id, not a whole number";
    QTest::newRow("id-fractional") << std::string("{\"a\": 0.5}") << merges << "has a number for its id";
    QTest::newRow("id-negative") << std::string("{\"a\": -1}") << merges
                                 << "vocab.json: token \"a\" has id -1, outside 0 to 0 for its 1 tokens";
    QTest::newRow("id-too-large") << vocab_json({"ab"}).replace(vocab_json({"ab"}).find(":256"), 4, ":999") << merges
                                  << "token \"ab\" has id 999, outside 0 to 256 for its 257 tokens";
    QTest::newRow("id-twice") << std::string("{\"a\": 0, \"b\": 0}") << merges
                              << "vocab.json: tokens \"a\" and \"b\" both have id 0";
    QTest::newRow("token-empty") << std::string("{\"\": 0}") << merges << "the token with id 0 is empty";
    QTest::newRow("token-with-space") << vocab_json({"a b"}) << merges
                                      << "vocab.json: token \"a b\" (id 256) has U+0020, which is not in GPT-2's "
                                         "byte alphabet";
    QTest::newRow("byte-missing") << std::string("{\"a\": 0}") << merges
                                  << "vocab.json has no token for byte 0x00 (written Ā); a byte-level vocabulary "
                                     "has one for each of the 256 bytes.";
    QTest::newRow("merge-three-tokens") << vocab_json() << std::string("#version: 0.2\na b\na b c\n")
                                        << "merges.txt line 3 is \"a b c\", not two tokens";
    QTest::newRow("merge-one-token") << vocab_json() << std::string("#version: 0.2\nab\n")
                                     << "merges.txt line 2 is \"ab\", not two tokens; each line after \"#version\" "
                                        "is one merge, two tokens separated by one space.";
    QTest::newRow("merge-two-spaces") << vocab_json() << std::string("a  b\n") << "merges.txt line 1 is \"a  b\"";
    QTest::newRow("merge-empty-line") << vocab_json() << std::string("#version: 0.2\na b\n\na a\n")
                                      << "merges.txt line 3 is empty";
    QTest::newRow("merge-unknown-token") << vocab_json() << std::string("#version: 0.2\na b\nab zz\n")
                                         << "merges.txt line 3 merges \"ab\" and \"zz\", but vocab.json has no "
                                            "token \"zz\"; a merge's two tokens and their join are all in the "
                                            "vocabulary.";
    QTest::newRow("merge-join-missing") << vocab_json() << std::string("#version: 0.2\nb c\n")
                                        << "merges.txt line 2 merges \"b\" and \"c\", but vocab.json has no token "
                                           "\"bc\" for their join";
    QTest::newRow("merge-twice") << vocab_json() << std::string("#version: 0.2\na b\na a\na b\n")
                                 << "merges.txt line 4 repeats the merge of line 2";
    QTest::newRow("merge-outside-alphabet")
        << vocab_json() << std::string("#version: 0.2\na \t\n") << "merges.txt line 2: token \"\\x09\" has U+0009";
    QTest::newRow("merges-not-utf8") << vocab_json() << std::string("#version: 0.2\na \xff\n")
                                     << "merges.txt is not UTF-8 text: byte 0xFF at position 16";
}

void TestGpt2TokenizerFiles::broken_files_are_refused()
{
    QFETCH(std::string, vocab);
    QFETCH(std::string, merges);
    QFETCH(QString, message);
    const QString got = testing::error_of([&] {
        Gpt2Tokenizer::from_text(vocab, merges, {"vocab.json", "merges.txt"});
    });
    QVERIFY2(got.contains(message), qPrintable(got));
    QVERIFY2(got.endsWith('.') && !got.contains('\n'), qPrintable(got)); // one sentence
}

void TestGpt2TokenizerFiles::missing_files_are_refused()
{
    QTemporaryDir dir;
    const std::string vocab = write(dir, "vocab.json", vocab_json());
    const std::string merges = write(dir, "merges.txt", kMerges);
    const std::string gone = dir.filePath("nothing.json").toStdString();
    QCOMPARE(testing::error_of([&] {
                 Gpt2Tokenizer::from_files({gone, merges});
             }),
             QString::fromStdString(gone + " does not exist; give the path of a GPT-2 vocabulary (vocab.json or "
                                           "encoder.json)."));
    QVERIFY(testing::error_of([&] {
                Gpt2Tokenizer::from_files({vocab, gone});
            }).startsWith(QString::fromStdString(gone + " does not exist; give the path of GPT-2's merges")));
    QVERIFY(testing::error_of([&] {
                Gpt2Tokenizer::from_files({dir.path().toStdString(), merges});
            }).contains("is a folder, not a GPT-2 vocabulary"));
    // The path a refusal names is the file's own.
    write(dir, "bad.json", "[]");
    QVERIFY(testing::error_of([&] {
                Gpt2Tokenizer::from_files({dir.filePath("bad.json").toStdString(), merges});
            }).startsWith(dir.filePath("bad.json") + " holds a JSON array"));
    QCOMPARE(Gpt2Tokenizer::from_files({vocab, merges}).vocab_size(), 260);
}

void TestGpt2TokenizerFiles::files_are_found_in_a_folder()
{
    QTemporaryDir hf, openai, half, empty;
    write(hf, "vocab.json", vocab_json());
    write(hf, "merges.txt", kMerges);
    write(hf, "model.safetensors", "");
    write(openai, "encoder.json", vocab_json());
    write(openai, "vocab.bpe", kMerges);
    write(half, "vocab.json", vocab_json());
    const auto in_hf = gpt2_tokenizer_files_in(hf.path().toStdString());
    QVERIFY(in_hf);
    QCOMPARE(in_hf->merges, hf.filePath("merges.txt").toStdString());
    QCOMPARE(gpt2_tokenizer_files_in(openai.path().toStdString())->vocab,
             openai.filePath("encoder.json").toStdString());
    QVERIFY(!gpt2_tokenizer_files_in(empty.path().toStdString()));
    QCOMPARE(testing::error_of([&] { gpt2_tokenizer_files_in(half.path().toStdString()); }),
             half.path() + " has vocab.json but no merges.txt beside it; a GPT-2 tokenizer is the two files "
                           "vocab.json + merges.txt or encoder.json + vocab.bpe.");
    // Beside a checkpoint: the checkpoint's folder.
    QCOMPARE(gpt2_tokenizer_beside(hf.filePath("model.safetensors").toStdString())->vocab,
             hf.filePath("vocab.json").toStdString());
    QVERIFY(!gpt2_tokenizer_beside(empty.filePath("model.safetensors").toStdString()));
    // Read with the files beside it, or GPT-2's own when there are none.
    QCOMPARE(gpt2_tokenizer_for(hf.filePath("model.safetensors").toStdString(), "").vocab_size(), 260);
    QCOMPARE(gpt2_tokenizer_for(empty.filePath("model.safetensors").toStdString(), "").vocab_size(), 50257);
    QCOMPARE(resolve_gpt2_tokenizer(openai.path().toStdString(), {}).merges,
             openai.filePath("vocab.bpe").toStdString());
    QCOMPARE(testing::error_of([&] { resolve_gpt2_tokenizer(empty.path().toStdString(), {}); }),
             empty.path() + " holds no tokenizer files; give gpt2 (GPT-2's own, shipped with the app) or a folder "
                            "with vocab.json + merges.txt or encoder.json + vocab.bpe.");
    QVERIFY(testing::error_of([&] {
                resolve_gpt2_tokenizer(empty.filePath("nope").toStdString(), {});
            }).contains("nope does not exist; give gpt2"));
}

// A whole pair is read though a file of the other pair lies beside it (a stray vocab.json beside encoder.json +
// vocab.bpe was refused as half a pair); a half alone is still refused.
void TestGpt2TokenizerFiles::whole_pair_beside_a_stray_file_data()
{
    QTest::addColumn<QString>("vocab");
    QTest::addColumn<QString>("merges");
    QTest::addColumn<QString>("stray");
    QTest::newRow("vocab.json-beside-openai") << "encoder.json"
                                              << "vocab.bpe"
                                              << "vocab.json";
    QTest::newRow("merges.txt-beside-openai") << "encoder.json"
                                              << "vocab.bpe"
                                              << "merges.txt";
    QTest::newRow("encoder.json-beside-hf") << "vocab.json"
                                            << "merges.txt"
                                            << "encoder.json";
    QTest::newRow("vocab.bpe-beside-hf") << "vocab.json"
                                         << "merges.txt"
                                         << "vocab.bpe";
}

void TestGpt2TokenizerFiles::whole_pair_beside_a_stray_file()
{
    QFETCH(QString, vocab);
    QFETCH(QString, merges);
    QFETCH(QString, stray);
    QTemporaryDir dir;
    write(dir, vocab.toStdString(), vocab_json());
    write(dir, merges.toStdString(), kMerges);
    write(dir, stray.toStdString(), "not a tokenizer file");
    const auto files = gpt2_tokenizer_files_in(dir.path().toStdString());
    QVERIFY(files);
    QCOMPARE(QString::fromStdString(files->vocab), dir.filePath(vocab));
    QCOMPARE(QString::fromStdString(files->merges), dir.filePath(merges));
    QCOMPARE(Gpt2Tokenizer::from_files(*files).vocab_size(), 260);
    QVERIFY(QFile::remove(dir.filePath(merges))); // now only halves: refused
    QVERIFY(testing::error_of([&] { gpt2_tokenizer_files_in(dir.path().toStdString()); }).contains("beside it"));
}

// The files are counted from their sizes, in proportion, and refused by a budget before a byte is read: a vocabulary
// that is not JSON is refused by the budget, not by its contents.
void TestGpt2TokenizerFiles::sizes_are_counted_before_reading()
{
    QTemporaryDir small, large;
    const Gpt2TokenizerFiles a{write(small, "vocab.json", vocab_json()), write(small, "merges.txt", kMerges)};
    const std::string big = vocab_json() + std::string(1 << 20, ' ');
    const Gpt2TokenizerFiles b{write(large, "vocab.json", big), write(large, "merges.txt", kMerges)};
    QVERIFY(gpt2_tokenizer_bytes(a) > 0);
    QVERIFY(gpt2_tokenizer_bytes(b) > gpt2_tokenizer_bytes(a) + (1 << 20)); // each byte counts at least once
    QCOMPARE(gpt2_tokenizer_bytes({small.filePath("none.json").toStdString(), a.merges}),
             gpt2_tokenizer_bytes({"", a.merges})); // a missing file is named when read, not counted
    write(large, "vocab.json", std::string(1 << 20, '['));
    const QString refused = testing::error_of([&] { read_gpt2_tokenizer(b, 1 << 20); });
    QVERIFY2(refused.contains("more than the 1.00 MiB memory budget, so nothing was read"), qPrintable(refused));
    QVERIFY2(refused.contains("a larger --max-memory"), qPrintable(refused));
    const QString read = testing::error_of([&] { read_gpt2_tokenizer(b, UINT64_MAX); }); // read: its contents refused
    QVERIFY2(read.startsWith(QString::fromStdString(b.vocab)) && !read.contains("memory budget"), qPrintable(read));
    QCOMPARE(read_gpt2_tokenizer(a, UINT64_MAX).vocab_size(), 260);
}

void TestGpt2TokenizerFiles::shipped_files_are_found()
{
    // Beside an installed program first, then in the source tree.
    const std::vector<std::string> dirs = gpt2_tokenizer_dirs("/opt/lab/bin");
    QCOMPARE(dirs.size(), std::size_t{2});
    QCOMPARE(dirs[0], std::string("/opt/lab/share/attention-lab/tokenizers/gpt2"));
    QVERIFY(QString::fromStdString(dirs[1]).endsWith("resources/tokenizers/gpt2"));
    QVERIFY(QString::fromStdString(resolve_gpt2_tokenizer("gpt2", dirs).vocab).endsWith("gpt2/encoder.json"));
    QCOMPARE(testing::error_of([] { resolve_gpt2_tokenizer("gpt2", {"/nonexistent/a"}); }),
             QString("GPT-2's tokenizer files are not in /nonexistent/a; reinstall the app, or give a folder with "
                     "vocab.json + merges.txt or encoder.json + vocab.bpe."));
}

QTEST_GUILESS_MAIN(TestGpt2TokenizerFiles)
#include "test_gpt2_tokenizer_files.moc"
