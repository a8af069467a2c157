// The KV cache against the full forward: greedy generation token by token with the cache gives the logits of
// gpt_forward over the whole sequence at every step (per step and all rows at once) to 1e-5, on the shipped
// Verdict GPT h4, the induction model and GPTs built from a seeded random init (with and without qkv_bias);
// each layer's cached keys and values are the full forward's keys.heads and values.heads; the bytes held are
// the tensors' own; what cannot be generated is refused before anything runs.
#include "common/errors.h"
#include "forward/stage_names.h"
#include "forward/trace.h"
#include "gpt/gpt_forward.h"
#include "gpt/kv_cache.h"
#include "gpt/kv_generate.h"
#include "train/gpt_params.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace attnlab;

namespace {

constexpr double kTol = 1e-5;

// torch.manual_seed(seed); GPTModel(cfg), its state_dict as a GptModel.
GptModel random_gpt(bool qkv_bias, std::uint64_t seed)
{
    GptConfig c;
    c.vocab_size = 40;
    c.context_length = 24;
    c.emb_dim = 48;
    c.n_layers = 3;
    c.n_heads = 6;
    c.qkv_bias = qkv_bias;
    const GptLayout layout = gpt_layout(c);
    TorchGenerator gen(seed);
    const std::vector<float> params = init_gpt_params(layout, gen);
    GptModel m;
    m.name = "random-gpt";
    m.settings = c;
    for (const ParamEntry& e : layout.entries) {
        const auto first = params.begin() + static_cast<std::ptrdiff_t>(e.offset);
        m.weights[e.name] = Tensor::from_values(e.shape, {first, first + static_cast<std::ptrdiff_t>(e.size)});
    }
    return m;
}

GptModel model_named(const QString& name)
{
    if (name == "random")
        return random_gpt(false, 123);
    if (name == "random-qkv-bias")
        return random_gpt(true, 7);
    return load_gpt_model(ATTNLAB_MODELS_DIR "/" + name.toStdString() + ".safetensors");
}

// A prompt of `length` ids spread over the vocabulary, the same every run.
std::vector<std::int64_t> prompt_of(const GptModel& m, int length)
{
    std::vector<std::int64_t> ids;
    for (int i = 0; i < length; ++i)
        ids.push_back((7 * i + 3) % m.settings.vocab_size);
    return ids;
}

GenerateOptions options(std::int64_t tokens, bool cache = true, bool keep_logits = false,
                        const std::vector<std::int64_t>* follow = nullptr)
{
    GenerateOptions o;
    o.tokens = tokens;
    o.cache = cache;
    o.keep_logits = keep_logits;
    o.follow = follow;
    return o;
}

double max_difference(const float* a, const float* b, std::int64_t n)
{
    double most = 0;
    for (std::int64_t i = 0; i < n; ++i)
        most = std::max(most, std::abs(static_cast<double>(a[i]) - b[i]));
    return most;
}

} // namespace

class TestKvGenerate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void logits_match_full_forward_data();
    void logits_match_full_forward();
    void cached_keys_are_the_full_forward_keys_data();
    void cached_keys_are_the_full_forward_keys();
    void bytes_grow_by_one_token_a_step();
    void refusals_data();
    void refusals();
};

void TestKvGenerate::logits_match_full_forward_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("prompt");
    QTest::addColumn<int>("tokens"); // 0: up to the context length
    for (const char* model : {"verdict-gpt-h4", "induction-gpt-h4", "random", "random-qkv-bias"}) {
        QTest::addRow("%s one-token prompt", model) << model << 1 << 6;
        QTest::addRow("%s five-token prompt", model) << model << 5 << 4;
        QTest::addRow("%s one token to context", model) << model << 1 << 0;
        QTest::addRow("%s eight tokens to context", model) << model << 8 << 0;
        QTest::addRow("%s a single step", model) << model << 3 << 1;
    }
}

void TestKvGenerate::logits_match_full_forward()
{
    QFETCH(QString, model);
    QFETCH(int, prompt);
    QFETCH(int, tokens);
    const GptModel m = model_named(model);
    const std::vector<std::int64_t> ids = prompt_of(m, prompt);
    const std::int64_t n = tokens ? tokens : m.settings.context_length - prompt + 1;
    const Generation cached = generate_greedy(m, kBookLayerNormEps, ids, options(n, true, true));
    QCOMPARE(static_cast<std::int64_t>(cached.ids.size()), n);
    // Per step: gpt_forward over the whole sequence, fed the cached run's choices.
    const Generation full = generate_greedy(m, kBookLayerNormEps, ids, options(n, false, true, &cached.ids));
    const double per_step = max_logit_difference(cached, full);
    QVERIFY2(per_step <= kTol, qPrintable(QString("largest |difference| per step %1").arg(per_step)));
    QCOMPARE(full.ids, cached.ids);
    // All rows at once: row prompt - 1 + i of one forward over the final sequence is step i's.
    std::vector<std::int64_t> sequence = ids;
    sequence.insert(sequence.end(), cached.ids.begin(), cached.ids.end() - 1);
    GptForwardOptions all;
    all.all_logits = true;
    const GptForward f = gpt_forward(m, kBookLayerNormEps, sequence, all);
    const std::int64_t vocab = m.settings.vocab_size;
    for (std::int64_t i = 0; i < n; ++i) {
        const float* row = f.logits.data() + (prompt - 1 + i) * vocab;
        const double d = max_difference(cached.steps[static_cast<std::size_t>(i)].logits.data(), row, vocab);
        QVERIFY2(d <= kTol, qPrintable(QString("step %1: largest |difference| %2").arg(i).arg(d)));
        QCOMPARE(cached.steps[static_cast<std::size_t>(i)].tokens_seen, prompt + i);
    }
}

void TestKvGenerate::cached_keys_are_the_full_forward_keys_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("prompt");
    QTest::addColumn<int>("steps");
    QTest::addRow("verdict-gpt-h4 prompt only") << "verdict-gpt-h4" << 9 << 0;
    QTest::addRow("verdict-gpt-h4 after steps") << "verdict-gpt-h4" << 4 << 11;
    QTest::addRow("induction-gpt-h4 from one token") << "induction-gpt-h4" << 1 << 20;
    QTest::addRow("random-qkv-bias full context") << "random-qkv-bias" << 2 << 22;
}

void TestKvGenerate::cached_keys_are_the_full_forward_keys()
{
    QFETCH(QString, model);
    QFETCH(int, prompt);
    QFETCH(int, steps);
    const GptModel m = model_named(model);
    std::vector<std::int64_t> sequence = prompt_of(m, prompt);
    KvGenerator kv(m, kBookLayerNormEps, prompt + steps);
    std::vector<float> logits = kv.prefill(sequence);
    for (int i = 0; i < steps; ++i) {
        sequence.push_back(std::max_element(logits.begin(), logits.end()) - logits.begin());
        logits = kv.step(sequence.back());
    }
    QCOMPARE(kv.tokens(), static_cast<std::int64_t>(sequence.size()));
    GptForwardOptions traced;
    for (int l = 0; l < m.settings.n_layers; ++l)
        traced.full_traces.push_back(l);
    const GptForward f = gpt_forward(m, kBookLayerNormEps, sequence, traced);
    for (int l = 0; l < kv.n_layers(); ++l) {
        const Trace& trace = *f.layers[static_cast<std::size_t>(l)].trace;
        for (const char* stage : {stage::keys_heads, stage::values_heads}) {
            const Tensor expected = trace.find(stage)->tensor.contiguous(); // (1, H, T, hd)
            const Tensor got = stage == stage::keys_heads ? kv.layer(l).keys() : kv.layer(l).values();
            QCOMPARE(got.shape(), Shape(expected.shape().begin() + 1, expected.shape().end()));
            const double d = max_difference(got.data(), expected.data(), got.numel());
            QVERIFY2(d <= kTol, qPrintable(QString("layer %1 %2: largest |difference| %3").arg(l).arg(stage).arg(d)));
        }
    }
}

void TestKvGenerate::bytes_grow_by_one_token_a_step()
{
    const GptModel m = model_named("verdict-gpt-h4");
    const Generation g = generate_greedy(m, kBookLayerNormEps, prompt_of(m, 3), options(5));
    const std::uint64_t per_token = 2ull * m.weights.at("trf_blocks.0.att.W_key.weight").numel() / m.settings.emb_dim *
                                    m.settings.n_layers * sizeof(float);
    for (const GenerateStep& s : g.steps) {
        QCOMPARE(s.cache_bytes, per_token * static_cast<std::uint64_t>(s.tokens_seen));
        QVERIFY(s.ms >= 0);
    }
    QCOMPARE(g.steps.back().tokens_seen, 3 + 5 - 1);
}

void TestKvGenerate::refusals_data()
{
    QTest::addColumn<int>("case_");
    QTest::addColumn<QString>("says");
    QTest::addRow("past the context") << 0 << "reads at most 64";
    QTest::addRow("empty prompt") << 1 << "no tokens";
    QTest::addRow("bad id") << 2 << "outside verdict-gpt-h4's vocabulary";
    QTest::addRow("no tokens asked") << 3 << "ask for 1 to";
    QTest::addRow("cache over budget") << 4 << "more than the";
    QTest::addRow("step before the prompt") << 5 << "cache is empty";
    QTest::addRow("bad id in a step") << 6 << "outside verdict-gpt-h4's vocabulary";
    QTest::addRow("cache past the context") << 7 << "takes 1 to 64";
}

void TestKvGenerate::refusals()
{
    QFETCH(int, case_);
    QFETCH(QString, says);
    const GptModel m = model_named("verdict-gpt-h4");
    const QString error = testing::error_of([&] {
        switch (case_) {
        case 0: generate_greedy(m, kBookLayerNormEps, prompt_of(m, 10), options(56)); break;
        case 1: generate_greedy(m, kBookLayerNormEps, {}, options(1)); break;
        case 2: generate_greedy(m, kBookLayerNormEps, {1, 1132}, options(1)); break;
        case 3: generate_greedy(m, kBookLayerNormEps, {1}, options(0)); break;
        case 4: {
            GenerateOptions small = options(3);
            small.budget = 1000;
            generate_greedy(m, kBookLayerNormEps, {1}, small);
            break;
        }
        case 5: KvGenerator(m, kBookLayerNormEps, 4).step(1); break;
        case 6: {
            KvGenerator kv(m, kBookLayerNormEps, 4);
            kv.prefill({1, 2});
            kv.step(-1);
            break;
        }
        default: KvGenerator(m, kBookLayerNormEps, 65); break;
        }
    });
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY(!error.contains('\n'));
}

QTEST_GUILESS_MAIN(TestKvGenerate)
#include "test_kv_generate.moc"
