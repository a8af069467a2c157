// GPT-2's byte-level BPE in C++ against OpenAI's encoder algorithm in Python (tests/reference/gpt2_bpe_reference.py,
// tests/data/text/gpt2_bpe_cases.json): the same ids on every text of the corpus and on The Verdict, the book's
// chapter 2 example, each text back from its ids, readable pieces, and texts that are not UTF-8.
#include "common/errors.h"
#include "text/gpt2_pretokenize.h"
#include "text/gpt2_tokenizer.h"
#include "text/gpt2_tokenizer_files.h"
#include "text/tokenizer.h"

#include <QtTest>

#include <set>

using namespace attnlab;

namespace {

const QJsonObject& cases()
{
    static const QJsonObject all = [] {
        QFile file(ATTNLAB_TEST_DATA_DIR "/text/gpt2_bpe_cases.json");
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot open gpt2_bpe_cases.json");
        return QJsonDocument::fromJson(file.readAll()).object();
    }();
    return all;
}

std::vector<std::int64_t> ids_of(const QJsonValue& array)
{
    std::vector<std::int64_t> out;
    for (const auto& v : array.toArray())
        out.push_back(v.toInteger());
    return out;
}

const Gpt2Tokenizer& gpt2()
{
    return shipped_gpt2_tokenizer("");
}

} // namespace

class TestGpt2Tokenizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shipped_files_are_gpt2s();
    void book_example_gives_the_books_ids();
    void end_of_text_not_allowed_is_text();
    void verdict_is_5145_tokens();
    void matches_reference_data();
    void matches_reference();
    void decodes_cut_characters_as_python_data();
    void decodes_cut_characters_as_python();
    void pieces_are_readable();
    void text_not_utf8_is_refused();
    void byte_alphabet_is_openais();
    void pretokenizer_splits_as_gpt2();
    void copies_share_one_vocabulary();
};

void TestGpt2Tokenizer::shipped_files_are_gpt2s()
{
    QCOMPARE(gpt2().vocab_size(), kGpt2VocabSize);
    QCOMPARE(gpt2().vocab_size(), cases()["vocab_size"].toInteger());
    QCOMPARE(gpt2().merge_count(), std::size_t{50000});
    QCOMPARE(gpt2().end_of_text_id(), kGpt2EndOfTextId);
    QCOMPARE(gpt2().piece_bytes(kGpt2EndOfTextId), std::string("<|endoftext|>"));
    QVERIFY(QString::fromStdString(gpt2().files().vocab).endsWith("resources/tokenizers/gpt2/encoder.json"));
}

void TestGpt2Tokenizer::book_example_gives_the_books_ids()
{
    const std::string text = "Hello, do you like tea? <|endoftext|> In the sunlit terraces of someunknownPlace.";
    const std::vector<std::int64_t> book = {15496, 11,   466,   345,  588,  8887, 30,  220,   50256, 554,
                                            262,   4252, 18250, 8812, 2114, 286,  617, 34680, 27271, 13};
    QCOMPARE(gpt2().encode(text, true), book);
    QCOMPARE(gpt2().decode(book), text);
}

void TestGpt2Tokenizer::end_of_text_not_allowed_is_text()
{
    const std::vector<std::int64_t> ids = gpt2().encode("<|endoftext|>", false);
    QCOMPARE(ids, (std::vector<std::int64_t>{27, 91, 437, 1659, 5239, 91, 29}));
    QCOMPARE(gpt2().decode(ids), std::string("<|endoftext|>"));
    QCOMPARE(gpt2().encode("<|endoftext|>", true), (std::vector<std::int64_t>{kGpt2EndOfTextId}));
}

void TestGpt2Tokenizer::verdict_is_5145_tokens()
{
    const std::vector<std::int64_t> ids = gpt2().encode(verdict_story(), false);
    QCOMPARE(ids.size(), std::size_t{5145});
    QCOMPARE(ids, ids_of(cases()["verdict_ids"]));
    QCOMPARE(gpt2().decode(ids), std::string(verdict_story()));
}

void TestGpt2Tokenizer::matches_reference_data()
{
    QTest::addColumn<QJsonObject>("c");
    const QJsonArray all = cases()["cases"].toArray();
    QVERIFY(all.size() > 300);
    for (const auto& v : all)
        QTest::newRow(qPrintable(v.toObject()["name"].toString())) << v.toObject();
}

void TestGpt2Tokenizer::matches_reference()
{
    QFETCH(QJsonObject, c);
    const std::string text = c["text"].toString().toStdString();
    const std::vector<std::int64_t> ids = gpt2().encode(text, c["allow_special"].toBool());
    QCOMPARE(ids, ids_of(c["ids"]));
    QCOMPARE(gpt2().decode(ids), text);
    QCOMPARE(gpt2().decode_text(ids), text);
}

void TestGpt2Tokenizer::decodes_cut_characters_as_python_data()
{
    QTest::addColumn<QJsonObject>("c");
    for (const auto& v : cases()["decodes"].toArray())
        QTest::newRow(qPrintable(v.toObject()["name"].toString())) << v.toObject();
}

void TestGpt2Tokenizer::decodes_cut_characters_as_python()
{
    QFETCH(QJsonObject, c);
    QCOMPARE(QString::fromStdString(gpt2().decode_text(ids_of(c["ids"]))), c["text"].toString());
}

void TestGpt2Tokenizer::pieces_are_readable()
{
    QCOMPARE(gpt2().piece_symbols(262), std::string("Ġthe"));
    QCOMPARE(gpt2().piece_text(262), std::string("␣the"));
    QCOMPARE(gpt2().piece_text(*gpt2().id_of("\n")), std::string("↵"));
    QCOMPARE(gpt2().piece_text(*gpt2().id_of("\n\n")), std::string("↵↵"));
    QCOMPARE(gpt2().piece_text(*gpt2().id_of("\t")), std::string("⇥"));
    QCOMPARE(readable_piece("   "), std::string("␣␣␣"));
    QCOMPARE(gpt2().piece_text(*gpt2().id_of(" é")), std::string("␣é"));
    // 🍵 is four bytes no single token holds: its pieces are bytes, shown as such.
    const std::vector<std::int64_t> tea = gpt2().encode("🍵", false);
    QVERIFY(tea.size() > 1);
    std::string shown;
    for (std::int64_t id : tea)
        shown += gpt2().piece_text(id);
    QCOMPARE(shown, std::string("\\xf0\\x9f\\x8d\\xb5"));
    QCOMPARE(readable_piece(std::string("a\0b\x7f", 4)), std::string("a\\x00b\\x7f"));
    QVERIFY(testing::error_of([] { gpt2().piece_bytes(kGpt2VocabSize); }).contains("ids are 0 to 50256"));
    QVERIFY(testing::error_of([] { gpt2().decode({-1}); }).contains("token id -1 is outside the vocabulary"));
}

void TestGpt2Tokenizer::text_not_utf8_is_refused()
{
    const QString message = testing::error_of([] { gpt2().encode("tea\xff", false); });
    QCOMPARE(message, QString("the text is not UTF-8 text: byte 0xFF at position 3 does not begin a whole UTF-8 "
                              "character; give the text as UTF-8."));
    QVERIFY(!testing::error_of([] { gpt2().encode("a <|endoftext|> \xc3(", true); }).isEmpty());
}

void TestGpt2Tokenizer::byte_alphabet_is_openais()
{
    const auto& map = gpt2_byte_to_unicode();
    QCOMPARE(map[' '], char32_t(0x120));  // Ġ
    QCOMPARE(map['\n'], char32_t(0x10A)); // Ċ
    QCOMPARE(map['!'], char32_t('!'));
    QCOMPARE(map[0xAD], char32_t(0x143)); // the soft hyphen is the last byte moved
    QCOMPARE(map[0xFF], char32_t(0xFF));
    std::set<char32_t> distinct(map.begin(), map.end());
    QCOMPARE(distinct.size(), std::size_t{256});
}

void TestGpt2Tokenizer::pretokenizer_splits_as_gpt2()
{
    const auto pieces = gpt2_pretokenize("I'm here  now's 'S 123abc \u180e\n\n");
    const std::vector<std::string_view> expected = {"I",  "'m", " here", " ",   " now",    "'s",
                                                    " '", "S",  " 123",  "abc", " \u180e", "\n\n"};
    QCOMPARE(pieces, expected);
}

void TestGpt2Tokenizer::copies_share_one_vocabulary()
{
    const Gpt2Tokenizer copy = gpt2();
    QCOMPARE(&copy.piece_bytes(0), &gpt2().piece_bytes(0));
    QCOMPARE(copy.encode(" the the the", false), (std::vector<std::int64_t>{262, 262, 262}));
}

QTEST_GUILESS_MAIN(TestGpt2Tokenizer)
#include "test_gpt2_tokenizer.moc"
