// A wrapper sliced from the integrated weights reproduces `context.merged`: on seeded weights for
// many shapes, on PyTorch's own golden weights (where it must also match PyTorch's merged tensor),
// and not when the slices are handed to the wrong heads (so the comparison can fail at all).
#include "common/errors.h"
#include "call/call_parser.h"
#include "designs/equivalence.h"
#include "tensor/error.h"
#include "common/golden_compare.h"
#include "forward/trace.h"

#include <QtTest>

#include <functional>

using namespace attnlab;
using testing::error_of;

namespace {

Config call_of(const std::string& text)
{
    const ParsedCall parsed = parse_call(text);
    if (!parsed.ok())
        qFatal("unreadable call %s", text.c_str());
    return *parsed.config;
}

} // namespace

class TestEquivalence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void seeded_designs_agree_data();
    void seeded_designs_agree();
    void golden_weights_agree_with_pytorch_data();
    void golden_weights_agree_with_pytorch();
    void slices_are_exact_rows();
    void swapped_slices_disagree();
    void refusals_data();
    void refusals();
    void a_set_cancel_flag_stops_the_check();
};

void TestEquivalence::seeded_designs_agree_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("tokens");
    QTest::newRow("gpt2-small") << "MultiHeadAttention(768, 768, 1024, 0.0, 12)" << 1 << 8;
    QTest::newRow("book-toy") << "MultiHeadAttention(3, 2, 6, 0.0, 2)" << 2 << 6;
    QTest::newRow("odd-widths-bias") << "MultiHeadAttention(5, 6, 9, 0.0, 3, qkv_bias=True)" << 2 << 7;
    QTest::newRow("one-head") << "MultiHeadAttention(4, 4, 5, 0.0, 1, qkv_bias=True)" << 1 << 5;
    QTest::newRow("head-dim-1") << "MultiHeadAttention(3, 4, 4, 0.0, 4)" << 3 << 4;
    QTest::newRow("many-heads") << "MultiHeadAttention(20, 64, 16, 0.0, 16, qkv_bias=True)" << 2 << 12;
    QTest::newRow("one-token") << "MultiHeadAttention(6, 6, 4, 0.0, 2)" << 3 << 1;
    QTest::newRow("dropout-eval") << "MultiHeadAttention(8, 8, 6, 0.25, 4)" << 1 << 6;
}

void TestEquivalence::seeded_designs_agree()
{
    QFETCH(QString, call);
    QFETCH(int, batch);
    QFETCH(int, tokens);
    ExperimentSpec spec;
    spec.config = call_of(call.toStdString());
    spec.batch = batch;
    spec.num_tokens = tokens;
    spec.seed = 42;
    const Equivalence e = check_equivalence(spec);
    const std::int64_t hd = spec.config.d_out / spec.config.num_heads;
    QVERIFY2(e.max_abs_diff < kEquivalenceTolerance, qPrintable(QString::number(e.max_abs_diff)));
    QVERIFY(e.equivalent());
    QVERIFY2(e.output_max_abs_diff < 1e-4, qPrintable(QString::number(e.output_max_abs_diff)));
    QCOMPARE(e.wrapper.kind, ModuleKind::MultiHeadAttentionWrapper);
    QCOMPARE(e.wrapper.d_out, hd);
    QCOMPARE(e.concatenated.shape(), (Shape{batch, tokens, spec.config.d_out}));
    QCOMPARE(e.merged.shape(), e.concatenated.shape());
    QCOMPARE(std::int64_t(e.heads.size()), spec.config.num_heads);
    const std::size_t per_head = spec.config.qkv_bias ? 6 : 3;
    for (const HeadEquivalence& h : e.heads) {
        QCOMPARE(h.row_begin, h.head * hd);
        QCOMPARE(h.row_end, (h.head + 1) * hd);
        QVERIFY(h.max_abs_diff <= e.max_abs_diff);
        QCOMPARE(h.copies.size(), per_head);
        QCOMPARE(h.copies.front().wrapper_name, "heads." + std::to_string(h.head) + ".W_query.weight");
        QCOMPARE(h.copies.front().integrated_name, std::string("W_query.weight"));
    }
}

void TestEquivalence::golden_weights_agree_with_pytorch_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("gpt2-small-t8") << "gpt2_small_t8";
    QTest::newRow("book-toy") << "book_toy";
    QTest::newRow("bias-rect") << "bias_rect";
}

void TestEquivalence::golden_weights_agree_with_pytorch()
{
    QFETCH(QString, file);
    const SafetensorsFile golden = read_safetensors(ATTNLAB_GOLDEN_DIR "/" + file.toStdString() + ".safetensors");
    const Config c = call_of(golden.meta("call"));
    const StateDict weights = state_dict_from_file(golden, c, WeightLayout::Torch);
    const Equivalence e = check_equivalence(c, weights, *golden.find("x"));
    QVERIFY2(e.equivalent(), qPrintable(QString::number(e.max_abs_diff)));
    // The wrapper's concatenation is PyTorch's merged context, within the golden tolerance.
    const std::string diff = testing::compare_tensors(e.concatenated, *golden.find("expected.context.merged"));
    QVERIFY2(diff.empty(), diff.c_str());
}

void TestEquivalence::slices_are_exact_rows()
{
    const Config c = call_of("MultiHeadAttention(5, 6, 9, 0.0, 3, qkv_bias=True)");
    const StateDict weights = init_weights(c, 7);
    std::vector<SliceCopy> copies;
    const StateDict wrapper = slice_into_wrapper(c, weights, &copies);
    QCOMPARE(wrapper.size(), std::size_t(3 * 6));
    QCOMPARE(copies.size(), wrapper.size());
    for (const SliceCopy& copy : copies) {
        const Tensor& part = wrapper.at(copy.wrapper_name);
        const Tensor& whole = weights.at(copy.integrated_name);
        QCOMPARE(part.size(0), copy.row_end - copy.row_begin);
        const std::int64_t width = whole.dim() == 2 ? whole.size(1) : 1;
        const std::vector<float> p = part.to_vector(), w = whole.to_vector();
        for (std::int64_t i = 0; i < part.numel(); ++i)
            QCOMPARE(p[std::size_t(i)], w[std::size_t(copy.row_begin * width + i)]);
    }
    QCOMPARE(wrapper.at("heads.2.W_value.bias").to_vector(),
             (std::vector<float>{weights.at("W_value.bias").at({4}), weights.at("W_value.bias").at({5})}));
}

void TestEquivalence::swapped_slices_disagree()
{
    const Config c = call_of("MultiHeadAttention(4, 6, 6, 0.0, 3)");
    const StateDict weights = init_weights(c, 11);
    StateDict wrapper = slice_into_wrapper(c, weights);
    std::swap(wrapper.at("heads.0.W_query.weight"), wrapper.at("heads.1.W_query.weight"));
    const Tensor x = random_input(c, 2, 6, 3);
    const Tensor merged = trace_forward(c, weights, x).find("context.merged")->tensor;
    const Tensor out = trace_forward(matched_wrapper_config(c), wrapper, x).output();
    const std::string diff = testing::compare_tensors(out, merged);
    QVERIFY2(!diff.empty(), "heads given each other's query rows should not reproduce context.merged");
}

void TestEquivalence::refusals_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QString>("message_has");
    QTest::newRow("not-divisible") << "MultiHeadAttention(768, 770, 1024, 0.0, 12)" << 6 << "cannot be split evenly";
    QTest::newRow("wrapper-call") << "MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)" << 6
                                  << "MultiHeadAttention or GroupedQueryAttention call";
    QTest::newRow("tokens-over-context") << "MultiHeadAttention(3, 2, 6, 0.0, 2)" << 7 << "context_length";
    QTest::newRow("over-budget") << "MultiHeadAttention(768, 768, 100000, 0.0, 12)" << 100000 << "memory budget";
}

void TestEquivalence::refusals()
{
    QFETCH(QString, call);
    QFETCH(int, tokens);
    QFETCH(QString, message_has);
    ExperimentSpec spec;
    spec.config = call_of(call.toStdString());
    spec.num_tokens = tokens;
    const QString message = error_of([&] { check_equivalence(spec); });
    QVERIFY2(message.contains(message_has), qPrintable(message));
}

// The Designs tab cancels a check that a newer request overtook.
void TestEquivalence::a_set_cancel_flag_stops_the_check()
{
    ExperimentSpec spec;
    spec.config = call_of("MultiHeadAttention(20, 64, 16, 0.0, 16)");
    spec.num_tokens = 8;
    std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(Cancelled, check_equivalence(spec, &cancel));
    cancel = false;
    QVERIFY(check_equivalence(spec, &cancel).equivalent());
}

QTEST_GUILESS_MAIN(TestEquivalence)
#include "test_equivalence.moc"
