// Following one number: for every stage of every PyTorch reference file, elements followed to their
// sources recompute to their value, and every place the number is said to live holds it (the same
// storage offset where it is the same float). Then named cases that pin the layout arithmetic.
#include "call/call_parser.h"
#include "common/golden_compare.h"
#include "forward/follow.h"
#include "forward/trace.h"
#include "io/safetensors.h"
#include "io/weights.h"
#include "tensor/error.h"

#include <QtTest>

#include <cmath>

using namespace attnlab;

namespace {

struct Case {
    Trace trace;
    StateDict weights;
};

Case load_case(const std::string& path)
{
    const SafetensorsFile file = read_safetensors(path);
    const ParsedCall call = parse_call(file.meta("call"));
    const StateDict weights = state_dict_from_file(file, *call.config, layout_from_name(file.meta("layout", "torch")),
                                                   std::stoi(file.meta("layer", "0")));
    return {trace_forward(*call.config, weights, *file.find("x")), weights};
}

// Up to `most` indices spread over the whole tensor, the first and the last included.
std::vector<Index> sample_indices(const Shape& shape, std::int64_t most)
{
    const std::int64_t n = shape_numel(shape);
    const std::int64_t step = std::max<std::int64_t>(1, n / most);
    std::vector<Index> out;
    for (std::int64_t p = 0; p < n; p += step) {
        Index i(shape.size());
        std::int64_t q = p;
        for (std::size_t a = shape.size(); a-- > 0;) {
            i[a] = q % shape[a];
            q /= shape[a];
        }
        out.push_back(i);
    }
    Index last(shape.size());
    for (std::size_t a = 0; a < shape.size(); ++a)
        last[a] = shape[a] - 1;
    out.push_back(last);
    return out;
}

bool close(float got, float want)
{
    if (!std::isfinite(want))
        return got == want;
    return std::fabs(got - want) <= 2e-5f + 1e-4f * std::fabs(want);
}

} // namespace

class TestFollow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyStageRecomputes_data();
    void everyStageRecomputes();
    void layoutArithmetic_data();
    void layoutArithmetic();
    void wrapperConcatenation();
    void layoutStagesNameTheirComputation_data();
    void layoutStagesNameTheirComputation();
    void refusals_data();
    void refusals();
};

void TestFollow::everyStageRecomputes_data()
{
    QTest::addColumn<QString>("path");
    for (const char* dir : {ATTNLAB_GOLDEN_DIR, ATTNLAB_TEST_DATA_DIR "/reference"})
        for (const auto& path : testing::safetensors_files(dir))
            QTest::newRow(qPrintable(QFileInfo(QString::fromStdString(path)).completeBaseName()))
                << QString::fromStdString(path);
}

void TestFollow::everyStageRecomputes()
{
    QFETCH(QString, path);
    const Case c = load_case(path.toStdString());
    int followed = 0;
    for (const Stage& stage : c.trace.stages) {
        for (const Index& i : sample_indices(stage.tensor.shape(), 60)) {
            const ElementFollow f = follow_element(c.trace, stage.name, i);
            const std::string where = stage.name + " " + index_text(i);
            QVERIFY2(f.value == stage.tensor.at(i) || (std::isnan(f.value) && std::isnan(stage.tensor.at(i))),
                     where.c_str());
            const float again = recompute_element(f, c.trace, c.weights);
            QVERIFY2(close(again, f.value),
                     (where + ": recomputed " + std::to_string(again) + ", holds " + std::to_string(f.value)).c_str());
            QVERIFY(!f.places.empty() && f.places.front().placement == Placement::Itself);
            for (const ElementPlace& p : f.places) {
                const Stage* other = c.trace.find(p.stage);
                QVERIFY2(other, p.stage.c_str());
                const float there = other->tensor.at(p.index);
                QVERIFY2(there == f.value || (std::isnan(there) && std::isnan(f.value)),
                         (where + " is not at " + p.stage + " " + index_text(p.index)).c_str());
                if (p.placement == Placement::SameStorage)
                    QCOMPARE(p.storage_offset, f.places.front().storage_offset);
            }
            if (!stage.derived_from.empty()) // a layout stage always names the element it re-lays out
                QVERIFY2(f.sources.combine == Combine::SameNumber && f.sources.operands.size() == 1, where.c_str());
            ++followed;
        }
    }
    QVERIFY(followed > 0);
}

void TestFollow::layoutArithmetic_data()
{
    // Book toy: MultiHeadAttention(3, 2, 6, 0.0, 2), batch 2, 6 tokens: d_out 2 = 2 heads × head_dim 1.
    QTest::addColumn<QString>("stage");
    QTest::addColumn<Index>("index");
    QTest::addColumn<QString>("other");
    QTest::addColumn<Index>("there");
    QTest::addColumn<int>("placement");
    QTest::newRow("queries-to-heads") << "queries" << Index{1, 4, 1} << "queries.heads" << Index{1, 1, 4, 0}
                                      << int(Placement::SameStorage);
    QTest::newRow("heads-to-view") << "keys.heads" << Index{0, 1, 2, 0} << "keys.view" << Index{0, 2, 1, 0}
                                   << int(Placement::SameStorage);
    QTest::newRow("context-heads-to-transposed") << "context.heads" << Index{1, 0, 5, 0} << "context.transposed"
                                                 << Index{1, 5, 0, 0} << int(Placement::SameStorage);
    QTest::newRow("merged-is-a-copy") << "context.heads" << Index{1, 1, 3, 0} << "context.merged" << Index{1, 3, 1}
                                      << int(Placement::Copy);
    QTest::newRow("merged-back") << "context.merged" << Index{0, 2, 0} << "context.heads" << Index{0, 0, 2, 0}
                                 << int(Placement::Copy);
}

void TestFollow::layoutArithmetic()
{
    QFETCH(QString, stage);
    QFETCH(Index, index);
    QFETCH(QString, other);
    QFETCH(Index, there);
    QFETCH(int, placement);
    const Case c = load_case(ATTNLAB_GOLDEN_DIR "/book_toy.safetensors");
    const ElementFollow f = follow_element(c.trace, stage.toStdString(), index);
    const auto p = std::find_if(f.places.begin(), f.places.end(),
                                [&](const ElementPlace& e) { return e.stage == other.toStdString(); });
    QVERIFY2(p != f.places.end(), qPrintable(other));
    QCOMPARE(p->index, there);
    QCOMPARE(int(p->placement), placement);
    // offset = Σ index × stride, with the stage's own strides
    std::int64_t offset = c.trace.find(p->stage)->tensor.offset();
    for (std::size_t a = 0; a < p->index.size(); ++a)
        offset += p->index[a] * p->strides[a];
    QCOMPARE(p->storage_offset, offset);
}

void TestFollow::wrapperConcatenation()
{
    const Case c = load_case(ATTNLAB_GOLDEN_DIR "/book_wrapper_d2.safetensors");
    const ElementFollow f = follow_element(c.trace, "output", {1, 3, 3}); // head 1, column 1
    QCOMPARE(f.sources.combine, Combine::SameNumber);
    QCOMPARE(f.sources.operands.at(0).tensor, std::string("heads.1.context"));
    QCOMPARE(f.sources.operands.at(0).indices.at(0), (Index{1, 3, 1}));
    const ElementFollow g = follow_element(c.trace, "heads.1.context", {1, 3, 1});
    QVERIFY(std::any_of(g.places.begin(), g.places.end(), [](const ElementPlace& p) {
        return p.stage == "output" && p.index == Index{1, 3, 3} && p.placement == Placement::Copy;
    }));
}

// A view, transpose, copy or cat only moves a number: following it names where it was computed (the
// projection or the weighted sum) and that computation's operands, and recomputes it from them.
void TestFollow::layoutStagesNameTheirComputation_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("stage");
    QTest::addColumn<Index>("index");
    QTest::addColumn<QString>("computedAt"); // empty: the stage computes it itself
    QTest::addColumn<Index>("computedIndex");
    QTest::addColumn<int>("combine");
    QTest::addColumn<QStringList>("operands");
    const QString gpt2 = QStringLiteral("gpt2_small_t8"), toy = QStringLiteral("book_toy");
    const auto linear = static_cast<int>(Combine::Linear), dot = static_cast<int>(Combine::Dot);
    // head 1, token 2, feature 0 of head_dim 64: queries' column 64 of token 2
    QTest::newRow("queries.heads-gpt2") << gpt2 << "queries.heads" << Index{0, 1, 2, 0} << "queries" << Index{0, 2, 64}
                                        << linear << QStringList{"x", "W_query.weight"};
    QTest::newRow("keys.view-gpt2") << gpt2 << "keys.view" << Index{0, 3, 11, 63} << "keys" << Index{0, 3, 767}
                                    << linear << QStringList{"x", "W_key.weight"};
    QTest::newRow("values.heads-toy") << toy << "values.heads" << Index{1, 1, 4, 0} << "values" << Index{1, 4, 1}
                                      << linear << QStringList{"x", "W_value.weight"};
    QTest::newRow("context.merged-toy") << toy << "context.merged" << Index{1, 3, 1} << "context.heads"
                                        << Index{1, 1, 3, 0} << dot << QStringList{"attn_weights", "values.heads"};
    QTest::newRow("context.transposed-gpt2") << gpt2 << "context.transposed" << Index{0, 5, 2, 7} << "context.heads"
                                             << Index{0, 2, 5, 7} << dot << QStringList{"attn_weights", "values.heads"};
    QTest::newRow("wrapper-output") << QStringLiteral("book_wrapper_d2") << "output" << Index{1, 3, 3}
                                    << "heads.1.context" << Index{1, 3, 1} << dot
                                    << QStringList{"heads.1.attn_weights", "heads.1.values"};
    QTest::newRow("queries-itself") << toy << "queries" << Index{0, 2, 1} << "" << Index{} << -1 << QStringList{};
}

void TestFollow::layoutStagesNameTheirComputation()
{
    QFETCH(QString, file);
    QFETCH(QString, stage);
    QFETCH(Index, index);
    QFETCH(QString, computedAt);
    QFETCH(Index, computedIndex);
    QFETCH(int, combine);
    QFETCH(QStringList, operands);
    const Case c = load_case(ATTNLAB_GOLDEN_DIR "/" + file.toStdString() + ".safetensors");
    const ElementFollow f = follow_element(c.trace, stage.toStdString(), index);
    QCOMPARE(QString::fromStdString(f.computed_at), computedAt);
    if (computedAt.isEmpty()) {
        QVERIFY(f.computation.operands.empty());
        QCOMPARE(followed_operands(f).size(), f.sources.operands.size());
        return;
    }
    QCOMPARE(f.computed_index, computedIndex);
    QCOMPARE(static_cast<int>(f.computation.combine), combine);
    QStringList names;
    for (const Operand& op : f.computation.operands)
        names << QString::fromStdString(op.tensor);
    QCOMPARE(names, operands);
    QVERIFY(!f.computation.explanation.empty());
    // The place where it was computed holds the same number, and the computation gives it again.
    QCOMPARE(c.trace.find(f.computed_at)->tensor.at(f.computed_index), f.value);
    QVERIFY(close(recompute_element(f, c.trace, c.weights), f.value));
    // The window marks the computation's operands too.
    QCOMPARE(followed_operands(f).size(), f.sources.operands.size() + f.computation.operands.size());
}

void TestFollow::refusals_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<Index>("index");
    QTest::addColumn<QString>("says");
    QTest::newRow("unknown-stage") << "attn_weights.masked" << Index{0, 0, 0, 0} << "no stage 'attn_weights.masked'";
    QTest::newRow("too-few-numbers") << "queries" << Index{0, 0} << "give 3 numbers";
    QTest::newRow("outside") << "queries" << Index{0, 6, 0} << "(2, 6, 2)";
    QTest::newRow("negative") << "attn_weights" << Index{0, 0, -1, 0} << "from 0";
}

void TestFollow::refusals()
{
    QFETCH(QString, stage);
    QFETCH(Index, index);
    QFETCH(QString, says);
    const Case c = load_case(ATTNLAB_GOLDEN_DIR "/book_toy.safetensors");
    try {
        follow_element(c.trace, stage.toStdString(), index);
        QFAIL("not refused");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(says), e.what());
    }
}

QTEST_GUILESS_MAIN(TestFollow)
#include "test_follow.moc"
