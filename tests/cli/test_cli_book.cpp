// Every weight-dependent tensor chapter 3 prints, reproduced by attention-lab-cli with the book's call,
// seed and input, to the four decimals the book prints (table: common/book_printed.h).
#include "common/book_printed.h"
#include "common/cli_runner.h"
#include "io/safetensors.h"
#include "tensor/torch_random.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;

class TestCliBook : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void printed_rows_data();
    void printed_rows();
    void dropout_on_ones();
    void simple_self_attention_takes_no_arguments();

private:
    QTemporaryDir dir_;
};

void TestCliBook::printed_rows_data()
{
    QTest::addColumn<int>("index");
    for (std::size_t i = 0; i < book_printed().size(); ++i)
        QTest::newRow(book_printed()[i].name) << static_cast<int>(i);
}

void TestCliBook::printed_rows()
{
    QFETCH(int, index);
    const BookPrinted& b = book_printed()[static_cast<std::size_t>(index)];
    const QString dump = dir_.filePath(QStringLiteral("row%1.safetensors").arg(index));
    QStringList args = {"run", "--call", b.call, "--seed", QString::number(b.seed), "--input", "book", "--dump", dump};
    if (b.batch > 0)
        args << "--batch" << QString::number(b.batch);
    if (b.dropout_seed >= 0)
        args << "--train"
             << "--dropout-seed" << QString::number(b.dropout_seed);
    const Result r = cli(args);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const SafetensorsFile file = read_safetensors(dump.toStdString());
    const Tensor* t = file.find(b.stage);
    QVERIFY2(t, b.stage);
    // Single-head modules without --batch take the 2-D (6, 3) input, as the book's listings do.
    QCOMPARE(t->dim(), b.batch > 0 ? 3 : 2);
    const std::int64_t width = t->size(-1);
    const std::vector<float> all = t->to_vector(); // batch element 0 comes first
    const std::vector<float> row(all.begin() + b.row * width, all.begin() + (b.row + 1) * width);
    QCOMPARE(printed(row), printed(b.values));
}

void TestCliBook::dropout_on_ones()
{
    // torch.manual_seed(123); nn.Dropout(0.5)(torch.ones(6, 6)), the mask 3.5.2 prints.
    TorchGenerator gen(123);
    std::vector<float> ones(36, 1.0f);
    dropout_(ones.data(), ones.size(), 0.5, gen);
    const std::vector<float> book = {2, 2, 0, 2, 2, 0, 0, 0, 0, 2, 0, 2, 2, 2, 2, 2, 0, 2,
                                     0, 2, 2, 0, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 2, 2, 2, 0};
    QCOMPARE(ones, book);
}

void TestCliBook::simple_self_attention_takes_no_arguments()
{
    const Result r = cli({"run", "--call", "SimpleSelfAttention(3)", "--input", "book", "--dump",
                          dir_.filePath(QStringLiteral("x.safetensors"))});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("takes no arguments"), qPrintable(r.err));
    const Result s = cli({"trace", "--call", "SimpleSelfAttention()", "--input", "book"});
    QCOMPARE(s.code, 0);
    for (const char* line : {"attn_scores = x @ x.T", "attn_weights = torch.softmax(attn_scores, dim=-1)",
                             "context_vec = attn_weights @ x"})
        QVERIFY2(s.out.contains(line), line);
}

QTEST_GUILESS_MAIN(TestCliBook)
#include "test_cli_book.moc"
