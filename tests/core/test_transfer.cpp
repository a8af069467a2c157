// The weight-transfer lesson against PyTorch running the same assignments on the same modules
// (tests/reference/make_bug_cases.py): match, mismatch with the same largest difference, or error with
// PyTorch's message; and the GPT-2 checkpoint split.
#include "tensor/error.h"
#include "common/lesson_data.h"
#include "io/safetensors.h"
#include "lessons/transfer.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

class TestTransfer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void same_status_as_pytorch_data();
    void same_status_as_pytorch();
    void code_shows_the_lines_as_written();
    void gpt2_split_transposes_each_part();
    void gpt2_transfer_without_transpose_is_silent();
    void code_lines_for_every_choice();
    void status_names();
};

void TestTransfer::same_status_as_pytorch_data()
{
    QTest::addColumn<QJsonObject>("c");
    const auto cases = testing::lesson_cases("transfer_cases.json");
    QVERIFY(cases.size() >= 8);
    for (const auto& c : cases)
        QTest::newRow(qPrintable(c["name"].toString())) << c;
}

void TestTransfer::same_status_as_pytorch()
{
    QFETCH(QJsonObject, c);
    const SafetensorsFile file = read_safetensors(ATTNLAB_TEST_DATA_DIR "/" + c["file"].toString().toStdString());
    StateDict source, target;
    for (const std::string name : {"W_query", "W_key", "W_value"}) {
        source[name + ".weight"] = file.find(name + ".weight")->clone();
        target[name] = file.find("target." + name)->clone();
    }
    TransferSpec spec;
    spec.d_in = c["d_in"].toInteger();
    spec.d_out = c["d_out"].toInteger();
    for (const auto& role : c["omit"].toArray())
        spec.line(role_from_name(role.toString().toStdString())).written = false;
    for (const auto& role : c["no_transpose"].toArray())
        spec.line(role_from_name(role.toString().toStdString())).transpose = false;
    const TransferResult r = run_transfer(spec, source, target, *file.find("x"));
    QCOMPARE(QString::fromStdString(transfer_status_name(r.status)), c["status"].toString());
    if (r.status == TransferStatus::Error) {
        QCOMPARE(QString::fromStdString(r.pytorch_error), c["pytorch_error"].toString());
        QVERIFY(r.message.find(r.pytorch_error) != std::string::npos);
        QVERIFY(!r.max_abs_diff);
        return;
    }
    QVERIFY(r.max_abs_diff);
    const double want = c["max_abs_diff"].toDouble();
    QVERIFY2(std::fabs(*r.max_abs_diff - want) <= 1e-5 + 1e-3 * want, qPrintable(QString::number(*r.max_abs_diff)));
    if (r.status == TransferStatus::Mismatch) // the sentence names the faulty line
        QVERIFY2(r.message.find("W_") != std::string::npos, r.message.c_str());
}

void TestTransfer::code_shows_the_lines_as_written()
{
    TransferSpec spec;
    spec.line(TransferRole::Key).written = false;
    spec.line(TransferRole::Value).transpose = false;
    const auto code = transfer_code(spec);
    QCOMPARE(code.size(), std::size_t{3});
    QCOMPARE(code[0], std::string("sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)"));
    QVERIFY(code[1].rfind("# sa_v1.W_key", 0) == 0);
    QCOMPARE(code[2], std::string("sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight)"));
    QVERIFY_THROWS_EXCEPTION(Error, role_from_name("W_query"));
}

void TestTransfer::gpt2_split_transposes_each_part()
{
    std::vector<float> values(2 * 6);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(i);
    const Tensor c_attn = Tensor::from_values({2, 6}, values); // rows [0..5], [6..11]
    const Gpt2Split split = split_c_attn(c_attn);
    QCOMPARE(split.parts[1].to_vector(), (std::vector<float>{2, 3, 8, 9})); // the key columns
    QCOMPARE(split.weights[1].shape(), (Shape{2, 2}));
    QCOMPARE(split.weights[1].to_vector(), (std::vector<float>{2, 8, 3, 9})); // (out, in)
    QVERIFY(!split.weights[1].is_contiguous());                               // a transposed view, as .T is
    QVERIFY_THROWS_EXCEPTION(Error, split_c_attn(Tensor::zeros({2, 5})));
}

void TestTransfer::gpt2_transfer_without_transpose_is_silent()
{
    TransferSpec spec;
    const TransferResult ok = run_gpt2_transfer(spec, 8, 3);
    QCOMPARE(ok.status, TransferStatus::Match);
    spec.line(TransferRole::Query).transpose = false;
    const TransferResult silent = run_gpt2_transfer(spec, 8, 3);
    QCOMPARE(silent.status, TransferStatus::Mismatch); // square parts: no error, wrong numbers
    QVERIFY(silent.message.find("without .T") != std::string::npos);
    spec = {};
    spec.line(TransferRole::Value).written = false;
    QCOMPARE(run_gpt2_transfer(spec, 8, 3).status, TransferStatus::Mismatch);
}

namespace {

// Per role, the line for: written with .T, written without, missing with .T, missing without.
using Choices = std::array<std::string, 4>;
const std::array<Choices, 3> kBookLines = {{
    {"sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)",
     "sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight)",
     "# sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)   <- missing",
     "# sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight)   <- missing"},
    {"sa_v1.W_key = torch.nn.Parameter(sa_v2.W_key.weight.T)", "sa_v1.W_key = torch.nn.Parameter(sa_v2.W_key.weight)",
     "# sa_v1.W_key = torch.nn.Parameter(sa_v2.W_key.weight.T)   <- missing",
     "# sa_v1.W_key = torch.nn.Parameter(sa_v2.W_key.weight)   <- missing"},
    {"sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight.T)",
     "sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight)",
     "# sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight.T)   <- missing",
     "# sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight)   <- missing"},
}};
const std::array<Choices, 3> kGpt2Lines = {{
    {"mha.W_query.weight = torch.nn.Parameter(q_w.T)  # nn.Linear stores (out, in)",
     "mha.W_query.weight = torch.nn.Parameter(q_w)  # nn.Linear stores (out, in)",
     "# mha.W_query.weight = torch.nn.Parameter(q_w.T)  # nn.Linear stores (out, in)   <- missing",
     "# mha.W_query.weight = torch.nn.Parameter(q_w)  # nn.Linear stores (out, in)   <- missing"},
    {"mha.W_key.weight = torch.nn.Parameter(k_w.T)", "mha.W_key.weight = torch.nn.Parameter(k_w)",
     "# mha.W_key.weight = torch.nn.Parameter(k_w.T)   <- missing",
     "# mha.W_key.weight = torch.nn.Parameter(k_w)   <- missing"},
    {"mha.W_value.weight = torch.nn.Parameter(v_w.T)", "mha.W_value.weight = torch.nn.Parameter(v_w)",
     "# mha.W_value.weight = torch.nn.Parameter(v_w.T)   <- missing",
     "# mha.W_value.weight = torch.nn.Parameter(v_w)   <- missing"},
}};

TransferLine choice(int c)
{
    return {c < 2, c % 2 == 0};
}

} // namespace

// All 4^3 ways to set the three lines: each line follows its own choice only, in both variants.
void TestTransfer::code_lines_for_every_choice()
{
    const std::string split = "q_w, k_w, v_w = torch.split(block.attn.c_attn.weight, d, dim=-1)  "
                              "# (d, 3d) -> 3 x (d, d), Conv1D (in, out)";
    for (int q = 0; q < 4; ++q)
        for (int k = 0; k < 4; ++k)
            for (int v = 0; v < 4; ++v) {
                TransferSpec spec;
                spec.lines = {choice(q), choice(k), choice(v)};
                const std::array<int, 3> picked = {q, k, v};
                const auto book = transfer_code(spec);
                const auto gpt2 = gpt2_transfer_code(spec);
                QCOMPARE(book.size(), std::size_t{3});
                QCOMPARE(gpt2.size(), std::size_t{4});
                QCOMPARE(gpt2[0], split);
                for (std::size_t i = 0; i < 3; ++i) {
                    QCOMPARE(book[i], kBookLines[i][static_cast<std::size_t>(picked[i])]);
                    QCOMPARE(gpt2[i + 1], kGpt2Lines[i][static_cast<std::size_t>(picked[i])]);
                }
            }
}

// The names are the CLI's `transfer` output and the badges' "status" property: fixed text.
void TestTransfer::status_names()
{
    QStringList names;
    for (TransferStatus status : kTransferStatuses)
        names << QString::fromStdString(transfer_status_name(status));
    QCOMPARE(names, (QStringList{"match", "mismatch", "error"}));
    QCOMPARE(TransferResult{}.status, TransferStatus::Error); // nothing computed is never a match
    TransferSpec spec;
    spec.line(TransferRole::Key).transpose = false;
    QCOMPARE(run_transfer(spec, 1).status, TransferStatus::Error); // (2, 3) where x @ W needs (3, 2)
    QCOMPARE(run_transfer(TransferSpec{}, 1).status, TransferStatus::Match);
}

QTEST_GUILESS_MAIN(TestTransfer)
#include "test_transfer.moc"
