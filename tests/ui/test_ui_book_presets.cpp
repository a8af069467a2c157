// Each book preset shows the values chapter 3 prints (table: common/book_printed.h): the preset's call,
// seed and input are the listing's, the trace holds the printed row, and the values grid shows it as
// the book prints it, four decimals.
#include "common/book_printed.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "model/weights_source.h"
#include "features/stepper/tensor_grid.h"

#include <QTableWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

class TestUiBookPresets : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void every_listing_has_a_preset();
    void preset_shows_the_printed_row_data();
    void preset_shows_the_printed_row();
    void status_names_the_seed();
    void session_file_keeps_the_dropout_seed();
};

void TestUiBookPresets::every_listing_has_a_preset()
{
    for (const char* id :
         {"book-3.3", "book-3.4-v1", "book-3.4-v2", "book-3.5-dropout", "book-3.5-causal", "book-3.6-wrapper", "book"})
        QVERIFY2(findPreset(QString::fromLatin1(id)), id);
}

void TestUiBookPresets::preset_shows_the_printed_row_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < book_printed().size(); ++i)
        if (*book_printed()[i].preset)
            QTest::newRow(book_printed()[i].name) << static_cast<int>(i);
}

void TestUiBookPresets::preset_shows_the_printed_row()
{
    QFETCH(int, index);
    const BookPrinted& b = book_printed()[static_cast<std::size_t>(index)];
    const Preset* preset = findPreset(QString::fromLatin1(b.preset));
    QVERIFY(preset);
    QCOMPARE(preset->call, QString::fromLatin1(b.call));
    QCOMPARE(preset->seed, static_cast<std::uint64_t>(b.seed));
    QVERIFY(preset->bookInput);
    QCOMPARE(preset->training, b.dropout_seed >= 0);

    Session session;
    TensorGrid grid(session.feature<StepperState>());
    session.document()->applyPreset(*preset);
    QTRY_VERIFY_WITH_TIMEOUT(session.trace()->trace() && !session.trace()->busy(), 30000);
    QVERIFY(session.view()->setStageByName(QString::fromLatin1(b.stage)));
    const Tensor& t = session.view()->stage()->tensor;
    QCOMPARE(t.dim(), b.batch > 0 ? 3 : 2);
    const std::int64_t width = t.size(-1);
    const std::vector<float> all = t.to_vector();
    QCOMPARE(printed(std::vector<float>(all.begin() + b.row * width, all.begin() + (b.row + 1) * width)),
             printed(b.values));
    // The grid shows batch element 0's row as the book prints it.
    QTableWidget* table = grid.table();
    QTRY_COMPARE(table->columnCount(), static_cast<int>(width));
    QStringList shown;
    for (int c = 0; c < table->columnCount(); ++c) {
        const QString s = table->item(b.row, c)->text();
        // The book prints a causally masked weight as 0.0000; the grid says "masked" there (it is exactly 0).
        shown << (s == QLatin1String("-0.0000") || s == QLatin1String("masked") ? QStringLiteral("0.0000") : s);
        if (s == QLatin1String("masked"))
            QCOMPARE(all[static_cast<std::size_t>(b.row * width + c)], 0.0f);
    }
    QCOMPARE(shown.join(QStringLiteral(", ")), printed(b.values));
}

void TestUiBookPresets::status_names_the_seed()
{
    Session session;
    session.document()->applyPreset(*findPreset(QStringLiteral("book-3.4-v2")));
    QCOMPARE(session.document()->spec().seed, std::uint64_t{789});
    session.document()->setSeed(123);
    QCOMPARE(session.document()->spec().seed, std::uint64_t{123});
    session.document()->setDropoutSeed(5);
    QCOMPARE(session.document()->spec().dropout_seed, std::optional<std::uint64_t>(5));
    QCOMPARE(weightsSummary(session.document()->spec()), QStringLiteral("Weights: torch.manual_seed(123)"));
    session.document()->applyPreset(*findPreset(QStringLiteral("book-3.3")));
    QCOMPARE(weightsSummary(session.document()->spec()), QStringLiteral("No trainable weights"));
}

void TestUiBookPresets::session_file_keeps_the_dropout_seed()
{
    Session session;
    session.document()->applyPreset(*findPreset(QStringLiteral("book-3.5-dropout")));
    QString error;
    const QByteArray bytes = serializeSession(captureState(session), sessionFeatures());
    QVERIFY(bytes.contains("\"dropout_seed\": 123"));
    const std::optional<SessionState> back = parseSession(bytes, sessionFeatures(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->document.spec.seed, std::uint64_t{789});
    QCOMPARE(back->document.spec.dropout_seed, std::optional<std::uint64_t>(123));
    QVERIFY(back->document.spec.training);
    // Without a dropout seed the key is absent, so older files and their bytes stay as they were.
    session.document()->setDropoutSeed(std::nullopt);
    QVERIFY(!serializeSession(captureState(session), sessionFeatures()).contains("dropout_seed"));
}

QTEST_MAIN(TestUiBookPresets)
#include "test_ui_book_presets.moc"
