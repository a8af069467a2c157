// Handouts: the app's questions as a Moodle GIFT quiz and as a page to print. The quiz is read back with a GIFT
// reader written from the format's documentation (common/gift_parser), first checked on the documentation's own
// kinds of question; every field of every stage's Predict First question must come back as one question whose
// answer is the app's, whatever characters its text holds.
#include "common/gift_parser.h"
#include "common/trace_fixtures.h"
#include "lessons/predict.h"
#include "poll/gift_quiz.h"
#include "poll/handout_page.h"
#include "tensor/error.h"

#include <QtTest>

using namespace attnlab;
using ::testing::GiftQuestion;
using ::testing::parse_gift;

class TestGiftQuiz : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theReaderReadsTheFormatsKinds();
    void theReaderRefusesBrokenBlocks();
    void everyFieldComesBackWithTheAppsAnswer_data();
    void everyFieldComesBackWithTheAppsAnswer();
    void specialCharactersSurvive();
    void aQuestionWithoutFieldsIsRefused();
    void thePageHasTheQuestionsThenTheAnswers();
};

// The kinds the GIFT documentation shows: true/false, multiple choice with feedback, short answer (a missing
// word), numerical with a tolerance and with a range, weighted answers, escapes, comments and a category.
void TestGiftQuiz::theReaderReadsTheFormatsKinds()
{
    const std::string text = "// a comment\n$CATEGORY: course/lesson\n\n"
                             "::Q1:: 1+1\\=2 {T}\n\n"
                             "::Q2:: What's between orange and green in the spectrum?\n"
                             "{=yellow # right; good! ~red # wrong ~blue # wrong}\n\n"
                             "Two plus {=two =2} equals four.\n\n"
                             "::Q4:: When was Ulysses S. Grant born?{#1822:5}\n\n"
                             "What is a number from 1 to 5? {#1..5####any of them}\n\n"
                             "::Q6::[markdown] Which are primes? {~%50%2 ~%50%3 ~4}\n\n"
                             "::Q7:: a \\{brace\\} and a \\~tilde {FALSE}\n";
    const std::vector<GiftQuestion> q = parse_gift(text);
    QCOMPARE(q.size(), std::size_t{7});
    QCOMPARE(QString::fromStdString(q[0].category), QStringLiteral("course/lesson"));
    QCOMPARE(q[0].type, GiftQuestion::Type::TrueFalse);
    QVERIFY(q[0].truth);
    QCOMPARE(QString::fromStdString(q[0].text), QStringLiteral("1+1=2"));
    QCOMPARE(q[1].type, GiftQuestion::Type::MultipleChoice);
    QCOMPARE(q[1].answers.size(), std::size_t{3});
    QCOMPARE(q[1].answers[0].weight, 100.0);
    QCOMPARE(QString::fromStdString(q[1].answers[0].feedback), QStringLiteral("right; good!"));
    QCOMPARE(q[2].type, GiftQuestion::Type::ShortAnswer);
    QCOMPARE(q[2].answers.size(), std::size_t{2});
    QCOMPARE(q[3].type, GiftQuestion::Type::Numerical);
    QCOMPARE(*q[3].number, 1822.0);
    QCOMPARE(*q[3].tolerance, 5.0);
    QCOMPARE(*q[4].number, 3.0);
    QCOMPARE(QString::fromStdString(q[4].general_feedback), QStringLiteral("any of them"));
    QCOMPARE(QString::fromStdString(q[5].format), QStringLiteral("markdown"));
    QCOMPARE(q[5].answers[1].weight, 50.0);
    QCOMPARE(QString::fromStdString(q[6].text), QStringLiteral("a {brace} and a ~tilde"));
    QVERIFY(!q[6].truth);
}

void TestGiftQuiz::theReaderRefusesBrokenBlocks()
{
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, parse_gift("Unclosed {=a ~b\n"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, parse_gift("Empty {}\n"));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, parse_gift("Not a number {#six}\n"));
}

void TestGiftQuiz::everyFieldComesBackWithTheAppsAnswer_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("masks"); // masked-score stages, each asked as a count of hidden positions
    QTest::newRow("multi-head") << "MultiHeadAttention(3, 4, 6, 0.0, 2)" << 1;
    QTest::newRow("grouped-query-window") << "GroupedQueryAttention(3, 4, 6, 0.0, 2, 1, window_size=2)" << 1;
    QTest::newRow("wrapper") << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)" << 2;
    QTest::newRow("causal") << "CausalAttention(3, 2, 6, 0.0)" << 1;
}

void TestGiftQuiz::everyFieldComesBackWithTheAppsAnswer()
{
    QFETCH(QString, call);
    QFETCH(int, masks);
    const auto trace = ::testing::traceOf(call.toStdString(), 6, InputSource::Book);
    const std::vector<poll::Question> questions = poll::every_stage(*trace);
    const std::vector<GiftQuestion> read = parse_gift(poll::gift_quiz("attention-lab/test", questions));
    std::size_t k = 0;
    int cells = 0;
    for (const poll::Question& q : questions)
        for (const poll::Field& f : q.fields) {
            QVERIFY2(k < read.size(), "fewer questions read than fields written");
            const GiftQuestion& g = read[k++];
            QCOMPARE(QString::fromStdString(g.category), QStringLiteral("attention-lab/test"));
            QVERIFY2(QString::fromStdString(g.text).contains(QString::fromStdString(q.prompt)), g.text.c_str());
            QCOMPARE(QString::fromStdString(g.title), QString::fromStdString(q.id + " " + f.name));
            if (f.kind == poll::FieldKind::Size) {
                QCOMPARE(g.type, GiftQuestion::Type::Numerical);
                QCOMPARE(*g.number, static_cast<double>(f.names.at(f.right)));
                QCOMPARE(QString::fromStdString(g.general_feedback), QString::fromStdString(f.explanation));
            } else if (f.kind == poll::FieldKind::YesNo) {
                QCOMPARE(g.type, GiftQuestion::Type::TrueFalse);
                QCOMPARE(g.truth, f.right == "yes");
            } else if (f.kind == poll::FieldKind::Cells) {
                ++cells;
                QCOMPARE(g.type, GiftQuestion::Type::Numerical);
                const auto hidden = question_for(*trace, q.id.substr(6)).hidden.size();
                QCOMPARE(*g.number, static_cast<double>(hidden));
            }
        }
    QCOMPARE(read.size(), k);
    QCOMPARE(cells, masks);
    if (call.contains("window_size=2")) // the window's 10 old keys counted with the 15 future ones
        QVERIFY(std::any_of(read.begin(), read.end(), [](const GiftQuestion& g) { return g.number == 25.0; }));
}

void TestGiftQuiz::specialCharactersSurvive()
{
    const std::vector<std::string> choices = {"a~b", "c=d", "{e}", "f#g: h\\i", "tab\there"};
    poll::Question q = poll::from_choices("Which one {really}? = or ~ #1\nsecond line", choices, 3);
    q.context = "given: x = 1 :: y";
    const std::vector<GiftQuestion> read = parse_gift(poll::gift_quiz("a:b", {q}));
    QCOMPARE(read.size(), std::size_t{1});
    QCOMPARE(read[0].type, GiftQuestion::Type::MultipleChoice);
    QCOMPARE(read[0].answers.size(), choices.size());
    for (std::size_t c = 0; c < choices.size(); ++c) {
        QCOMPARE(QString::fromStdString(read[0].answers[c].text), QString::fromStdString(choices[c]));
        QCOMPARE(read[0].answers[c].weight, c == 3 ? 100.0 : 0.0);
    }
    QVERIFY2(read[0].text.find("Which one {really}? = or ~ #1\nsecond line") != std::string::npos,
             read[0].text.c_str());
    QVERIFY(read[0].text.rfind("given: x = 1 :: y", 0) == 0);
}

void TestGiftQuiz::aQuestionWithoutFieldsIsRefused()
{
    poll::Question empty;
    empty.id = "lesson:nothing";
    empty.prompt = "Nothing to answer";
    QVERIFY_THROWS_EXCEPTION(Error, poll::gift_quiz("c", {empty}));
}

void TestGiftQuiz::thePageHasTheQuestionsThenTheAnswers()
{
    const auto trace = ::testing::traceOf("MultiHeadAttention(3, 4, 6, 0.0, 2)", 6, InputSource::Book);
    const std::vector<poll::Question> questions = poll::every_stage(*trace);
    const QString page = QString::fromStdString(poll::handout_page("MHA <& \"quotes\"", questions));
    QVERIFY(page.startsWith("<!DOCTYPE html>"));
    QVERIFY(page.contains("MHA &lt;&amp; &quot;quotes&quot;"));
    QVERIFY(!page.contains("<script"));
    const int answers = static_cast<int>(page.indexOf("<div class=\"answers\">"));
    QVERIFY(answers > 0 && page.contains("break-before: page"));
    for (const poll::Question& q : questions) // each prompt asked before the answers, and again among them
        QVERIFY2(page.indexOf(QString::fromStdString(q.prompt)) < answers &&
                     page.lastIndexOf(QString::fromStdString(q.prompt)) > answers,
                 q.prompt.c_str());
    QVERIFY(page.indexOf("head_dim = 2") > answers);  // a size answered with its explanation, after the questions
    QVERIFY(page.contains("<table class=\"grid\">")); // the mask's empty grid to mark
}

QTEST_GUILESS_MAIN(TestGiftQuiz)
#include "test_gift_quiz.moc"
