// The Key/value heads tab through its state, its painters and the real window: the chart's lines are the core's
// KV-cache bytes for every published config and dtype, a config chosen in the combo fills table and chart, the
// current call follows the document's num_kv_groups, the stepped cache grows a column a step and chooses what a full
// forward chooses, Reset empties it. Its screens: test_ui_kvheads_screens.
#include "common/offscreen_screens.h"
#include "common/session_fixtures.h"
#include "designs/kv_cache_call.h"
#include "designs/published_configs.h"
#include "features/kvheads/kv_cache_strip_widget.h"
#include "features/kvheads/kv_memory_chart.h"
#include "features/kvheads/kv_memory_panel.h"
#include "features/kvheads/kv_step_panel.h"
#include "features/kvheads/kvheads_state.h"
#include "features/kvheads/kvheads_view.h"
#include "features/registry.h"
#include "gpt/gpt_forward.h"
#include "gpt/kv_generate.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

int indexOf(const std::string& name)
{
    const auto& all = published_configs();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].name == name)
            return static_cast<int>(i);
    return -1;
}

KvHeadsView* pageOf(const MainWindow& window)
{
    return qobject_cast<KvHeadsView*>(window.page(*viewNamed(QStringLiteral("kvheads"))));
}

} // namespace

class TestUiKvHeads : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void chartLinesAreTheCoresBytes_data();
    void chartLinesAreTheCoresBytes();
    void currentCallFollowsNumKvGroups();
    void problemsAreSaidNotDrawn();
    void steppingGrowsTheCacheAsAFullForwardChooses_data();
    void steppingGrowsTheCacheAsAFullForwardChooses();
};

void TestUiKvHeads::chartLinesAreTheCoresBytes_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<int>("dtype");
    for (const char* name : {"gpt2-small", "llama-2-70b", "llama-3-8b", "mistral-7b-v0.1", "falcon-7b", "gemma-2b"})
        for (KvDtype d : {KvDtype::BF16, KvDtype::F32})
            QTest::newRow(qPrintable(QStringLiteral("%1-%2").arg(name, QString::fromStdString(dtype_name(d)))))
                << QString::fromLatin1(name) << static_cast<int>(d);
}

// Chosen in the page's combos, as a student does: the table and the chart's lines are the core's counts.
void TestUiKvHeads::chartLinesAreTheCoresBytes()
{
    QFETCH(QString, config);
    QFETCH(int, dtype);
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, QStringLiteral("gpt2-small"), QSize(1600, 1000));
    KvMemoryPanel* panel = pageOf(*window)->memory();
    panel->configs()->setCurrentIndex(panel->configs()->findText(config));
    panel->dtypes()->setCurrentIndex(panel->dtypes()->findData(dtype));
    const AttentionShape* shape = find_published_config(config.toStdString());
    QVERIFY(shape);
    QCOMPARE(session->feature<KvHeadsState>()->configIndex(), indexOf(shape->name));
    const auto d = static_cast<KvDtype>(dtype);
    const KvMemoryPainter painter = panel->chart()->chartPainter();
    const std::vector<KvHeadsRow> rows = kv_heads_rows(*shape, d, 1, shape->context_length);
    QCOMPARE(painter.memory().lines.size(), rows.size());
    QCOMPARE(panel->table()->rowCount(), static_cast<int>(rows.size()));
    int configLines = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const KvMemoryLine& line = painter.memory().lines[i];
        QCOMPARE(line.kv_heads, rows[i].kv_heads);
        configLines += line.is_config;
        QCOMPARE(line.is_config, rows[i].kv_heads == shape->num_kv_heads);
        const AttentionShape s = with_kv_heads(*shape, line.kv_heads);
        QCOMPARE(line.points.back().first, shape->context_length);
        for (const auto& pt : line.points)
            QCOMPARE(pt.second, kv_cache_bytes(s, d, 1, pt.first));
        if (shape->sliding_window) // flat past the window
            QCOMPARE(line.points.back().second, kv_cache_bytes(s, d, 1, *shape->sliding_window));
        QCOMPARE(panel->table()->item(static_cast<int>(i), 1)->text(),
                 kvBytesText(static_cast<double>(rows[i].bytes_per_token)));
        QVERIFY(panel->table()->item(static_cast<int>(i), 0)->font().bold() == rows[i].is_config);
    }
    QCOMPARE(configLines, 1);
    QCOMPARE(painter.memory().lines.front().kind, QStringLiteral("MHA"));
    QCOMPARE(painter.memory().lines.back().kind, rows.size() > 1 ? QStringLiteral("MQA") : QStringLiteral("MHA"));
}

void TestUiKvHeads::currentCallFollowsNumKvGroups()
{
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, QStringLiteral("gpt2-small"), QSize(1600, 1000));
    KvMemoryPanel* panel = pageOf(*window)->memory();
    panel->configs()->setCurrentIndex(0);
    QCOMPARE(panel->configs()->currentText(), QStringLiteral("the current call"));
    for (std::int64_t groups : {4, 2, 12}) {
        Config c = session->document()->config();
        c.kind = ModuleKind::GroupedQueryAttention;
        c.num_kv_groups = groups;
        session->document()->setConfig(c);
        const KvMemoryPainter painter = panel->chart()->chartPainter();
        const KvMemory& m = painter.memory();
        QCOMPARE(m.shape.num_kv_heads, groups);
        QCOMPARE(m.shape.layers, 12);
        int bold = -1;
        for (int r = 0; r < panel->table()->rowCount(); ++r)
            if (panel->table()->item(r, 0)->font().bold())
                bold = r;
        QVERIFY(bold >= 0);
        QCOMPARE(m.rows[static_cast<std::size_t>(bold)].kv_heads, groups);
        QCOMPARE(m.rows[static_cast<std::size_t>(bold)].bytes,
                 kv_cache_bytes(attention_shape_of(c, 12), KvDtype::BF16, 1, c.context_length));
    }
}

// A call the core refuses and a model that cannot be read: one sentence each, no lines, no Step.
void TestUiKvHeads::problemsAreSaidNotDrawn()
{
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, QStringLiteral("gpt2-small"), QSize(1600, 1000));
    KvHeadsView* page = pageOf(*window);
    Config c = session->document()->config();
    c.kind = ModuleKind::GroupedQueryAttention;
    c.num_kv_groups = 5; // 12 query heads do not split into 5 groups
    session->document()->setConfig(c);
    const KvMemoryPainter painter = page->memory()->chart()->chartPainter();
    QVERIFY(painter.memory().lines.empty());
    QVERIFY(!painter.memory().error.isEmpty());
    QCOMPARE(page->memory()->table()->rowCount(), 0);
    auto* state = session->feature<KvHeadsState>();
    state->setStepModel(QStringLiteral("h3")); // no such shipped model
    QVERIFY(!state->stepProblem().isEmpty());
    QVERIFY(!page->stepped()->stepButton()->isEnabled());
    QVERIFY(page->stepped()->computed()->text().contains(state->stepProblem()));
    QCOMPARE(page->stepped()->strip()->stripPainter().columns(), 0);
}

void TestUiKvHeads::steppingGrowsTheCacheAsAFullForwardChooses_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("h4") << QStringLiteral("h4");
    QTest::newRow("h1") << QStringLiteral("h1");
    QTest::newRow("induction-h4") << QStringLiteral("induction-h4");
}

void TestUiKvHeads::steppingGrowsTheCacheAsAFullForwardChooses()
{
    QFETCH(QString, model);
    std::unique_ptr<Session> session;
    std::unique_ptr<MainWindow> window;
    testing::openWindow(session, window, QStringLiteral("gpt2-small"), QSize(1600, 1000));
    KvStepPanel* panel = pageOf(*window)->stepped();
    panel->models()->setCurrentText(model);
    const KvStepper& s = session->feature<KvHeadsState>()->stepper();
    QVERIFY2(session->feature<KvHeadsState>()->stepProblem().isEmpty(),
             qPrintable(session->feature<KvHeadsState>()->stepProblem()));
    QCOMPARE(panel->strip()->stripPainter().columns(), 0);
    const auto prompt = static_cast<int>(s.prompt().size());
    QVERIFY(prompt > 0);
    constexpr int kSteps = 5;
    for (int k = 1; k <= kSteps; ++k) {
        panel->stepButton()->click();
        const KvCacheStripPainter strip = panel->strip()->stripPainter();
        QCOMPARE(strip.columns(), prompt + k - 1); // the prompt at once, then a column a step
        QCOMPARE(strip.strip().newFrom, k == 1 ? 0 : prompt + k - 2);
        QCOMPARE(strip.strip().layers, static_cast<int>(s.model()->settings.n_layers));
        QCOMPARE(static_cast<int>(s.generated().size()), k);
    }
    // The same tokens, and the last step's logits, as generating without the cache: a full forward every step.
    GenerateOptions options;
    options.tokens = kSteps;
    options.cache = false;
    options.keep_logits = true;
    const Generation full = generate_greedy(*s.model(), kBookLayerNormEps, s.prompt(), options);
    QCOMPARE(s.generated(), full.ids);
    const std::vector<float>& last = full.steps.back().logits;
    QCOMPARE(s.logits().size(), last.size());
    for (std::size_t i = 0; i < last.size(); ++i)
        QVERIFY2(std::abs(s.logits()[i] - last[i]) <= 1e-4f * std::max(1.0f, std::abs(last[i])), qPrintable(model));
    QVERIFY(panel->text()->text().contains(s.text(full.ids).toHtmlEscaped()));
    QVERIFY(panel->computed()->text().contains(QString::number(s.cachedTokens())));
    QVERIFY(s.fullMultiplyAdds() > s.cachedMultiplyAdds());
    panel->resetButton()->click();
    QCOMPARE(panel->strip()->stripPainter().columns(), 0);
    QVERIFY(s.generated().empty());
    QVERIFY(!panel->resetButton()->isEnabled());
}

int main(int argc, char** argv)
{
    const QString config =
        testing::useOffscreenScreens({QSize(1600, 1000), QSize(1280, 720)}, QStringLiteral("attnlab-kvheads"));
    if (config.isEmpty())
        return 2;
    QApplication app(argc, argv);
    QFile::remove(config);
    testing::useAppLook();
    TestUiKvHeads test;
    return QTest::qExec(&test, argc, argv);
}

#include "test_ui_kvheads.moc"
