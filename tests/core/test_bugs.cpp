// The bug catalogue and the forward it injects into: the book's code through the generic ops must be
// the engine's trace_forward (values, shapes, strides, which stage is a view of which), and the
// mistaken code must produce the shapes and the refusals PyTorch gives.
#include "lessons/bugs.h"
#include "call/call_parser.h"
#include "tensor/error.h"
#include "common/golden_compare.h"
#include "forward/module_source.h"
#include "io/safetensors.h"
#include "forward/trace.h"

#include <QtTest>

using namespace attnlab;

namespace {

Config mha(std::int64_t d_in, std::int64_t d_out, std::int64_t heads, bool bias = false)
{
    Config c;
    c.d_in = d_in;
    c.d_out = d_out;
    c.context_length = 16;
    c.num_heads = heads;
    c.qkv_bias = bias;
    return c;
}

} // namespace

Q_DECLARE_METATYPE(attnlab::Config)

class TestBugs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void catalogue_is_complete();
    void unknown_name_lists_the_catalogue();
    void correct_run_is_the_engine_data();
    void correct_run_is_the_engine();
    void correct_run_reproduces_golden_files();
    void skip_head_transpose_shapes();
    void swap_refused_by_constructor();
};

void TestBugs::catalogue_is_complete()
{
    const QStringList names = {"skip-head-transpose", "view-heads-first",  "skip-mask",       "mask-diagonal-0",
                               "scale-by-d_out",      "softmax-wrong-dim", "skip-contiguous", "merge-without-transpose",
                               "skip-out-proj",       "swap-d_in-d_out"};
    QCOMPARE(static_cast<int>(bug_catalogue().size()), names.size());
    const auto& book = module_source(ModuleKind::MultiHeadAttention);
    for (int i = 0; i < names.size(); ++i) {
        const BugInfo& info = bug_catalogue()[static_cast<std::size_t>(i)];
        QCOMPARE(QString::fromStdString(info.name), names[i]);
        QCOMPARE(bug_from_name(info.name), info.bug);
        QVERIFY(!info.title.empty() && !info.explanation.empty());
        QVERIFY2(!info.book_line.empty() && info.book_line != info.buggy_line, info.name.c_str());
        const auto source = buggy_source(info.bug);
        QCOMPARE(source.size(), book.size()); // code_line indexes both listings
        QVERIFY2(source != book, info.name.c_str());
    }
}

void TestBugs::unknown_name_lists_the_catalogue()
{
    try {
        bug_from_name("skip-softmax");
        QFAIL("no error");
    } catch (const Error& e) {
        const QString message = e.what();
        QVERIFY(message.contains("skip-softmax"));
        for (const auto& info : bug_catalogue())
            QVERIFY2(message.contains(QString::fromStdString(info.name)), e.what());
    }
}

void TestBugs::correct_run_is_the_engine_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("tokens");
    QTest::newRow("book-toy") << mha(3, 2, 2) << qint64(2) << qint64(6);
    QTest::newRow("gpt2-small-widths") << mha(768, 768, 12) << qint64(1) << qint64(8);
    QTest::newRow("bias-rect") << mha(5, 12, 4, true) << qint64(3) << qint64(7);
    QTest::newRow("one-head") << mha(4, 4, 1) << qint64(2) << qint64(5);
    QTest::newRow("one-token") << mha(4, 6, 3) << qint64(2) << qint64(1);
}

void TestBugs::correct_run_is_the_engine()
{
    QFETCH(Config, config);
    QFETCH(qint64, batch);
    QFETCH(qint64, tokens);
    const StateDict weights = init_weights(config, 7);
    const Tensor x = random_input(config, batch, tokens, 8);
    const Trace engine = trace_forward(config, weights, x);
    const BugTrace ops = run_with_bug(config, weights, x, Bug::None);
    QVERIFY(!ops.failure);
    QCOMPARE(ops.stages.size(), engine.stages.size());
    for (const Stage& e : engine.stages) {
        const Stage* o = ops.find(e.name);
        QVERIFY2(o, e.name.c_str());
        QCOMPARE(o->tensor.shape(), e.tensor.shape());
        QCOMPARE(o->expected_shape, e.expected_shape);
        QCOMPARE(o->tensor.strides(), e.tensor.strides());
        QCOMPARE(o->view_of, e.view_of);
        QCOMPARE(o->code_line, e.code_line);
        const std::string diff = testing::compare_tensors(o->tensor, e.tensor);
        QVERIFY2(diff.empty(), (e.name + ": " + diff).c_str());
    }
}

void TestBugs::correct_run_reproduces_golden_files()
{
    int files = 0;
    for (const auto& path : testing::safetensors_files(ATTNLAB_GOLDEN_DIR)) {
        const SafetensorsFile file = read_safetensors(path);
        const ParsedCall call = parse_call(file.meta("call"));
        if (!call.ok() || call.config->kind != ModuleKind::MultiHeadAttention)
            continue;
        const StateDict weights =
            state_dict_from_file(file, *call.config, layout_from_name(file.meta("layout", "torch")));
        const BugTrace run = run_with_bug(*call.config, weights, *file.find("x"), Bug::None);
        QVERIFY2(!run.failure, path.c_str());
        for (const auto& [name, expected] : file.tensors) {
            if (name.rfind("expected.", 0) != 0)
                continue;
            const Stage* s = run.find(name.substr(9));
            QVERIFY2(s, (path + ": " + name).c_str());
            const std::string diff = testing::compare_tensors(s->tensor, expected);
            QVERIFY2(diff.empty(), (path + ": " + name + ": " + diff).c_str());
        }
        ++files;
    }
    QVERIFY(files >= 4); // book_toy, gpt2_small_t8, bias_rect, gpt2_layout_tiny, ...
}

void TestBugs::skip_head_transpose_shapes()
{
    // num_heads == num_tokens: the mask fits, the scores are (b, T, H, H) and the run completes.
    Config c = mha(3, 6, 3);
    BugTrace t = run_with_bug(c, init_weights(c, 1), random_input(c, 2, 3, 2), Bug::SkipHeadTranspose);
    QVERIFY(!t.failure);
    QCOMPARE(t.find("queries.heads")->tensor.shape(), (Shape{2, 3, 3, 2}));
    QCOMPARE(t.find("attn_scores")->tensor.shape(), (Shape{2, 3, 3, 3}));
    QCOMPARE(t.find("attn_scores")->expected_shape, (Shape{2, 3, 3, 3}));
    // Two heads, six tokens: scores (2, 6, 2, 2), and masked_fill_ refuses the 6 x 6 mask.
    c = mha(3, 4, 2);
    t = run_with_bug(c, init_weights(c, 1), random_input(c, 2, 6, 2), Bug::SkipHeadTranspose);
    QCOMPARE(t.find("queries.heads")->tensor.shape(), (Shape{2, 6, 2, 2}));
    QCOMPARE(t.find("attn_scores")->tensor.shape(), (Shape{2, 6, 2, 2}));
    QVERIFY(t.failure);
    QCOMPARE(t.failure->stage, std::string("attn_scores.masked"));
    QCOMPARE(t.failure->message,
             std::string("The size of tensor a (2) must match the size of tensor b (6) at non-singleton dimension 3"));
    QVERIFY(!t.find("attn_scores.masked"));
}

void TestBugs::swap_refused_by_constructor()
{
    const Config c = mha(3, 2, 2); // swapped: d_out = 3 cannot be split into 2 heads
    const BugTrace t = run_with_bug(c, init_weights(c, 1), random_input(c, 1, 4, 2), Bug::SwapDInDOut);
    QVERIFY(t.failure);
    QCOMPARE(t.failure->stage, std::string("config"));
    QCOMPARE(t.failure->message, std::string("d_out must be divisible by num_heads"));
    QCOMPARE(t.config.d_in, std::int64_t{2});
    QVERIFY(t.stages.empty());
}

QTEST_GUILESS_MAIN(TestBugs)
#include "test_bugs.moc"
