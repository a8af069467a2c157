// The three designs' parameter blocks against what PyTorch itself reports for the book's modules
// (tests/data/layout_cases.json, written by tests/reference/make_layout_cases.py), plus the head
// slices, the reasons a design does not exist, and the refusals.
#include "common/errors.h"
#include "call/call_parser.h"
#include "designs/design_layout.h"
#include "tensor/error.h"
#include "io/weights.h"

#include <QtTest>

#include <functional>

using namespace attnlab;
using testing::error_of;

namespace {

QJsonArray layout_cases()
{
    QFile file(ATTNLAB_TEST_DATA_DIR "/layout_cases.json");
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read layout_cases.json");
    return QJsonDocument::fromJson(file.readAll()).object()["cases"].toArray();
}

Config call_of(const QString& text)
{
    const ParsedCall parsed = parse_call(text.toStdString());
    if (!parsed.ok())
        qFatal("unreadable call %s", qPrintable(text));
    return *parsed.config;
}

Shape shape_of(const QJsonValue& v)
{
    Shape shape;
    for (const QJsonValue& extent : v.toArray())
        shape.push_back(extent.toInteger());
    return shape;
}

const QString kGpt2 = "MultiHeadAttention(768, 768, 1024, 0.0, 12)";

} // namespace

class TestDesignLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matches_pytorch_data();
    void matches_pytorch();
    void issue_numbers_for_gpt2_small();
    void integrated_head_slices_data();
    void integrated_head_slices();
    void wrapper_blocks_belong_to_one_head();
    void counts_agree_with_parameter_specs();
    void missing_designs_say_why();
    void wrapper_call_reads_as_same_call();
    void refusals_data();
    void refusals();
};

void TestDesignLayout::matches_pytorch_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("design");
    QTest::addColumn<QJsonValue>("torch");
    for (const QJsonValue& c : layout_cases()) {
        const QJsonObject o = c.toObject();
        for (Design d : all_designs()) {
            const QString key = QString::fromStdString(design_key(d));
            QTest::newRow(qPrintable(o["name"].toString() + "/" + key)) << o["call"].toString() << int(d) << o[key];
        }
    }
}

void TestDesignLayout::matches_pytorch()
{
    QFETCH(QString, call);
    QFETCH(int, design);
    QFETCH(QJsonValue, torch);
    const DesignLayout layout = design_layout(call_of(call), Design(design));
    QCOMPARE(layout.exists, !torch.isNull());
    if (torch.isNull())
        return;
    const QJsonObject t = torch.toObject();
    QCOMPARE(layout.parameters, t["parameters"].toInteger());
    QCOMPARE(layout.output_width, t["output_width"].toInteger());
    const QJsonArray blocks = t["blocks"].toArray(), buffers = t["buffers"].toArray();
    QCOMPARE(qsizetype(layout.blocks.size()), blocks.size());
    for (qsizetype i = 0; i < blocks.size(); ++i) {
        const Block& b = layout.blocks[std::size_t(i)];
        const QJsonObject want = blocks[i].toObject();
        QCOMPARE(QString::fromStdString(b.name), want["name"].toString());
        QCOMPARE(b.shape, shape_of(want["shape"]));
        QCOMPARE(b.parameters, want["parameters"].toInteger());
        QCOMPARE(b.is_buffer, false);
    }
    QCOMPARE(qsizetype(layout.buffers.size()), buffers.size());
    for (qsizetype i = 0; i < buffers.size(); ++i) {
        const Block& b = layout.buffers[std::size_t(i)];
        QCOMPARE(QString::fromStdString(b.name), buffers[i].toObject()["name"].toString());
        QCOMPARE(b.shape, shape_of(buffers[i].toObject()["shape"]));
        QCOMPARE(b.parameters, 0);
        QVERIFY(b.is_buffer);
        QCOMPARE(b.role, Role::Mask);
    }
    QStringList order;
    for (const std::string& name : state_dict_names(layout))
        order << QString::fromStdString(name);
    QStringList torch_order;
    for (const QJsonValue& name : t["state_dict"].toArray())
        torch_order << name.toString();
    QCOMPARE(order, torch_order);
}

void TestDesignLayout::issue_numbers_for_gpt2_small()
{
    const DesignComparison cmp = compare_designs(call_of(kGpt2));
    QCOMPARE(cmp.get(Design::Integrated).parameters, 2360064);
    QCOMPARE(cmp.get(Design::Integrated).output_width, 768);
    QCOMPARE(cmp.get(Design::WrapperSameCall).parameters, 21233664);
    QCOMPARE(cmp.get(Design::WrapperSameCall).output_width, 9216);
    QCOMPARE(cmp.get(Design::WrapperMatchedWidth).parameters, 1769472);
    QCOMPARE(cmp.get(Design::WrapperMatchedWidth).output_width, 768);
    QCOMPARE(cmp.get(Design::WrapperMatchedWidth).head_width, 64);
    QCOMPARE(
        cmp.get(Design::WrapperMatchedWidth).call,
        std::string("MultiHeadAttentionWrapper(d_in=768, d_out=64, context_length=1024, dropout=0.0, num_heads=12)"));
    QVERIFY(cmp.note.empty());
}

void TestDesignLayout::integrated_head_slices_data()
{
    QTest::addColumn<QString>("call");
    QTest::newRow("gpt2-small") << kGpt2;
    QTest::newRow("odd-widths-bias") << "MultiHeadAttention(5, 6, 9, 0.0, 3, qkv_bias=True)";
    QTest::newRow("one-head") << "MultiHeadAttention(4, 4, 5, 0.0, 1)";
    QTest::newRow("head-dim-1") << "MultiHeadAttention(3, 4, 4, 0.0, 4, qkv_bias=True)";
}

void TestDesignLayout::integrated_head_slices()
{
    QFETCH(QString, call);
    const Config c = call_of(call);
    const DesignLayout layout = design_layout(c, Design::Integrated);
    const std::int64_t hd = c.d_out / c.num_heads;
    for (const Block& b : layout.blocks) {
        QCOMPARE(b.head, -1);
        if (b.name == "out_proj.bias") {
            QVERIFY(b.head_slices.empty());
            continue;
        }
        // Every head's slice, in order, back to back, covering the whole axis.
        const int axis = b.role == Role::OutProj ? 1 : 0;
        QCOMPARE(std::int64_t(b.head_slices.size()), c.num_heads);
        for (std::int64_t h = 0; h < c.num_heads; ++h) {
            const HeadSlice& s = b.head_slices[std::size_t(h)];
            QCOMPARE(s.head, h);
            QCOMPARE(s.axis, axis);
            QCOMPARE(s.begin, h * hd);
            QCOMPARE(s.end, (h + 1) * hd);
        }
        QCOMPARE(b.head_slices.back().end, b.shape[std::size_t(axis)]);
        QCOMPARE(b.is_bias, b.shape.size() == 1);
    }
}

void TestDesignLayout::wrapper_blocks_belong_to_one_head()
{
    const DesignLayout layout =
        design_layout(call_of("MultiHeadAttention(7, 5, 3, 0.0, 5, qkv_bias=True)"), Design::WrapperMatchedWidth);
    QCOMPARE(layout.blocks.size(), std::size_t(5 * 6));
    for (std::size_t i = 0; i < layout.blocks.size(); ++i) {
        const Block& b = layout.blocks[i];
        QCOMPARE(b.head, std::int64_t(i / 6));
        const Role roles[] = {Role::Query, Role::Key, Role::Value};
        QCOMPARE(b.role, roles[i % 6 / 2]);
        QCOMPARE(b.is_bias, i % 2 == 1);
        QVERIFY(b.head_slices.empty());
    }
    QCOMPARE(layout.buffer_elements, 5 * 3 * 3);
}

void TestDesignLayout::counts_agree_with_parameter_specs()
{
    for (const QJsonValue& c : layout_cases()) {
        const Config call = call_of(c.toObject()["call"].toString());
        for (const DesignLayout& d : compare_designs(call).designs)
            if (d.exists)
                QCOMPARE(d.parameters, parameter_count(d.config));
    }
}

void TestDesignLayout::missing_designs_say_why()
{
    const DesignComparison cmp = compare_designs(call_of("MultiHeadAttention(768, 770, 8, 0.0, 12)"));
    QVERIFY(!cmp.get(Design::Integrated).exists);
    QVERIFY(QString::fromStdString(cmp.get(Design::Integrated).why_not).contains("cannot be split evenly"));
    QVERIFY(!cmp.get(Design::WrapperMatchedWidth).exists);
    QVERIFY(QString::fromStdString(cmp.get(Design::WrapperMatchedWidth).why_not).contains("770 / 12"));
    QVERIFY(cmp.get(Design::Integrated).blocks.empty());
    QVERIFY(cmp.get(Design::WrapperSameCall).exists);
    QCOMPARE(cmp.get(Design::WrapperSameCall).output_width, 9240);
}

void TestDesignLayout::wrapper_call_reads_as_same_call()
{
    const Config wrapper = call_of("MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)");
    const DesignComparison cmp = compare_designs(wrapper);
    QVERIFY(QString::fromStdString(cmp.note).contains("same arguments"));
    QCOMPARE(cmp.call.kind, ModuleKind::MultiHeadAttention);
    QCOMPARE(cmp.get(Design::WrapperSameCall).config, wrapper);
    QCOMPARE(cmp.get(Design::WrapperSameCall).output_width, 4); // the book's exercise: width 4, not 2
    QCOMPARE(cmp.get(Design::WrapperMatchedWidth).output_width, 2);
}

void TestDesignLayout::refusals_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<QString>("message_has");
    QTest::newRow("causal") << "CausalAttention(3, 2, 6, 0.0)"
                            << "not CausalAttention";
    QTest::newRow("zero-d-out") << "MultiHeadAttention(3, 0, 6, 0.0, 2)"
                                << "d_out = 0";
    QTest::newRow("zero-heads") << "MultiHeadAttention(3, 4, 6, 0.0, 0)"
                                << "num_heads = 0";
    QTest::newRow("dropout") << "MultiHeadAttention(3, 4, 6, 1.5, 2)"
                             << "dropout";
    QTest::newRow("too-many-heads") << "MultiHeadAttention(3, 8192, 6, 0.0, 8192)"
                                    << "at most 4096";
    QTest::newRow("overflow") << "MultiHeadAttention(4294967296, 4294967296, 6, 0.0, 1)"
                              << "64-bit";
    QTest::newRow("mask-overflow") << "MultiHeadAttention(4, 4, 4294967296, 0.0, 1)"
                                   << "64-bit";
}

void TestDesignLayout::refusals()
{
    QFETCH(QString, call);
    QFETCH(QString, message_has);
    const QString message = error_of([&] { compare_designs(call_of(call)); });
    QVERIFY2(message.contains(message_has), qPrintable(message));
}

QTEST_GUILESS_MAIN(TestDesignLayout)
#include "test_design_layout.moc"
