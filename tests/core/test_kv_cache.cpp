// The KV cache's arithmetic from the shape alone: bytes per token and per context (the sliding window's
// bound), parameters and multiply-adds per layer, a row per divisor of the query heads, every published
// config consistent, a call's module as a shape, and products beyond int64 refused with a sentence.
#include "common/errors.h"
#include "designs/kv_cache.h"
#include "designs/kv_cache_call.h"
#include "designs/published_configs.h"

#include <QtTest>

#include <functional>

Q_DECLARE_METATYPE(std::function<void()>)

using namespace attnlab;
using testing::error_of;

namespace {

// The example: d 4096, 32 heads of head_dim 128, 32 layers.
AttentionShape example(std::int64_t kv_heads)
{
    AttentionShape s;
    s.name = "example";
    s.layers = 32;
    s.d_model = 4096;
    s.num_heads = 32;
    s.num_kv_heads = kv_heads;
    s.head_dim = 128;
    s.context_length = 32768;
    return s;
}

} // namespace

class TestKvCache : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void bytes_data();
    void bytes();
    void sliding_window_bounds_the_tokens();
    void parameters_and_multiply_adds();
    void rows_are_every_divisor();
    void published_configs_are_consistent();
    void call_as_shape_data();
    void call_as_shape();
    void refusals_data();
    void refusals();
};

void TestKvCache::bytes_data()
{
    QTest::addColumn<std::int64_t>("kv_heads");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<std::int64_t>("per_token");
    QTest::addColumn<std::int64_t>("whole");
    // 32 layers x 2 x G x 128 x 2 bytes per token; 32,768 = 2^15 tokens: 2^34 = 17,179,869,184 bytes with 32
    // key/value heads (17.18 GB), 2^32 = 4,294,967,296 with 8 (4.29 GB).
    QTest::newRow("mha-bf16") << std::int64_t{32} << int(KvDtype::BF16) << std::int64_t{524288}
                              << std::int64_t{17179869184};
    QTest::newRow("gqa8-bf16") << std::int64_t{8} << int(KvDtype::BF16) << std::int64_t{131072}
                               << std::int64_t{4294967296};
    QTest::newRow("mqa-f16") << std::int64_t{1} << int(KvDtype::F16) << std::int64_t{16384} << std::int64_t{536870912};
    QTest::newRow("mha-f32") << std::int64_t{32} << int(KvDtype::F32) << std::int64_t{1048576}
                             << std::int64_t{34359738368};
}

void TestKvCache::bytes()
{
    QFETCH(std::int64_t, kv_heads);
    QFETCH(int, dtype);
    QFETCH(std::int64_t, per_token);
    QFETCH(std::int64_t, whole);
    const AttentionShape s = example(kv_heads);
    const KvDtype d = static_cast<KvDtype>(dtype);
    QCOMPARE(kv_bytes_per_token(s, d), per_token);
    QCOMPARE(kv_cache_bytes(s, d, 1, 32768), whole);
    QCOMPARE(kv_cache_bytes(s, d, 3, 32768), 3 * whole);
    QCOMPARE(kv_cache_bytes(s, d, 1, 1), per_token);
}

void TestKvCache::sliding_window_bounds_the_tokens()
{
    const AttentionShape* mistral = find_published_config("mistral-7b-v0.1");
    QVERIFY(mistral && mistral->sliding_window);
    const std::int64_t window = *mistral->sliding_window;
    const std::int64_t per_token = kv_bytes_per_token(*mistral, KvDtype::BF16);
    QCOMPARE(cached_tokens(*mistral, 100), std::int64_t{100});
    QCOMPARE(cached_tokens(*mistral, 32768), window);
    QCOMPARE(kv_cache_bytes(*mistral, KvDtype::BF16, 1, 32768), window * per_token);
    QCOMPARE(kv_cache_bytes(*mistral, KvDtype::BF16, 1, window - 1), (window - 1) * per_token);
    // The window also bounds the keys each token is scored against.
    QCOMPARE(multiply_adds_per_token(*mistral, 32768).scores, 32 * 128 * window);
}

void TestKvCache::parameters_and_multiply_adds()
{
    // GPT-2 small: c_attn 768 x 2304 + 2304, c_proj 768 x 768 + 768 = 2,362,368 (Hugging Face's count).
    const AttentionShape* gpt2 = find_published_config("gpt2-small");
    QVERIFY(gpt2);
    QCOMPARE(attention_parameters_per_layer(*gpt2), std::int64_t{768 * 2304 + 2304 + 768 * 768 + 768});
    // Llama-3-8B: W_q 4096 x 4096, W_k and W_v 4096 x 1024, out_proj 4096 x 4096, no biases.
    const AttentionShape* llama = find_published_config("llama-3-8b");
    QVERIFY(llama);
    QCOMPARE(attention_parameters_per_layer(*llama), std::int64_t{4096 * 4096 * 2 + 4096 * 1024 * 2});
    const TokenCost c = multiply_adds_per_token(*llama, 1000);
    QCOMPARE(c.projections, std::int64_t{4096 * (4096 + 2 * 1024)});
    QCOMPARE(c.scores, std::int64_t{32 * 128 * 1000});
    QCOMPARE(c.context, c.scores);
    QCOMPARE(c.out_proj, std::int64_t{4096 * 4096});
    QCOMPARE(c.total(), c.projections + 2 * c.scores + c.out_proj);
}

void TestKvCache::rows_are_every_divisor()
{
    const std::vector<KvHeadsRow> rows = kv_heads_rows(example(8), KvDtype::BF16, 1, 32768);
    const std::vector<std::int64_t> expected = {32, 16, 8, 4, 2, 1};
    QCOMPARE(rows.size(), expected.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(rows[i].kv_heads, expected[i]);
        QCOMPARE(rows[i].group_size, 32 / expected[i]);
        QCOMPARE(rows[i].is_config, expected[i] == 8);
        QCOMPARE(rows[i].bytes, kv_cache_bytes(example(expected[i]), KvDtype::BF16, 1, 32768));
    }
    QCOMPARE(kv_kind(32, 32), std::string("MHA"));
    QCOMPARE(kv_kind(32, 8), std::string("GQA"));
    QCOMPARE(kv_kind(32, 1), std::string("MQA"));
}

void TestKvCache::published_configs_are_consistent()
{
    QVERIFY(published_configs().size() >= 14);
    for (const AttentionShape& s : published_configs()) {
        const QByteArray name = QByteArray::fromStdString(s.name);
        QVERIFY2(s.num_heads % s.num_kv_heads == 0, name.constData());
        QVERIFY2(!s.source.empty(), name.constData());
        QCOMPARE(find_published_config(s.name), &s);
        QCOMPARE(kv_bytes_per_token(s, KvDtype::F32), s.layers * 2 * s.num_kv_heads * s.head_dim * 4);
    }
    // Gemma's head_dim is its own: 8 heads of 256 in a 2048-wide model.
    const AttentionShape* gemma = find_published_config("gemma-2b");
    QVERIFY(gemma);
    QCOMPARE(gemma->head_dim, std::int64_t{256});
    QVERIFY(!find_published_config("gpt-5"));
}

void TestKvCache::call_as_shape_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<std::int64_t>("heads");
    QTest::addColumn<std::int64_t>("head_dim");
    QTest::addColumn<std::int64_t>("parameters"); // of the PyTorch module, counted as its __init__ builds it
    // MultiHeadAttention(768, 768, 1024, 0.0, 12): W_q, W_k, W_v 768 x 768, out_proj 768 x 768 + 768.
    QTest::newRow("mha") << int(ModuleKind::MultiHeadAttention) << std::int64_t{12} << std::int64_t{64}
                         << std::int64_t{4 * 768 * 768 + 768};
    // The wrapper: 12 CausalAttention heads, each three 768 x 768 matrices, no out_proj.
    QTest::newRow("wrapper") << int(ModuleKind::MultiHeadAttentionWrapper) << std::int64_t{12} << std::int64_t{768}
                             << std::int64_t{12 * 3 * 768 * 768};
    QTest::newRow("causal") << int(ModuleKind::CausalAttention) << std::int64_t{1} << std::int64_t{768}
                            << std::int64_t{3 * 768 * 768};
}

void TestKvCache::call_as_shape()
{
    QFETCH(int, kind);
    QFETCH(std::int64_t, heads);
    QFETCH(std::int64_t, head_dim);
    QFETCH(std::int64_t, parameters);
    Config c;
    c.kind = static_cast<ModuleKind>(kind);
    const AttentionShape s = attention_shape_of(c, 2);
    QCOMPARE(s.num_heads, heads);
    QCOMPARE(s.num_kv_heads, c.kv_heads());
    QCOMPARE(s.num_kv_heads, heads);
    QCOMPARE(s.head_dim, head_dim);
    QCOMPARE(s.layers, std::int64_t{2});
    QCOMPARE(attention_parameters_per_layer(s), parameters);
}

void TestKvCache::refusals_data()
{
    QTest::addColumn<std::function<void()>>("action");
    QTest::addColumn<QString>("says");
    QTest::newRow("kv-heads-not-dividing")
        << std::function<void()>([] { with_kv_heads(example(8), 5); }) << "the nearest that do are 4 and 8";
    QTest::newRow("zero-kv-heads") << std::function<void()>([] { kv_bytes_per_token(example(0), KvDtype::F32); })
                                   << "num_kv_heads of example is 0";
    QTest::newRow("zero-tokens") << std::function<void()>([] { kv_cache_bytes(example(8), KvDtype::F32, 1, 0); })
                                 << "must be at least 1";
    // 2^20 x 2^40 tokens x 2^19 bytes per token: 2^79 bytes.
    QTest::newRow("bytes-overflow") << std::function<void()>([] {
        kv_cache_bytes(example(32), KvDtype::F32, 1 << 20, kMaxKvTokens);
    }) << "would exceed 2^63 - 1";
    QTest::newRow("parameters-overflow") << std::function<void()>([] {
        AttentionShape s = example(32);
        s.d_model = std::int64_t{1} << 40;
        s.head_dim = std::int64_t{1} << 20;
        attention_parameters_per_layer(s);
    }) << "attention parameter count of example would exceed";
    QTest::newRow("simple-self-attention") << std::function<void()>([] {
        Config c;
        c.kind = ModuleKind::SimpleSelfAttention;
        attention_shape_of(c, 1);
    }) << "no key or value projection";
    QTest::newRow("heads-not-splitting") << std::function<void()>([] {
        Config c;
        c.d_out = 770;
        attention_shape_of(c, 1);
    }) << "770";
}

void TestKvCache::refusals()
{
    QFETCH(std::function<void()>, action);
    QFETCH(QString, says);
    const QString message = error_of(action);
    QVERIFY2(message.contains(says), qPrintable(message));
    QVERIFY2(message.endsWith('.'), qPrintable(message));
}

QTEST_GUILESS_MAIN(TestKvCache)
#include "test_kv_cache.moc"
