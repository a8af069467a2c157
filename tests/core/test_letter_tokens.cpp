// A model trained on a synthetic task reads letters: the tokens train::Task names, read back from what a
// student types, unknown letters named in one sentence, and the text such a model is first shown.
#include "gpt/gpt_text.h"
#include "text/letter_tokens.h"
#include "train/tasks.h"

#include <QtTest>

#include <algorithm>

using namespace attnlab;

Q_DECLARE_METATYPE(std::vector<std::int64_t>)

namespace {

GptModel task_model(const std::string& task, std::int64_t vocab, std::int64_t context)
{
    GptModel m;
    m.name = "task-model";
    m.settings.vocab_size = vocab;
    m.settings.context_length = context;
    m.metadata = {{"format", "attention-lab-gpt"}, {"tokenizer", "letters"}, {"task", task}};
    return m;
}

} // namespace

class TestLetterTokens : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void token_names_data();
    void token_names();
    void reads_text_data();
    void reads_text();
    void unknown_tokens_data();
    void unknown_tokens();
    void text_reads_back_its_ids();
    void tasks_name_tokens_the_same_way();
    void readers_from_metadata();
    void task_model_is_shown_its_task();
};

void TestLetterTokens::token_names_data()
{
    QTest::addColumn<qint64>("id");
    QTest::addColumn<QString>("name");
    QTest::newRow("first") << qint64(0) << "A";
    QTest::newRow("last-single") << qint64(25) << "Z";
    QTest::newRow("second-round-first") << qint64(26) << "A1";
    QTest::newRow("second-round-last") << qint64(51) << "Z1";
    QTest::newRow("third-round") << qint64(53) << "B2";
}

void TestLetterTokens::token_names()
{
    QFETCH(qint64, id);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(letter_token(id)), name);
}

void TestLetterTokens::reads_text_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<std::int64_t>>("ids");
    QTest::newRow("spaced") << "A B C" << std::vector<std::int64_t>{0, 1, 2};
    QTest::newRow("run-together") << "ABCA" << std::vector<std::int64_t>{0, 1, 2, 0};
    QTest::newRow("lower-case") << "a b P" << std::vector<std::int64_t>{0, 1, 15};
    QTest::newRow("digits-bind-to-letter") << "A1B Z1" << std::vector<std::int64_t>{26, 1, 51};
    QTest::newRow("commas-and-newlines") << "A,B\n C\t" << std::vector<std::int64_t>{0, 1, 2};
    QTest::newRow("empty") << "  , " << std::vector<std::int64_t>{};
}

void TestLetterTokens::reads_text()
{
    QFETCH(QString, text);
    QFETCH(std::vector<std::int64_t>, ids);
    const TokenizedText t = letter_tokenize(text.toStdString(), 64);
    QCOMPARE(t.ids, ids);
    QCOMPARE(t.tokens.size(), ids.size());
    for (bool u : t.unknown)
        QVERIFY(!u);
    QVERIFY(unknown_letter_sentence(t, 64).empty());
}

void TestLetterTokens::unknown_tokens_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("position"); // 1-based, as the sentence says it
    QTest::addColumn<QString>("shown");
    QTest::newRow("letter-past-vocab") << "A B Q" << 3 << "'Q'";
    QTest::newRow("digit-alone") << "A 7 B" << 2 << "'7'";
    QTest::newRow("leading-zero") << "A0" << 1 << "'A0'";
    QTest::newRow("punctuation") << "A.B" << 2 << "'.'";
    QTest::newRow("accented-letter-one-token") << "A é B" << 2 << "'é'";
    QTest::newRow("second-round-past-vocab") << "A1" << 1 << "'A1'";
}

void TestLetterTokens::unknown_tokens()
{
    QFETCH(QString, text);
    QFETCH(int, position);
    QFETCH(QString, shown);
    const TokenizedText t = letter_tokenize(text.toStdString(), 16);
    QCOMPARE(t.ids.size(), t.tokens.size());
    QVERIFY(t.unknown.at(static_cast<std::size_t>(position - 1)));
    const QString sentence = QString::fromStdString(unknown_letter_sentence(t, 16));
    QVERIFY2(sentence.startsWith(QStringLiteral("token %1 of the text, %2,").arg(position).arg(shown)),
             qPrintable(sentence));
    QVERIFY2(sentence.contains(QStringLiteral("16 tokens")) && sentence.contains(QStringLiteral("A to P")),
             qPrintable(sentence));
    QCOMPARE(sentence.count('.'), 1 + int(shown == "'.'"));
}

void TestLetterTokens::text_reads_back_its_ids()
{
    std::vector<std::int64_t> ids;
    for (std::int64_t id = 0; id < 120; ++id)
        ids.push_back((id * 37) % 120);
    const TokenizedText t = letter_tokenize(letter_text(ids), 120);
    QCOMPARE(t.ids, ids);
}

void TestLetterTokens::tasks_name_tokens_the_same_way()
{
    const train::Task task("previous-token", 60, 8, 1);
    for (std::int64_t id = 0; id < 60; ++id)
        QCOMPARE(task.token_name(id), letter_token(id));
}

void TestLetterTokens::readers_from_metadata()
{
    GptModel m = task_model("induction", 16, 32);
    QCOMPARE(text_reader(m), TextReader::Letters);
    m.metadata["tokenizer"] = "book-ch2-simple";
    QCOMPARE(text_reader(m), TextReader::BookWords);
    // The story's sentence, cut to the 32 tokens this model reads (test_gpt_model's example_text_fits_the_context).
    QVERIFY(verdict_first_sentence().starts_with(example_text(m)));
    const std::size_t tokens = verdict_tokenizer().tokenize(example_text(m)).ids.size();
    QVERIFY(tokens <= 32 && tokens > 24);
    m.metadata.erase("tokenizer"); // a Hugging Face checkpoint says nothing
    QCOMPARE(text_reader(m), TextReader::Gpt2Bpe);
}

void TestLetterTokens::task_model_is_shown_its_task()
{
    // A previous-token model: its task's first held-out sequence, the same for every seed.
    const GptModel p = task_model("previous-token", 16, 32);
    const train::Task previous("previous-token", 16, 32, 7);
    QCOMPARE(tokenize_for(p, example_text(p)).ids,
             std::vector<std::int64_t>(previous.held_out().ids.begin(), previous.held_out().ids.begin() + 32));
    // An induction model: that sequence's letters as a run, each once, then the run again -- every query of the copy
    // has exactly one earlier occurrence of its letter, and the token after it is the next one.
    const GptModel m = task_model("induction", 16, 32);
    const TokenizedText t = tokenize_for(m, example_text(m));
    QVERIFY(unreadable_token_sentence(m, t).empty());
    QCOMPARE(t.ids.size(), std::size_t{32});
    const std::vector<std::int64_t> run(t.ids.begin(), t.ids.begin() + 16);
    QCOMPARE(std::vector<std::int64_t>(t.ids.begin() + 16, t.ids.end()), run);
    std::vector<std::int64_t> sorted = run;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()); // no letter twice in the run
    const train::Task task("induction", 16, 32, 7); // another seed: the held-out set is the same
    QCOMPARE(run.front(), task.held_out().ids.front());
    // A short context halves the run: 12 positions, a run of 6 and its copy.
    const GptModel small = task_model("induction", 16, 12);
    const TokenizedText s = tokenize_for(small, example_text(small));
    QCOMPARE(s.ids.size(), std::size_t{12});
    QCOMPARE(std::vector<std::int64_t>(s.ids.begin(), s.ids.begin() + 6),
             std::vector<std::int64_t>(s.ids.begin() + 6, s.ids.end()));
    // A task this build does not know still gets a text the model reads.
    const GptModel unknown = task_model("sorting", 16, 8);
    QCOMPARE(example_text(unknown), std::string("A B C D E F G H"));
}

QTEST_GUILESS_MAIN(TestLetterTokens)
#include "test_letter_tokens.moc"
