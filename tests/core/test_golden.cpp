// Every stage of every PyTorch reference file reproduced by the engine: the golden files shipped
// beside the repository, and the project's own further cases in tests/data/reference.
#include "call/call_parser.h"
#include "common/golden_compare.h"
#include "io/safetensors.h"
#include "forward/trace.h"
#include "io/weights.h"

#include <QtTest>

using namespace attnlab;

class TestGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden_files_are_there();
    void reproduces_every_stage_data();
    void reproduces_every_stage();
};

void TestGolden::golden_files_are_there()
{
    // A missing folder must fail loudly, not turn the data-driven test below into zero rows.
    QVERIFY2(testing::safetensors_files(ATTNLAB_GOLDEN_DIR).size() >= 11, ATTNLAB_GOLDEN_DIR);
    QVERIFY(testing::safetensors_files(ATTNLAB_TEST_DATA_DIR "/reference").size() >= 1);
}

void TestGolden::reproduces_every_stage_data()
{
    QTest::addColumn<QString>("path");
    for (const char* dir : {ATTNLAB_GOLDEN_DIR, ATTNLAB_TEST_DATA_DIR "/reference"})
        for (const auto& path : testing::safetensors_files(dir)) {
            const QString name = QFileInfo(QString::fromStdString(path)).completeBaseName();
            QTest::newRow(qPrintable(name)) << QString::fromStdString(path);
        }
}

void TestGolden::reproduces_every_stage()
{
    QFETCH(QString, path);
    const SafetensorsFile file = read_safetensors(path.toStdString());
    const ParsedCall call = parse_call(file.meta("call"));
    QVERIFY2(call.ok(), file.meta("call").c_str());
    const std::string layout = file.meta("layout", "torch");
    const StateDict weights =
        state_dict_from_file(file, *call.config, layout_from_name(layout), std::stoi(file.meta("layer", "0")));
    const Tensor* x = file.find("x");
    QVERIFY(x);
    const Trace trace = trace_forward(*call.config, weights, *x);

    int compared = 0;
    for (const auto& [name, expected] : file.tensors) {
        if (name.rfind("expected.", 0) != 0)
            continue;
        const std::string stage = name.substr(9);
        const Stage* s = trace.find(stage);
        QVERIFY2(s, ("no stage " + stage).c_str());
        const std::string diff = testing::compare_tensors(s->tensor, expected);
        QVERIFY2(diff.empty(), (stage + ": " + diff).c_str());
        QCOMPARE(s->tensor.shape(), s->expected_shape);
        ++compared;
    }
    QVERIFY(compared >= 1);
}

QTEST_GUILESS_MAIN(TestGolden)
#include "test_golden.moc"
