// The shipped GPT trained here on the induction task (resources/models/induction-gpt-h4): found by its short
// name, made by the command its README gives, and with heads that differ clearly, as core measures them on the
// sequence the app shows it first (a run of letters and its copy): a previous-token head in layer 0, induction heads in
// layer 1. Lesson 8 and the overview's default rest on these numbers; the Verdict GPTs' heads differ by hundredths.
#include "forward/trace.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_text.h"
#include "gpt/head_measures.h"
#include "gpt/model_paths.h"

#include <QtTest>

#include <algorithm>

using namespace attnlab;

namespace {

struct LayerHeads {
    std::vector<HeadMeasures> measures;
    std::vector<std::optional<double>> induction;
};

LayerHeads headsOf(const GptModel& model, const std::vector<std::int64_t>& ids, int layer)
{
    const GptLayerInput in = gpt_layer_input(model, ids, layer);
    const Trace trace = trace_forward(in.config, in.weights, in.x);
    const Tensor& w = trace.find("attn_weights")->tensor;
    return {head_measures(w), induction_scores(w, ids)};
}

} // namespace

class TestInductionModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void found_by_name();
    void made_by_the_trainer();
    void heads_differ_clearly();
};

void TestInductionModel::found_by_name()
{
    const std::vector<std::string> dirs{ATTNLAB_MODELS_DIR};
    const std::string want = ATTNLAB_MODELS_DIR "/induction-gpt-h4.safetensors";
    for (const char* name : {"induction-h4", "induction-gpt-h4", "induction-gpt-h4.safetensors"})
        QCOMPARE(resolve_gpt_model(name, dirs), want);
    QCOMPARE(induction_model_name(), std::string("induction-gpt-h4"));
    // h4 stays the Verdict GPT.
    QCOMPARE(resolve_gpt_model("h4", dirs), std::string(ATTNLAB_MODELS_DIR "/verdict-gpt-h4.safetensors"));
}

// What the README's command writes: the trainer's settings and seed, no timing (so the file is the seed's, byte
// for byte, on this build).
void TestInductionModel::made_by_the_trainer()
{
    const GptModel m = load_gpt_model(ATTNLAB_MODELS_DIR "/induction-gpt-h4.safetensors");
    QCOMPARE(m.meta("trainer"), std::string("attention-lab-cli train (core/train)"));
    QCOMPARE(m.meta("task"), std::string("induction"));
    QCOMPARE(m.meta("tokenizer"), std::string("letters"));
    QCOMPARE(m.meta("seed"), std::string("0"));
    QCOMPARE(m.meta("training_steps"), std::string("2000"));
    QCOMPARE(m.meta("ms_per_step"), std::string());
    QCOMPARE(m.settings.n_heads, 4);
    QCOMPARE(m.settings.n_layers, 2);
    QCOMPARE(m.settings.emb_dim, 32);
    QVERIFY(m.meta_number("val_accuracy") > 0.85);
}

void TestInductionModel::heads_differ_clearly()
{
    const GptModel m = load_gpt_model(ATTNLAB_MODELS_DIR "/induction-gpt-h4.safetensors");
    const TokenizedText tokens = tokenize_for(m, example_text(m)); // what the app shows it first
    QCOMPARE(static_cast<std::int64_t>(tokens.ids.size()), m.settings.context_length);
    const LayerHeads l0 = headsOf(m, tokens.ids, 0), l1 = headsOf(m, tokens.ids, 1);
    QCOMPARE(l0.measures.size(), std::size_t{4});
    double previous = 0.0;
    for (const HeadMeasures& h : l0.measures)
        previous = std::max(previous, h.previous);
    QVERIFY2(previous > 0.9, qPrintable(QString("layer 0's best previous-token share is %1").arg(previous)));
    for (std::size_t h = 0; h < l1.induction.size(); ++h) {
        QVERIFY2(l1.induction[h].has_value(), "the sequence repeats a run");
        QVERIFY2(*l1.induction[h] > 0.85,
                 qPrintable(QString("layer 1 head %1's induction score is %2").arg(h).arg(*l1.induction[h])));
        QVERIFY2(l1.measures[h].previous < 0.2, "an induction head looks past the previous token");
    }
}

QTEST_MAIN(TestInductionModel)
#include "test_induction_model.moc"
