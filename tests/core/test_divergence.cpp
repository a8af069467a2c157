// The first divergence, case by case against PyTorch running the same bug on the same weights and
// input (tests/reference/make_bug_cases.py): the same stage, the same kind, the same shapes, and for
// errors PyTorch's message word for word. Bugs that hide must say why.
#include "call/call_parser.h"
#include "lessons/divergence.h"
#include "common/lesson_data.h"
#include "io/safetensors.h"

#include <QtTest>

using namespace attnlab;

class TestDivergence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reference_cases_are_there();
    void same_first_stage_as_pytorch_data();
    void same_first_stage_as_pytorch();
    void harmless_bug_says_why();
    void rows_after_an_error_are_not_reached();
};

void TestDivergence::reference_cases_are_there()
{
    const auto cases = testing::lesson_cases("bug_cases.json");
    QVERIFY(cases.size() >= 40);
    QSet<QString> bugs, hiding;
    for (const auto& c : cases) {
        bugs.insert(c["bug"].toString());
        if (c["first_divergence"].isNull())
            hiding.insert(c["bug"].toString());
    }
    QCOMPARE(bugs.size(), static_cast<qsizetype>(bug_catalogue().size()));
    QVERIFY(hiding.size() >= 8); // settings where a bug hides, for all but mask-diagonal-0 and skip-out-proj
}

void TestDivergence::same_first_stage_as_pytorch_data()
{
    QTest::addColumn<QJsonObject>("c");
    for (const auto& c : testing::lesson_cases("bug_cases.json"))
        QTest::newRow(qPrintable(c["name"].toString())) << c;
}

void TestDivergence::same_first_stage_as_pytorch()
{
    QFETCH(QJsonObject, c);
    const SafetensorsFile file = read_safetensors(ATTNLAB_TEST_DATA_DIR "/" + c["file"].toString().toStdString());
    const ParsedCall call = parse_call(c["call"].toString().toStdString());
    QVERIFY(call.ok());
    const StateDict weights = state_dict_from_file(file, *call.config, WeightLayout::Torch);
    const Tensor x = *file.find("x");
    QCOMPARE(static_cast<qint64>(x.size(0)), c["batch"].toInteger());
    QCOMPARE(static_cast<qint64>(x.size(1)), c["tokens"].toInteger());
    const Diagnosis d = diagnose(*call.config, weights, x, bug_from_name(c["bug"].toString().toStdString()));
    const QJsonValue want = c["first_divergence"];
    if (want.isNull()) {
        QVERIFY2(
            !d.first,
            d.first ? (d.first->stage + " " + std::string(status_name(d.first->kind)) + ": " + d.first->message).c_str()
                    : "");
        QVERIFY(!d.why_none.empty());
        return;
    }
    QVERIFY2(d.first, qPrintable("PyTorch diverges at " + want["stage"].toString()));
    QCOMPARE(QString::fromStdString(d.first->stage), want["stage"].toString());
    QCOMPARE(QString::fromStdString(std::string(status_name(d.first->kind))), want["kind"].toString());
    QCOMPARE(d.first->expected_shape, testing::shape_of(want["expected_shape"]));
    QCOMPARE(d.first->observed_shape, testing::shape_of(want["observed_shape"]));
    if (d.first->kind == DivergenceStatus::Error)
        QCOMPARE(QString::fromStdString(d.first->message), want["message"].toString());
    else
        QVERIFY(d.first->message.find(d.first->stage) != std::string::npos);
}

void TestDivergence::harmless_bug_says_why()
{
    // Every hiding case of the reference has a reason of its own, not the generic fallback.
    for (const auto& c : testing::lesson_cases("bug_cases.json")) {
        if (!c["first_divergence"].isNull())
            continue;
        const SafetensorsFile file = read_safetensors(ATTNLAB_TEST_DATA_DIR "/" + c["file"].toString().toStdString());
        const Config config = *parse_call(c["call"].toString().toStdString()).config;
        const Diagnosis d = diagnose(config, state_dict_from_file(file, config, WeightLayout::Torch), *file.find("x"),
                                     bug_from_name(c["bug"].toString().toStdString()));
        QVERIFY2(!d.why_none.empty() && d.why_none.rfind("every stage", 0) != 0, qPrintable(c["name"].toString()));
    }
    Config tiny;
    tiny.d_in = 3;
    tiny.d_out = 1;
    tiny.context_length = 4;
    tiny.num_heads = 1;
    const Diagnosis d = diagnose(tiny, init_weights(tiny, 1), random_input(tiny, 2, 1, 2), Bug::SkipHeadTranspose);
    QVERIFY(!d.first);
    QCOMPARE(d.why_none, std::string("with one head and one token the transpose swaps two axes of size 1, so nothing "
                                     "changes."));
}

void TestDivergence::rows_after_an_error_are_not_reached()
{
    Config c;
    c.d_in = 3;
    c.d_out = 4;
    c.context_length = 8;
    c.num_heads = 2;
    const Diagnosis d = diagnose(c, init_weights(c, 1), random_input(c, 2, 6, 2), Bug::SkipContiguous);
    QVERIFY(d.first);
    QCOMPARE(d.first->stage, std::string("context.merged"));
    QCOMPARE(d.stages.back().status, DivergenceStatus::NotReached);
    QCOMPARE(d.stages.back().stage, std::string("output"));
    QCOMPARE(d.stages.front().status, DivergenceStatus::Same);

    c.d_in = 5; // swapped: d_out = 5 cannot be split into 2 heads
    const Diagnosis s = diagnose(c, init_weights(c, 1), random_input(c, 2, 6, 2), Bug::SwapDInDOut);
    QCOMPARE(s.stages.front().stage, std::string("config"));
    QCOMPARE(s.stages.front().status, DivergenceStatus::Error);
    QCOMPARE(s.stages[1].status, DivergenceStatus::NotReached);
    QCOMPARE(s.first->stage, std::string("config"));
    QVERIFY(s.first->expected_shape.empty());
}

QTEST_GUILESS_MAIN(TestDivergence)
#include "test_divergence.moc"
