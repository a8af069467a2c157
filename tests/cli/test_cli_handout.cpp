// attention-lab-cli handout as a teacher runs it: a GIFT quiz Moodle imports (read back with a GIFT reader written
// from the format's documentation, each answer the trace's), a page to print, and one-sentence refusals that write
// nothing.
#include "common/cli_runner.h"
#include "common/gift_parser.h"

#include <QTemporaryDir>
#include <QtTest>

using ::testing::GiftQuestion;

class TestCliHandout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void giftQuizOfChosenStages();
    void printablePage();
    void refusals_data();
    void refusals();
};

namespace {

const QString kCall = QStringLiteral("GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4)");

std::string read_all(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

} // namespace

// keys.repeated: 4 axes and two layout questions; attn_scores.masked at 5 tokens: 4 axes and the count of hidden
// positions (10 of 25).
void TestCliHandout::giftQuizOfChosenStages()
{
    QTemporaryDir dir;
    const QString quiz = dir.filePath("class.gift");
    const Result r = cli({"handout", "--call", kCall, "--tokens", "5", "--stages", "keys.repeated,attn_scores.masked",
                          "--category", "week 3/attention", "--gift", quiz});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("2 stages of GroupedQueryAttention(768, 768, 1024, 0.0, 12, 4)"), qPrintable(r.out));
    const std::vector<GiftQuestion> q = ::testing::parse_gift(read_all(quiz));
    QCOMPARE(q.size(), std::size_t{4 + 2 + 4 + 1});
    QVERIFY2(r.out.contains("as 11 quiz questions"), qPrintable(r.out));
    QCOMPARE(QString::fromStdString(q[0].category), QStringLiteral("week 3/attention"));
    const double sizes[] = {1, 12, 5, 64}; // keys.repeated: (b, num_heads, num_tokens, head_dim)
    for (int a = 0; a < 4; ++a) {
        QCOMPARE(q[a].type, GiftQuestion::Type::Numerical);
        QCOMPARE(*q[a].number, sizes[a]);
    }
    QVERIFY(q[0].text.find("num_kv_groups = 4") != std::string::npos); // the givens say what the answer needs
    QVERIFY(q[0].text.find("repeat_interleave") != std::string::npos); // and the code line
    QCOMPARE(q[4].type, GiftQuestion::Type::TrueFalse); // repeat_interleave copies: contiguous, own storage
    QVERIFY(q[4].truth);
    QVERIFY(!q[5].truth);
    QCOMPARE(q[10].type, GiftQuestion::Type::Numerical);
    QCOMPARE(*q[10].number, 10.0);
}

void TestCliHandout::printablePage()
{
    QTemporaryDir dir;
    const QString page = dir.filePath("handout.html");
    const Result r = cli({"handout", "--call", "MultiHeadAttention(3, 4, 6, 0.0, 2)", "--html", page});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QString html = QString::fromStdString(read_all(page));
    QVERIFY(html.startsWith("<!DOCTYPE html>"));
    QVERIFY(html.contains("MultiHeadAttention(3, 4, 6, 0.0, 2): predict every stage"));
    QVERIFY(html.indexOf("What shape does context.merged have?") < html.indexOf("<h1>Answers</h1>"));
    // Some stages: the title says so, not "every stage".
    const Result some = cli({"handout", "--call", "MultiHeadAttention(3, 4, 6, 0.0, 2)", "--stages",
                             "queries,attn_weights", "--html", page});
    QVERIFY2(some.code == 0, qPrintable(some.err));
    const QString chosen = QString::fromStdString(read_all(page));
    QVERIFY(chosen.contains("MultiHeadAttention(3, 4, 6, 0.0, 2): predict these stages"));
    QVERIFY(!chosen.contains("predict every stage"));
}

void TestCliHandout::refusals_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("says");
    const QStringList call{"--call", kCall};
    QTest::newRow("no output") << call << 2 << "give --gift FILE";
    QTest::newRow("two outputs") << call + QStringList{"--gift", "@/a.gift", "--html", "@/a.html"} << 2
                                 << "one of them";
    QTest::newRow("unknown stage") << call + QStringList{"--stages", "queries,nope", "--gift", "@/a.gift"} << 1
                                   << "there is no stage 'nope'";
    QTest::newRow("empty stage name") << call + QStringList{"--stages", "queries,,keys", "--gift", "@/a.gift"} << 1
                                      << "--stages has an empty name";
    QTest::newRow("category of two lines")
        << call + QStringList{"--category", "a\n::x:: y {T}", "--gift", "@/a.gift"} << 1 << "--category";
    QTest::newRow("empty category") << call + QStringList{"--category", "", "--gift", "@/a.gift"} << 1
                                    << "is not one line of 1 to 200 characters";
    QTest::newRow("category with the page") << call + QStringList{"--category", "week 3", "--html", "@/a.html"} << 2
                                            << "the --html page has none, so give it with --gift only.";
    QTest::newRow("folder missing") << call + QStringList{"--gift", "@/no/such/folder/a.gift"} << 1 << "folder";
    QTest::newRow("bad call") << QStringList{"--call", "GroupedQueryAttention(768, 768, 1024, 0.0, 12, 5)", "--gift",
                                             "@/a.gift"}
                              << 1 << "num_kv_groups";
}

void TestCliHandout::refusals()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, says);
    QTemporaryDir dir;
    args.replaceInStrings(QStringLiteral("@/"), dir.path() + "/");
    const Result r = cli(QStringList{"handout"} + args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.err.contains(says), qPrintable(r.err));
    QVERIFY2(r.err.trimmed().count('\n') == 0 || code == 2, qPrintable(r.err));             // one sentence when refused
    QVERIFY(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty()); // nothing written
}

QTEST_GUILESS_MAIN(TestCliHandout)
#include "test_cli_handout.moc"
