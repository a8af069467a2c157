// The traced forward beyond the golden files: stage order and names, views and strides,
// dropout in training mode, the memory estimate against what a trace really holds, and cancelling.
#include "forward/attention_kernels.h"
#include "forward/experiment_check.h"
#include "tensor/error.h"
#include "forward/trace.h"
#include "io/weights.h"

#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <optional>
#include <thread>

using namespace attnlab;

namespace {
Config mha(std::int64_t d_in, std::int64_t d_out, std::int64_t heads, double dropout = 0.0)
{
    Config c;
    c.kind = ModuleKind::MultiHeadAttention;
    c.d_in = d_in;
    c.d_out = d_out;
    c.context_length = 64;
    c.dropout = dropout;
    c.num_heads = heads;
    return c;
}

Trace run(const Config& c, std::int64_t batch, std::int64_t tokens, ForwardOptions options = {})
{
    return trace_forward(c, init_weights(c, 1), random_input(c, batch, tokens, 2), options);
}
} // namespace

class TestTrace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stage_names_match_the_trace_data();
    void stage_names_match_the_trace();
    void views_share_storage_and_carry_strides();
    void dropout_zeroes_and_rescales();
    void dropout_is_identity_in_eval_mode();
    void memory_estimate_covers_the_trace();
    void memory_estimate_counts_every_stage_row_data();
    void memory_estimate_counts_every_stage_row();
    void causal_blocks_match_full_products();
    void a_cancel_flag_stops_the_pass_or_changes_nothing_data();
    void a_cancel_flag_stops_the_pass_or_changes_nothing();
};

void TestTrace::stage_names_match_the_trace_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<bool>("training");
    QTest::newRow("mha") << int(ModuleKind::MultiHeadAttention) << false;
    QTest::newRow("mha-dropout") << int(ModuleKind::MultiHeadAttention) << true;
    QTest::newRow("wrapper") << int(ModuleKind::MultiHeadAttentionWrapper) << false;
    QTest::newRow("wrapper-dropout") << int(ModuleKind::MultiHeadAttentionWrapper) << true;
    QTest::newRow("causal") << int(ModuleKind::CausalAttention) << true;
    QTest::newRow("self-v1") << int(ModuleKind::SelfAttentionV1) << false;
    QTest::newRow("self-v2") << int(ModuleKind::SelfAttentionV2) << false;
}

void TestTrace::stage_names_match_the_trace()
{
    QFETCH(int, kind);
    QFETCH(bool, training);
    Config c = mha(6, 4, 2, training ? 0.5 : 0.0);
    c.kind = static_cast<ModuleKind>(kind);
    ForwardOptions options;
    options.training = training;
    const Trace t = run(c, 2, 5, options);
    std::vector<std::string> names;
    for (const auto& s : t.stages) {
        names.push_back(s.name);
        QCOMPARE(s.tensor.shape(), s.expected_shape);
        QVERIFY2(s.code_line >= 0, s.name.c_str());
    }
    QCOMPARE(names, stage_names(c, training && c.is_causal()));
}

void TestTrace::views_share_storage_and_carry_strides()
{
    const Trace t = run(mha(8, 12, 3), 2, 5);
    const Stage* q = t.find("queries");
    const Stage* heads = t.find("queries.heads");
    const Stage* ctx = t.find("context.heads");
    const Stage* transposed = t.find("context.transposed");
    const Stage* merged = t.find("context.merged");
    QVERIFY(q && heads && ctx && transposed && merged);
    QVERIFY(heads->tensor.shares_storage_with(q->tensor));
    QCOMPARE(heads->view_of, std::string("queries"));
    QCOMPARE(heads->tensor.strides(), (Shape{60, 4, 12, 1}));
    QVERIFY(!heads->tensor.is_contiguous());
    QVERIFY(transposed->tensor.shares_storage_with(ctx->tensor));
    QVERIFY(!transposed->tensor.is_contiguous());
    QVERIFY(!merged->tensor.shares_storage_with(ctx->tensor));
    QCOMPARE(merged->tensor.to_vector(), transposed->tensor.to_vector()); // contiguous() copies the same values
}

void TestTrace::dropout_zeroes_and_rescales()
{
    const double p = 0.4;
    ForwardOptions options;
    options.training = true;
    TorchGenerator gen(9);
    options.generator = &gen;
    const Trace t = run(mha(8, 8, 2, p), 1, 16, options);
    const std::vector<float> w = t.find("attn_weights")->tensor.to_vector();
    const std::vector<float> d = t.find("attn_weights.dropout")->tensor.to_vector();
    int dropped = 0, kept = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (w[i] == 0.0f)
            continue; // masked: stays zero either way
        if (d[i] == 0.0f)
            ++dropped;
        else {
            ++kept;
            QVERIFY(std::fabs(d[i] - w[i] / (1 - p)) <= 1e-6f * std::fabs(d[i]) + 1e-7f);
        }
    }
    QVERIFY(dropped > 20 && kept > 20); // 272 unmasked weights, p = 0.4
    // The context is computed from the dropped-out weights, not the plain ones.
    const Trace eval = run(mha(8, 8, 2, p), 1, 16);
    QVERIFY(t.find("context.heads")->tensor.to_vector() != eval.find("context.heads")->tensor.to_vector());
}

void TestTrace::dropout_is_identity_in_eval_mode()
{
    const Trace t = run(mha(8, 8, 2, 0.3), 1, 6);
    QVERIFY(!t.find("attn_weights.dropout"));
}

void TestTrace::memory_estimate_covers_the_trace()
{
    const Config c = mha(20, 24, 4);
    const Trace t = run(c, 3, 17);
    std::set<const float*> seen;
    std::uint64_t bytes = 0;
    for (const auto& s : t.stages)
        if (s.view_of.empty() && seen.insert(s.tensor.data()).second)
            bytes += static_cast<std::uint64_t>(s.tensor.numel()) * 4;
    bytes += static_cast<std::uint64_t>(parameter_count(c)) * 4;
    const std::uint64_t estimate = estimate_memory_bytes(c, {3, 17});
    QVERIFY2(estimate >= bytes, qPrintable(QString("%1 < %2").arg(estimate).arg(bytes)));
    QVERIFY(estimate <= bytes * 11 / 10);
}

void TestTrace::memory_estimate_counts_every_stage_row_data()
{
    QTest::addColumn<int>("kind");
    for (ModuleKind kind :
         {ModuleKind::SimpleSelfAttention, ModuleKind::SelfAttentionV1, ModuleKind::SelfAttentionV2,
          ModuleKind::CausalAttention, ModuleKind::MultiHeadAttention, ModuleKind::MultiHeadAttentionWrapper})
        QTest::newRow(module_class_name(kind).c_str()) << static_cast<int>(kind);
}

// The estimate walks the stage table: every stage the forward records is one counted row, with its own
// values unless it only re-lays out another stage; a row that starts being recorded (dropout) adds its bytes.
void TestTrace::memory_estimate_counts_every_stage_row()
{
    QFETCH(int, kind);
    Config c = mha(6, 4, 2, 0.5);
    c.kind = static_cast<ModuleKind>(kind);
    const bool batched = c.is_batched();
    const InputShape input{batched ? 3 : 1, 9};
    ForwardOptions training;
    training.training = true;
    const Trace t = trace_forward(c, init_weights(c, 1), random_input(c, input.batch, input.num_tokens, 2), training);
    const TraceFootprint f = trace_footprint(c, input);
    QCOMPARE(f.stage_count, static_cast<std::uint64_t>(t.stages.size()));
    std::set<const float*> seen{t.stages.front().tensor.data()}; // x is the experiment's input, counted apart
    std::uint64_t owned = 0, largest = 0;
    for (const auto& s : t.stages) {
        const auto bytes = static_cast<std::uint64_t>(s.tensor.numel()) * 4;
        largest = std::max(largest, bytes);
        if (s.view_of.empty() && seen.insert(s.tensor.data()).second)
            owned += bytes;
    }
    QCOMPARE(f.stage_data, owned);
    QCOMPARE(f.largest_stage, largest);
    QCOMPARE(f.weight_data, static_cast<std::uint64_t>(parameter_count(c)) * 4);
    QVERIFY(f.stages >= owned + f.stage_count * sizeof(Stage));
    QVERIFY(estimate_request_bytes(c, input) >= f.weights + f.input + f.stages);

    if (!c.is_causal())
        return;
    Config eval = c;
    eval.dropout = 0.0; // the dropout row is no longer recorded
    const bool wrapper = c.kind == ModuleKind::MultiHeadAttentionWrapper;
    const Stage* drop = t.find(wrapper ? "heads.0.attn_weights.dropout" : "attn_weights.dropout");
    QVERIFY(drop);
    const std::uint64_t dropped = static_cast<std::uint64_t>(drop->tensor.numel()) * 4 * (wrapper ? c.num_heads : 1);
    QCOMPARE(estimate_memory_bytes(c, input) - estimate_memory_bytes(eval, input), dropped);
    QVERIFY(estimate_request_bytes(c, input) - estimate_request_bytes(eval, input) >= dropped);
    QCOMPARE(trace_footprint(eval, input).stage_count + (wrapper ? c.num_heads : 1), f.stage_count);
}

void TestTrace::causal_blocks_match_full_products()
{
    // 300 tokens spans several 128-row blocks of the causal context product.
    const HeadLayout l{1, 2, 300, 8};
    std::vector<float> q(300 * 16), k(300 * 16), v(300 * 16);
    for (std::size_t i = 0; i < q.size(); ++i) {
        q[i] = std::sin(0.37f * i);
        k[i] = std::cos(0.11f * i);
        v[i] = std::sin(0.05f * i + 1);
    }
    std::vector<float> s(2 * 300 * 300), m(s.size()), w(s.size()), c(2 * 300 * 8);
    attention_heads(q.data(), k.data(), v.data(), l, true, {s.data(), m.data(), w.data(), c.data()});
    for (std::int64_t h = 0; h < 2; ++h)
        for (std::int64_t i : {0, 127, 128, 200, 299}) {
            for (std::int64_t d = 0; d < 8; ++d) {
                double ref = 0;
                for (std::int64_t j = 0; j <= i; ++j)
                    ref += double(w[(h * 300 + i) * 300 + j]) * v[j * 16 + h * 8 + d];
                QVERIFY(std::fabs(c[(h * 300 + i) * 8 + d] - ref) < 1e-5);
            }
            QCOMPARE(w[(h * 300 + i) * 300 + std::min<std::int64_t>(i + 1, 299)],
                     i == 299 ? w[(h * 300 + i) * 300 + 299] : 0.0f);
        }
}

void TestTrace::a_cancel_flag_stops_the_pass_or_changes_nothing_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("when"); // "before": set before the call; "never"; "during": from another thread
    for (const auto& [name, kind] :
         {std::pair{"mha", ModuleKind::MultiHeadAttention}, std::pair{"wrapper", ModuleKind::MultiHeadAttentionWrapper},
          std::pair{"causal", ModuleKind::CausalAttention}, std::pair{"self-v1", ModuleKind::SelfAttentionV1}})
        for (const char* when : {"before", "never", "during"})
            QTest::newRow(qPrintable(QStringLiteral("%1, set %2").arg(name, when))) << int(kind) << QString(when);
}

void TestTrace::a_cancel_flag_stops_the_pass_or_changes_nothing()
{
    QFETCH(int, kind);
    QFETCH(QString, when);
    Config c = mha(64, 64, 4);
    c.kind = static_cast<ModuleKind>(kind);
    c.context_length = 512;
    const std::int64_t batch = 3, tokens = when == "during" ? 512 : 40;
    std::atomic<bool> cancel{when == "before"};
    ForwardOptions options;
    options.cancel = &cancel;
    std::thread setter([&] {
        if (when == "during") {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            cancel = true;
        }
    });
    std::optional<Trace> trace;
    bool cancelled = false;
    try {
        trace = run(c, batch, tokens, options);
    } catch (const Cancelled&) {
        cancelled = true;
    }
    setter.join();
    if (when == "before")
        QVERIFY(cancelled);
    if (when == "never")
        QVERIFY(!cancelled);
    // Either nothing comes out, or the whole trace does, equal to one run without a flag (cancellable
    // runs take the attention core one batch element at a time: the numbers must not change).
    QVERIFY(cancelled != trace.has_value());
    if (trace) {
        const Trace plain = run(c, batch, tokens);
        QCOMPARE(trace->stages.size(), plain.stages.size());
        for (std::size_t i = 0; i < plain.stages.size(); ++i) {
            const Tensor& a = trace->stages[i].tensor;
            const Tensor& b = plain.stages[i].tensor;
            QCOMPARE(a.shape(), b.shape());
            // Not bit for bit: Eigen's vectorised sums start at the first aligned element, so two runs
            // whose buffers sit at different addresses may round differently in the last place.
            const Tensor ca = a.contiguous(), cb = b.contiguous();
            const bool close = std::equal(ca.data(), ca.data() + ca.numel(), cb.data(), [](float p, float q) {
                return p == q || std::fabs(p - q) <= 1e-6f * std::max(1.0f, std::fabs(q));
            });
            QVERIFY2(close, plain.stages[i].name.c_str());
        }
    }
}

QTEST_GUILESS_MAIN(TestTrace)
#include "test_trace.moc"
