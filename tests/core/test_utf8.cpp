// UTF-8 checks at the door (text/utf8.h): well-formed text passes, every kind of malformed byte is found
// where it starts, and printable() makes any bytes safe and short enough to quote in a sentence.
#include "tensor/error.h"
#include "text/utf8.h"

#include <QtTest>

using namespace attnlab;

class TestUtf8 : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void valid_data();
    void valid();
    void malformed_data();
    void malformed();
    void requireNamesWhatAndWhere();
    void printable_data();
    void printable();
};

void TestUtf8::valid_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("ascii") << QByteArray("I HAD always thought Jack Gisburn");
    QTest::newRow("two-byte") << QByteArray("caf\xc3\xa9");
    QTest::newRow("three-byte") << QByteArray("\xe2\x80\x94 dash");
    QTest::newRow("four-byte-emoji") << QByteArray("\xf0\x9f\x98\x80");
    QTest::newRow("last-code-point") << QByteArray("\xf4\x8f\xbf\xbf");
    QTest::newRow("nul-is-utf8") << QByteArray("a\0b", 3);
}

void TestUtf8::valid()
{
    QFETCH(QByteArray, text);
    QVERIFY(!first_utf8_problem(text.toStdString()));
    require_utf8(text.toStdString(), "the text"); // does not throw
}

void TestUtf8::malformed_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("offset");
    QTest::addColumn<int>("byte");
    QTest::newRow("ff") << QByteArray("I HAD \xff") << 6 << 0xFF;
    QTest::newRow("lone-continuation") << QByteArray("a\x80") << 1 << 0x80;
    QTest::newRow("latin1-e9-then-ascii") << QByteArray("\xe9t\xe9") << 0 << 0xE9;
    QTest::newRow("cut-short-at-end") << QByteArray("caf\xc3") << 3 << 0xC3;
    QTest::newRow("overlong-slash") << QByteArray("\xc0\xaf") << 0 << 0xC0;
    QTest::newRow("overlong-three") << QByteArray("\xe0\x80\xaf") << 0 << 0xE0;
    QTest::newRow("surrogate") << QByteArray("ab\xed\xa0\x80") << 2 << 0xED;
    QTest::newRow("past-10ffff") << QByteArray("\xf4\x90\x80\x80") << 0 << 0xF4;
    QTest::newRow("f5-lead") << QByteArray("\xf5\x80\x80\x80") << 0 << 0xF5;
}

void TestUtf8::malformed()
{
    QFETCH(QByteArray, text);
    QFETCH(int, offset);
    QFETCH(int, byte);
    const auto problem = first_utf8_problem(text.toStdString());
    QVERIFY(problem);
    QCOMPARE(static_cast<int>(problem->offset), offset);
    QCOMPARE(static_cast<int>(problem->byte), byte);
}

void TestUtf8::requireNamesWhatAndWhere()
{
    try {
        require_utf8("I HAD \xff", "--text");
        QFAIL("accepted");
    } catch (const Error& e) {
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("--text is not UTF-8 text: byte 0xFF at position 6 does "
                                                             "not begin a whole UTF-8 character; give the text as "
                                                             "UTF-8."));
    }
}

void TestUtf8::printable_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("max");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << QByteArray("queries.view") << 80 << QStringLiteral("queries.view");
    QTest::newRow("nul") << QByteArray("W_\0query", 8) << 80 << QStringLiteral("W_\\x00query");
    QTest::newRow("escape-sequence") << QByteArray("\x1b[31mred") << 80 << QStringLiteral("\\x1b[31mred");
    QTest::newRow("not-utf8") << QByteArray("a\xffz") << 80 << QStringLiteral("a\\xffz");
    QTest::newRow("utf8-kept") << QByteArray("caf\xc3\xa9") << 80 << QStringLiteral("caf\u00e9");
    QTest::newRow("cut") << QByteArray("abcdefghij") << 4 << QStringLiteral("abcd... (6 more characters)");
    QTest::newRow("cut-counts-characters")
        << QByteArray("ab\xc3\xa9\xc3\xa9") << 2 << QStringLiteral("ab... (2 more characters)");
}

void TestUtf8::printable()
{
    QFETCH(QByteArray, text);
    QFETCH(int, max);
    QFETCH(QString, expected);
    const std::string shown = attnlab::printable(text.toStdString(), static_cast<std::size_t>(max));
    QCOMPARE(QString::fromStdString(shown), expected);
    QVERIFY(!first_utf8_problem(shown)); // whatever came in, what goes out is UTF-8
}

QTEST_GUILESS_MAIN(TestUtf8)
#include "test_utf8.moc"
