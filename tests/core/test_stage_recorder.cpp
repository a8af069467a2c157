// The one StageRecorder both forwards use: it gives a stage its prefixed name, facts, code line, axes
// and expected shape, names the stage being computed for a failure, and honours a cancel at the next
// stage.
#include "forward/stage_recorder.h"
#include "tensor/error.h"

#include <QtTest>

#include <atomic>

using namespace attnlab;

namespace {

Config module(ModuleKind kind)
{
    Config c;
    c.kind = kind;
    c.d_in = 6;
    c.d_out = 4;
    c.context_length = 16;
    c.num_heads = 2;
    return c;
}

} // namespace

class TestStageRecorder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void a_recorded_stage_carries_its_name_facts_and_shape()
    {
        const Config wrapper = module(ModuleKind::MultiHeadAttentionWrapper);
        Config head = wrapper;
        head.kind = ModuleKind::CausalAttention;
        std::vector<Stage> stages;
        StageRecorder rec(stages, head, wrapper.kind, InputShape{2, 5}, head_prefix(1));
        QCOMPARE(rec.current(), head_prefix(1) + stage::x); // before anything is begun
        const Tensor scores = Tensor::zeros({2, 5, 5});
        const Tensor held = rec.add(stage::attn_scores, scores);
        QVERIFY(held.shares_storage_with(scores));
        rec.begin(stage::attn_scores_masked);
        QCOMPARE(rec.current(), std::string("heads.1.attn_scores.masked"));
        rec.add(scores, stage::attn_scores); // a removed line: the stage holds the previous value
        QCOMPARE(stages.size(), std::size_t(2));
        const Stage& masked = stages.back();
        QCOMPARE(masked.name, std::string("heads.1.attn_scores.masked"));
        QCOMPARE(masked.view_of, std::string("heads.1.attn_scores"));
        QCOMPARE(masked.head, 1);
        QVERIFY(masked.matrix == AttentionMatrix::MaskedScores);
        QCOMPARE(masked.expected_shape, (Shape{2, 5, 5}));
        QCOMPARE(masked.code_line, source_line(wrapper.kind, masked.name));
        QVERIFY(masked.code_line >= 0);
        QVERIFY(stages.front().view_of.empty());
    }

    void a_cancel_stops_before_the_next_stage()
    {
        const Config c = module(ModuleKind::MultiHeadAttention);
        std::vector<Stage> stages;
        std::atomic<bool> cancel{false};
        StageRecorder rec(stages, c, c.kind, InputShape{1, 3}, {}, &cancel);
        rec.add(stage::x, Tensor::zeros({1, 3, 6}));
        cancel = true;
        QVERIFY_THROWS_EXCEPTION(Cancelled, rec.add(stage::queries, Tensor::zeros({1, 3, 4})));
        QCOMPARE(stages.size(), std::size_t(1));
        QCOMPARE(stages.front().expected_shape, (Shape{1, 3, 6}));
    }
};

QTEST_APPLESS_MAIN(TestStageRecorder)
#include "test_stage_recorder.moc"
