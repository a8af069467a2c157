// The stage table is the one declaration of every stage: its rows are the name constants, each stage
// any module records has a row with a caption and a line of code, a wrapper head's prefix reads back
// as its head, the bug lesson's forward records the same names and axes as the traced one, the
// first-divergence order is the code's (the trace's), and the pre-allocation refusals are said once.
#include "forward/experiment.h"
#include "forward/trace.h"
#include "io/weights.h"
#include "lessons/divergence.h"
#include "tensor/error.h"

#include <QtTest>

#include <limits>
#include <set>

using namespace attnlab;

namespace {

Config module(ModuleKind kind, double dropout = 0.0)
{
    Config c;
    c.kind = kind;
    c.d_in = 6;
    c.d_out = 4;
    c.context_length = 16;
    c.dropout = dropout;
    c.num_heads = 2;
    c.num_kv_groups = 1; // grouped-query attention: both query heads share one key/value head
    return c;
}

const ModuleKind kKinds[] = {ModuleKind::SelfAttentionV1,      ModuleKind::SelfAttentionV2,
                             ModuleKind::CausalAttention,      ModuleKind::MultiHeadAttentionWrapper,
                             ModuleKind::MultiHeadAttention,   ModuleKind::SimpleSelfAttention,
                             ModuleKind::GroupedQueryAttention};

Trace run(const Config& c, bool training)
{
    ForwardOptions options;
    options.training = training;
    return trace_forward(c, init_weights(c, 1), random_input(c, 2, 5, 2), options);
}

} // namespace

class TestStageTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void every_recorded_stage_has_a_row_a_caption_and_a_line()
    {
        for (ModuleKind kind : kKinds)
            for (bool training : {false, true}) {
                const Config c = module(kind, training ? 0.5 : 0.0);
                const Trace t = run(c, training);
                for (const Stage& s : t.stages) {
                    QVERIFY2(s.row, s.name.c_str());
                    QCOMPARE(std::string(s.row->base_name), s.base_name);
                    QVERIFY2(!stage_caption(s.base_name, t.config).empty(), s.name.c_str());
                    QVERIFY2(s.code_line >= 0, s.name.c_str());
                    QCOMPARE(s.axes.size(), s.tensor.shape().size());
                    if (s.layout != LayoutOp::None)
                        QVERIFY2(t.find(s.derived_from), s.name.c_str());
                }
            }
    }

    void every_row_is_recorded_somewhere()
    {
        std::set<std::string> seen;
        for (ModuleKind kind : kKinds)
            for (const auto& name : stage_names(module(kind, 0.5), true))
                seen.insert(stage_facts(name).base_name);
        for (const auto& row : stage_table()) {
            QVERIFY2(seen.count(std::string(row.base_name)), std::string(row.base_name).c_str());
            QVERIFY(row.caption);
            QVERIFY(!row.source_text.empty());
            if (row.layout != LayoutOp::None)
                QVERIFY(stage_row(row.derived_from));
        }
    }

    void the_constants_are_the_tables_rows()
    {
        const auto& table = stage_table();
        QCOMPARE(table.size(), stage::all.size());
        for (std::size_t i = 0; i < table.size(); ++i)
            QCOMPARE(std::string(table[i].base_name), std::string(stage::all[i]));
        // Spelled as the golden README and PyTorch's reference scripts spell them.
        QCOMPARE(std::string(stage::attn_scores_masked), std::string("attn_scores.masked"));
        QCOMPARE(std::string(stage::context_transposed), std::string("context.transposed"));
        QCOMPARE(std::string(stage::key_projection.split), std::string("keys.view"));
        QCOMPARE(std::string(stage::value_projection.heads_first), std::string("values.heads"));
    }

    void a_head_prefix_reads_back_as_its_head()
    {
        const std::string name = head_prefix(12) + stage::attn_weights;
        QCOMPARE(name, std::string("heads.12.attn_weights"));
        const auto found = find_head_prefix(name);
        QVERIFY(found);
        QCOMPARE(found->head, 12);
        QCOMPARE(found->length, head_prefix(12).size());
        for (const char* none : {"attn_weights", "heads.x.keys", "heads..keys", "heads.3", "head.3.keys", ""})
            QVERIFY2(!find_head_prefix(none), none);
        const StageFacts facts = stage_facts(head_prefix(3) + stage::attn_scores_masked);
        QCOMPARE(facts.head, 3);
        QCOMPARE(facts.base_name, std::string(stage::attn_scores_masked));
        QVERIFY(facts.matrix == AttentionMatrix::MaskedScores);
        QCOMPARE(stage_facts(stage::keys_heads).derived_from, std::string(stage::keys_view));
        QCOMPARE(stage_facts(stage::keys_heads).head, -1);
    }

    void the_bug_forward_records_the_traced_names_and_axes()
    {
        const Config c = module(ModuleKind::MultiHeadAttention);
        const StateDict w = init_weights(c, 1);
        const Tensor x = random_input(c, 2, 5, 2);
        const Trace t = trace_forward(c, w, x);
        const BugTrace b = run_with_bug(c, w, x, Bug::None);
        QCOMPARE(b.stages.size(), t.stages.size());
        for (const Stage& s : b.stages) {
            const Stage* traced = t.find(s.name);
            QVERIFY2(traced, s.name.c_str());
            QVERIFY(s.axes == traced->axes);
            QCOMPARE(s.expected_shape, traced->expected_shape);
            QCOMPARE(s.code_line, traced->code_line);
            QCOMPARE(s.layout, traced->layout);
        }
    }

    // Lesson 5 walks the stages in the order the book's code computes them (keys are projected, viewed and
    // transposed before queries), the order the trace records and the stepper steps through.
    void divergence_reads_the_stages_in_the_code_order()
    {
        std::set<std::string> table_rows;
        for (const auto& row : stage_table())
            if (!row.integrated.empty() && !row.training_only)
                table_rows.insert(std::string(row.base_name));
        const std::vector<std::string>& order = divergence_stage_order();
        QCOMPARE(std::set<std::string>(order.begin(), order.end()), table_rows);
        std::vector<std::string> traced;
        for (const Stage& s : run(module(ModuleKind::MultiHeadAttention), false).stages)
            traced.push_back(s.name);
        QCOMPARE(order, traced);
        const std::vector<std::string> head = {
            "x",          "keys",          "queries",      "values",     "keys.view", "values.view", "queries.view",
            "keys.heads", "queries.heads", "values.heads", "attn_scores"};
        QCOMPARE(std::vector<std::string>(order.begin(), order.begin() + 11), head);
        QCOMPARE(order.back(), std::string("output"));
        const Config c = module(ModuleKind::MultiHeadAttention);
        const Diagnosis d = diagnose(c, init_weights(c, 1), random_input(c, 2, 5, 2), Bug::SkipMask);
        std::vector<std::string> compared;
        for (const auto& row : d.stages)
            compared.push_back(row.stage);
        QCOMPARE(compared, order);
        // The buggy forward records in the same order, so the first stage a missing transpose changes is
        // the keys' transpose, the first the code runs.
        const Diagnosis t = diagnose(c, init_weights(c, 1), random_input(c, 2, 5, 2), Bug::SkipHeadTranspose);
        QVERIFY(t.first);
        QCOMPARE(t.first->stage, std::string("keys.heads"));
        std::vector<std::string> buggy;
        for (const Stage& s : t.buggy.stages)
            buggy.push_back(s.name);
        QCOMPARE(std::vector<std::string>(buggy.begin(), buggy.begin() + 10),
                 std::vector<std::string>(order.begin(), order.begin() + 10));
    }

    void names_print_as_before()
    {
        QCOMPARE(std::string(axis_name(Axis::num_heads_x_d_out)), std::string("num_heads*d_out"));
        QCOMPARE(axes_text({Axis::b, Axis::num_tokens, Axis::d_out}), std::string("(b, num_tokens, d_out)"));
        QCOMPARE(std::string(status_name(DivergenceStatus::NotReached)), std::string("not-reached"));
        QCOMPARE(std::string(status_name(DivergenceStatus::Values)), std::string("values"));
        const Trace t = run(module(ModuleKind::SelfAttentionV2), false);
        QCOMPARE(axes_text(t.find("x")->axes), std::string("(num_tokens, d_in)")); // unbatched: no b
    }

    void refusals_are_said_once()
    {
        Config c = module(ModuleKind::MultiHeadAttention);
        c.context_length = 4096;
        const InputShape input{1, 4096};
        const auto refusals = experiment_refusals(c, input, 1 << 20);
        QCOMPARE(refusals.size(), std::size_t(1));
        QCOMPARE(refusals.front().code, DiagnosticCode::MemoryBudget);
        QVERIFY(refusals.front().message.find("memory budget") != std::string::npos);
        QCOMPARE(refusals.front().fixes.size(), std::size_t(1));
        const std::int64_t fit = refusals.front().fixes.front().value;
        QVERIFY(estimate_request_bytes(c, {1, fit}) <= (1u << 20));
        QVERIFY(estimate_request_bytes(c, {1, fit + 1}) > (1u << 20));

        ExperimentSpec spec;
        spec.config = c;
        spec.num_tokens = 4096;
        spec.memory_budget = 1 << 20;
        try {
            prepare(spec);
            QFAIL("prepare should refuse");
        } catch (const Error& e) {
            QCOMPARE(std::string(e.what()), refusals.front().message);
        }

        // A budget larger than the machine is held to the machine: what needs more is refused, not tried.
        const auto beyond = experiment_refusals(c, {1 << 20, 4096}, std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(beyond.size(), std::size_t(1));
        QVERIFY2(beyond.front().message.find("of memory this machine has") != std::string::npos,
                 beyond.front().message.c_str());

        c.num_heads = 3; // 4 features do not split into 3 heads: the config's error, not the budget's
        const auto split = experiment_refusals(c, input, 1 << 20);
        QVERIFY(!split.empty());
        QVERIFY(split.front().code != DiagnosticCode::MemoryBudget);

        QVERIFY(book_input_fits(module(ModuleKind::MultiHeadAttention), 6) == false); // d_in = 6
        c.d_in = 3;
        QVERIFY(book_input_fits(c, 6));
        QVERIFY(!book_input_fits(c, 5));
        QCOMPARE(head_count(module(ModuleKind::CausalAttention)), 1);
        QCOMPARE(head_count(module(ModuleKind::MultiHeadAttentionWrapper)), 2);
    }
};

QTEST_APPLESS_MAIN(TestStageTable)
#include "test_stage_table.moc"
