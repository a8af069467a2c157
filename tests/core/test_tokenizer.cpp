// The book's chapter 2 simple tokenizer in C++ against the Python one the models were trained with
// (tests/reference/make_tokenizer_cases.py): same tokens, same ids, same vocabulary of 1,132.
#include "common/errors.h"
#include "text/tokenizer.h"

#include <QtTest>

using namespace attnlab;

namespace {

QJsonObject cases()
{
    QFile file(ATTNLAB_TEST_DATA_DIR "/text/tokenizer_cases.json");
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open tokenizer_cases.json");
    return QJsonDocument::fromJson(file.readAll()).object();
}

std::vector<std::int64_t> ids_of(const QJsonArray& array)
{
    std::vector<std::int64_t> out;
    for (const auto& v : array)
        out.push_back(v.toInteger());
    return out;
}

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void vocabulary_has_1132_ids();
    void story_ids_match_python();
    void matches_python_data();
    void matches_python();
    void unknown_tokens_are_marked();
    void first_sentence_is_the_default_text();
    void token_out_of_range_is_refused();
};

void TestTokenizer::vocabulary_has_1132_ids()
{
    const QJsonObject c = cases();
    const SimpleTokenizer& t = verdict_tokenizer();
    QCOMPARE(t.vocab_size(), 1132);
    QCOMPARE(t.vocab_size(), c["vocab_size"].toInteger());
    QCOMPARE(t.token(1130), std::string(kEndOfText));
    QCOMPARE(t.token(1131), std::string(kUnknownToken));
    const QJsonArray head = c["vocab_head"].toArray();
    for (int i = 0; i < head.size(); ++i)
        QCOMPARE(QString::fromStdString(t.token(i)), head[i].toString());
    QCOMPARE(verdict_story().size(), std::size_t{20479});
}

void TestTokenizer::story_ids_match_python()
{
    const std::vector<std::int64_t> expected = ids_of(cases()["story_ids"].toArray());
    QCOMPARE(expected.size(), std::size_t{4690});
    QCOMPARE(verdict_tokenizer().encode(verdict_story()), expected);
}

void TestTokenizer::matches_python_data()
{
    QTest::addColumn<QJsonObject>("c");
    for (const auto& v : cases()["cases"].toArray())
        QTest::newRow(qPrintable(v.toObject()["name"].toString())) << v.toObject();
}

void TestTokenizer::matches_python()
{
    QFETCH(QJsonObject, c);
    const std::string text = c["text"].toString().toStdString();
    const TokenizedText got = verdict_tokenizer().tokenize(text);
    QStringList tokens;
    for (const auto& token : got.tokens)
        tokens << QString::fromStdString(token);
    QCOMPARE(tokens, c["tokens"].toVariant().toStringList());
    QCOMPARE(got.ids, ids_of(c["ids"].toArray()));
    QCOMPARE(QString::fromStdString(verdict_tokenizer().decode(got.ids)), c["decoded"].toString());
}

void TestTokenizer::unknown_tokens_are_marked()
{
    const TokenizedText got = verdict_tokenizer().tokenize("Hello, Jack");
    QCOMPARE(got.unknown, (std::vector<bool>{true, false, false}));
    QCOMPARE(got.ids.front(), verdict_tokenizer().unknown_id());
}

void TestTokenizer::first_sentence_is_the_default_text()
{
    const std::string s = verdict_first_sentence();
    QVERIFY(s.rfind("I HAD always thought Jack Gisburn", 0) == 0);
    QCOMPARE(s.back(), '.');
    QCOMPARE(verdict_tokenizer().encode(s).size(), std::size_t{57});
}

void TestTokenizer::token_out_of_range_is_refused()
{
    QVERIFY(testing::error_of([] { verdict_tokenizer().token(1132); }).contains("outside the vocabulary"));
}

QTEST_GUILESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
