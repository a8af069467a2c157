// A whole GPT-2 checkpoint in the window: the tiny Hugging Face one (tests/data/gpt2, 3 layers x 2 heads)
// opens through the dialog, its layer's trace is gpt_forward's, the overview shows layers x heads and a
// click opens a head in the heatmaps; a bad file is said inline and the state stays; the chips show "␣".
#include "common/close_values.h"
#include "common/session_fixtures.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "model/model_job.h"
#include "common/session_parts.h"
#include "features/overview/head_grid_widget.h"
#include "features/overview/overview_view.h"
#include "text/gpt2_tokenizer_files.h"
#include "text/tokenizer.h"
#include "shell/diagnostics_panel.h"
#include "shell/open_model_dialog.h"
#include "shell/text_input_panel.h"
#include "widgets/token_chips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

const QString kTiny = QStringLiteral(ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f32");
const QString kText = QStringLiteral("The cat sat. The cat sat.");

// Opens the tiny checkpoint through the dialog, as File > Open Model… does, and waits for its trace.
bool openTiny(Session& s)
{
    s.trace()->setInputText(kText);
    OpenModelDialog dialog(&s, kTiny);
    if (!dialog.usable() || !dialog.openButton()->isEnabled())
        return false;
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    dialog.openChosen();
    return opened.wait(30000) && testing::waitUntilSettled(s) && s.trace()->usesOpenedModel() && s.trace()->trace();
}

std::vector<std::int64_t> tinyIds(const Session& s)
{
    return s.trace()->modelJob()->model()->tokenizer->encode(kText.toStdString(), true);
}

// The tiny checkpoint's model grown to `layers` layers, width 64 and 512 positions, small seeded weights: a
// forward long enough (tens of milliseconds a layer) for progress to be seen and a cancel to land mid-run.
std::shared_ptr<const GptModel> grownModel(const GptModel& tiny, int layers)
{
    const std::int64_t e = 64, positions = 512;
    GptModel m;
    m.name = "grown";
    m.settings = tiny.settings;
    m.settings.emb_dim = e;
    m.settings.n_layers = layers;
    m.settings.context_length = positions;
    std::uint32_t state = 12345;
    const auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return (static_cast<float>(state >> 8) / 16777216.0f - 0.5f) * 0.04f;
    };
    const auto grown = [&](const Tensor& t) {
        Shape shape = t.shape();
        for (auto& d : shape)
            d = d == tiny.settings.emb_dim          ? e
                : d == 4 * tiny.settings.emb_dim    ? 4 * e
                : d == tiny.settings.context_length ? positions
                                                    : d;
        std::int64_t n = 1;
        for (auto d : shape)
            n *= d;
        std::vector<float> v(static_cast<std::size_t>(n));
        for (float& x : v)
            x = next();
        return Tensor::from_values(shape, std::move(v));
    };
    const std::string first = "trf_blocks.0.";
    for (const auto& [name, t] : tiny.weights) {
        if (name.rfind("trf_blocks.", 0) != 0) {
            m.weights[name] = grown(t);
            continue;
        }
        if (name.rfind(first, 0) != 0)
            continue;
        for (int l = 0; l < layers; ++l)
            m.weights["trf_blocks." + std::to_string(l) + "." + name.substr(first.size())] = grown(t);
    }
    return std::make_shared<const GptModel>(std::move(m));
}

} // namespace

class TestUiGpt2Model : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dialog_shows_the_plan_and_the_code();
    void opened_layer_is_the_forward_data();
    void opened_layer_is_the_forward();
    void overview_has_layers_by_heads();
    void click_opens_the_head_in_the_heatmaps();
    void repeat_brings_out_repeated_tokens();
    void overview_serves_the_verdict_gpts();
    void bad_file_is_said_and_the_state_stays_data();
    void bad_file_is_said_and_the_state_stays();
    void failed_load_is_said_and_the_state_stays();
    void chips_show_spaces_as_marks();
    void text_checkbox_names_the_opened_model();
    void variant_picker_names_the_opened_model();
    void long_text_is_shortened_not_context_length();
    void story_sentence_is_cut_to_n_positions();
    void long_run_shows_progress_and_cancels();
    void runs_count_the_tokenizer();
};

void TestUiGpt2Model::dialog_shows_the_plan_and_the_code()
{
    Session s;
    OpenModelDialog dialog(&s, kTiny);
    QVERIFY(dialog.usable());
    QVERIFY2(dialog.summaryText().contains(QStringLiteral("3 layers")), qPrintable(dialog.summaryText()));
    QVERIFY(dialog.summaryText().contains(QStringLiteral("memory")));
    const Gpt2Plan plan = plan_gpt2_checkpoint(kTiny.toStdString());
    QStringList code;
    for (const std::string& line : gpt2_mapping_code(plan))
        code << QString::fromStdString(line);
    QCOMPARE(dialog.codeText(), code.join(QLatin1Char('\n')));
    QVERIFY(dialog.errorText().isEmpty());
}

void TestUiGpt2Model::opened_layer_is_the_forward_data()
{
    QTest::addColumn<int>("layer");
    QTest::newRow("layer0") << 0;
    QTest::newRow("layer2") << 2;
}

void TestUiGpt2Model::opened_layer_is_the_forward()
{
    QFETCH(int, layer);
    Session s;
    QVERIFY(openTiny(s));
    s.document()->setGptLayer(layer);
    QVERIFY(testing::waitUntilSettled(s));
    const OpenedModel& m = *s.trace()->modelJob()->model();
    const GptForward f = gpt_forward(*m.model, m.plan.layer_norm_eps, tinyIds(s), {.full_traces = {layer}});
    const Tensor& expected = f.layers[static_cast<std::size_t>(layer)].attn_weights;
    const Tensor& shown = s.trace()->trace()->find("attn_weights")->tensor;
    QCOMPARE(shown.shape(), expected.shape());
    const QString difference =
        testing::firstDifference(shown.contiguous().to_vector(), expected.contiguous().to_vector());
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(s.view()->headCount(), 2);
    QVERIFY(!s.trace()->hasErrors());
}

void TestUiGpt2Model::overview_has_layers_by_heads()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    s.view()->setTab(ViewMode::Overview);
    QVERIFY(openTiny(s));
    QVERIFY(s.feature<OverviewState>()->layerAttention());
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->grid.size(), std::size_t(3));
    QCOMPARE(view.grid()->painter().cells().size(), std::size_t(6));
    for (const HeadGridCell& c : view.grid()->painter().cells())
        QVERIFY(!c.image.isNull());
    QVERIFY2(view.heading()->text().contains(QStringLiteral("3 layers × 2 heads")), qPrintable(view.heading()->text()));
    // Ranked by the first-token share, largest first.
    view.sortChoice()->setCurrentIndex(view.sortChoice()->findData(int(OverviewView::Measure::First)));
    const auto& grid = s.feature<OverviewState>()->layerAttention()->grid;
    double last = 2;
    for (const HeadGridCell& c : view.grid()->painter().cells()) {
        const double first = grid[std::size_t(c.layer)][std::size_t(c.head)].measures.first;
        QVERIFY(first <= last);
        last = first;
    }
}

void TestUiGpt2Model::click_opens_the_head_in_the_heatmaps()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    view.resize(900, 700);
    view.show();
    s.view()->setTab(ViewMode::Overview);
    QVERIFY(openTiny(s));
    QVERIFY(testing::waitUntilSettled(s));
    testing::PartsSpy changed(s);
    const auto& cells = view.grid()->painter().cells();
    std::size_t target = cells.size();
    for (std::size_t i = 0; i < cells.size(); ++i)
        if (cells[i].layer == 2 && cells[i].head == 1)
            target = i;
    QVERIFY(target < cells.size());
    QTest::mouseClick(view.grid(), Qt::LeftButton, {}, view.grid()->cellRect(target).center());
    QVERIFY(!changed.isEmpty());
    QCOMPARE(s.view()->tab(), ViewMode::Heatmaps);
    QVERIFY(testing::waitUntilSettled(s));
    QCOMPARE(s.document()->gptLayer(), 2);
    QCOMPARE(s.view()->head(), 1);
}

void TestUiGpt2Model::repeat_brings_out_repeated_tokens()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    s.view()->setTab(ViewMode::Overview);
    QVERIFY(openTiny(s));
    const std::size_t once = tinyIds(s).size();
    view.repeatToggle()->setChecked(true);
    QVERIFY(s.feature<OverviewState>()->repeatText());
    QVERIFY(testing::waitUntilSettled(s));
    const auto attention = s.feature<OverviewState>()->layerAttention();
    QVERIFY(attention && attention->repeated);
    QCOMPARE(attention->ids.size(), 2 * once);
    QVERIFY(attention->grid[0][0].induction.has_value()); // every token repeats
    // The Session's trace stays of the text once.
    QCOMPARE(s.trace()->trace()->find("attn_weights")->tensor.size(2), std::int64_t(once));
}

void TestUiGpt2Model::overview_serves_the_verdict_gpts()
{
    Session s;
    OverviewView view(s.feature<OverviewState>());
    s.view()->setTab(ViewMode::Overview);
    s.trace()->useTrainedModel(4, 0);
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(s.feature<OverviewState>()->layerAttention());
    QCOMPARE(view.grid()->painter().cells().size(), std::size_t(2 * 4));
    QVERIFY(view.heading()->text().contains(QStringLiteral("verdict-gpt-h4")));
    // A text longer than the model's context is an error, never computed: the tab says so, not "Computing…".
    s.document()->setSlot(Slot::context_length, 8);
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(s.trace()->hasErrors());
    QTRY_VERIFY2(view.heading()->text().startsWith(QStringLiteral("Nothing to draw while the settings have an error")),
                 qPrintable(view.heading()->text()));
}

void TestUiGpt2Model::bad_file_is_said_and_the_state_stays_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("said");
    QTest::newRow("missing") << QStringLiteral("/nonexistent/model.safetensors") << QStringLiteral("nonexistent");
    QTest::newRow("not-a-gpt") << QStringLiteral(ATTNLAB_GOLDEN_DIR "/book_toy.safetensors")
                               << QStringLiteral("book_toy");
    QTest::newRow("config-only") << QStringLiteral(ATTNLAB_TEST_DATA_DIR "/gpt2/hf-f32/config.json")
                                 << QStringLiteral("config.json");
}

void TestUiGpt2Model::bad_file_is_said_and_the_state_stays()
{
    QFETCH(QString, path);
    QFETCH(QString, said);
    Session s;
    s.trace()->useTrainedModel(4, 0);
    QVERIFY(testing::waitUntilSettled(s));
    const ExperimentSpec before = s.document()->spec();
    const auto trace = s.trace()->trace();
    OpenModelDialog dialog(&s, path);
    QVERIFY(!dialog.usable());
    QVERIFY(!dialog.openButton()->isEnabled());
    const QString e = dialog.errorText();
    QVERIFY2(e.contains(said), qPrintable(e));
    QVERIFY2(e.endsWith(QLatin1Char('.')) && e.count(QStringLiteral(". ")) == 0, qPrintable(e)); // one sentence
    QCOMPARE(s.document()->spec().gpt_model_path, before.gpt_model_path);
    QVERIFY(s.trace()->trace() == trace);
}

void TestUiGpt2Model::failed_load_is_said_and_the_state_stays()
{
    // The header reads, the tensors do not: cut after planning, the load finds the file short.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(kTiny + "/config.json", dir.filePath("config.json")));
    QVERIFY(QFile::copy(kTiny + "/model.safetensors", dir.filePath("model.safetensors")));
    Session s;
    s.trace()->useTrainedModel(2, 1);
    QVERIFY(testing::waitUntilSettled(s));
    const ExperimentSpec before = s.document()->spec();
    OpenModelDialog dialog(&s, dir.path());
    QVERIFY(dialog.usable());
    QFile file(dir.filePath("model.safetensors"));
    QVERIFY(file.resize(file.size() / 2));
    QSignalSpy failed(s.trace()->modelJob(), &ModelJob::openFailed);
    dialog.openChosen();
    QVERIFY(failed.wait(30000));
    QVERIFY(!s.trace()->modelProblem().isEmpty());
    QCOMPARE(dialog.errorText(), s.trace()->modelProblem());
    QVERIFY(dialog.openButton()->isEnabled());
    QVERIFY(!s.trace()->usesOpenedModel());
    QCOMPARE(s.document()->spec().gpt_model_path, before.gpt_model_path);
    QCOMPARE(s.document()->gptLayer(), 1);
}

void TestUiGpt2Model::chips_show_spaces_as_marks()
{
    Session s;
    QVERIFY(openTiny(s));
    const TokenizedText tokens = s.trace()->textTokens();
    QCOMPARE(tokens.ids, tinyIds(s));
    QVERIFY(std::find(tokens.tokens.begin(), tokens.tokens.end(), "␣cat") != tokens.tokens.end());
    for (const std::string& t : tokens.tokens)
        QVERIFY2(t.find("Ġ") == std::string::npos, t.c_str());
    TokenChips chips;
    chips.setTokens(tokens);
    QVERIFY(chips.accessibleDescription().contains(QStringLiteral("␣cat 3797")));
    QVERIFY(TokenChips::chipTip("␣cat", 3797, false).contains(QStringLiteral("space")));
    QVERIFY(TokenChips::chipTip("␣cat", 3797, false).contains(QStringLiteral("3797")));
    QCOMPARE(s.trace()->tokenLabels().value(1), QStringLiteral("␣cat"));
}

void TestUiGpt2Model::long_run_shows_progress_and_cancels()
{
    Session s;
    QVERIFY(openTiny(s));
    // Layers enough that the run outlasts the polls below: 48 finished between two polls on a fast core.
    constexpr int layers = 480;
    const auto model = grownModel(*s.trace()->modelJob()->model()->model, layers);
    ModelJob job;
    ModelRun run;
    run.model = model;
    run.ids.assign(512, 464);
    run.traceLayer = 0;
    QSignalSpy progressed(&job, &ModelJob::progressed);
    QSignalSpy finished(&job, &ModelJob::finished);
    job.run(run);
    QVERIFY(job.busy());
    QCOMPARE(job.progress().second, layers);
    // Polled while it runs: some layers done, said by progressed().
    QTRY_VERIFY_WITH_TIMEOUT(!progressed.isEmpty() && job.progress().first > 0, 30000);
    QVERIFY(job.progress().first < layers);
    job.cancel();
    QVERIFY(job.cancelling() || !job.busy());
    QVERIFY(finished.wait(30000) || !finished.isEmpty());
    const auto result = finished.last().first().value<ModelRunResult>();
    QVERIFY(result.cancelled);
    QVERIFY(!result.trace && result.error.isEmpty());
    QCOMPARE(job.progress(), std::make_pair(0, 0));
}

// The tokenizer read beside a checkpoint is held while every later run of it works: each run counts it with the
// weights and the forward (issue 44), as the opening did, and a refusal names it among the parts.
void TestUiGpt2Model::runs_count_the_tokenizer()
{
    Session s;
    QVERIFY(openTiny(s));
    const OpenedModel& m = *s.trace()->modelJob()->model();
    QVERIFY(m.tokenizer);
    QVERIFY(m.tokenizerBytes > 0);
    ModelJob job;
    ModelRun run{m.model, m.plan, m.plan.layer_norm_eps, tinyIds(s), 0, false, 1, m.tokenizerBytes};
    QSignalSpy finished(&job, &ModelJob::finished);
    job.run(run);
    QVERIFY(finished.wait(30000) || !finished.isEmpty());
    const auto result = finished.last().first().value<ModelRunResult>();
    QVERIFY2(result.error.contains(QStringLiteral(" for the tokenizer, ")), qPrintable(result.error));
    QVERIFY(!result.trace);
}

// The Text checkbox says what the text goes through: an opened checkpoint is no GPT trained on The Verdict.
void TestUiGpt2Model::text_checkbox_names_the_opened_model()
{
    Session s;
    TextInputPanel panel(&s);
    QVERIFY(openTiny(s));
    QCoreApplication::processEvents();
    const auto* box = panel.findChild<QCheckBox*>(QStringLiteral("text-input-enabled"));
    QVERIFY(box);
    for (const QString& said : {box->text(), box->toolTip()}) {
        QVERIFY2(!said.contains(QStringLiteral("Verdict")) && !said.contains(QStringLiteral("story")),
                 qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("opened model")), qPrintable(said));
    }
}

// The picker beside the checkbox shows the opened checkpoint by name; a Verdict GPT picked from it is used
// (at a layer it has), and the checkpoint picked again comes back without being read anew.
void TestUiGpt2Model::variant_picker_names_the_opened_model()
{
    Session s;
    TextInputPanel panel(&s);
    QVERIFY(openTiny(s));
    s.document()->setGptLayer(2);
    QVERIFY(testing::waitUntilSettled(s));
    auto* variant = panel.findChild<QComboBox*>(QStringLiteral("text-input-variant"));
    QVERIFY(variant);
    QVERIFY(variant->isEnabled());
    QCOMPARE(variant->currentText(), QStringLiteral("hf-f32"));
    QVERIFY(variant->toolTip().contains(QStringLiteral("hf-f32")));
    const auto opened = s.trace()->modelJob()->model();

    variant->setCurrentIndex(variant->findData(4));
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(!s.trace()->usesOpenedModel());
    QCOMPARE(s.trace()->gptHeads(), 4);
    QCOMPARE(s.document()->gptLayer(), 0); // a Verdict GPT has no layer 2
    QVERIFY(!s.trace()->hasErrors());
    QCOMPARE(variant->currentText(), QStringLiteral("4 heads"));
    QVERIFY(variant->findText(QStringLiteral("hf-f32")) >= 0); // still loaded, still offered

    variant->setCurrentIndex(variant->findText(QStringLiteral("hf-f32")));
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(s.trace()->usesOpenedModel());
    QVERIFY(s.trace()->modelJob()->model() == opened);
    QCOMPARE(s.view()->headCount(), 2);
    QCOMPARE(s.trace()->trace()->find("attn_weights")->tensor.size(2), std::int64_t(tinyIds(s).size()));
    QCOMPARE(variant->currentText(), QStringLiteral("hf-f32"));
}

// More tokens than the checkpoint's positions: its positions are fixed, so the text is what to shorten, and
// The story's first sentence, the Text input's default, opened with a checkpoint of 16 positions: cut at a space to
// what it reads (GPT-2's 46 tokens opened it on an inline error); a student's own too-long text stays theirs, below.
void TestUiGpt2Model::story_sentence_is_cut_to_n_positions()
{
    Session s;
    const std::string story = verdict_first_sentence();
    s.trace()->setInputText(QString::fromStdString(story));
    OpenModelDialog dialog(&s, kTiny);
    QVERIFY(dialog.usable() && dialog.openButton()->isEnabled());
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    dialog.openChosen();
    QVERIFY(opened.wait(30000) && testing::waitUntilSettled(s));
    const std::string text = s.document()->inputText().toStdString();
    QVERIFY2(story.starts_with(text) && text.size() > 20 && text.size() < story.size(), text.c_str());
    QVERIFY(!s.trace()->hasErrors());
    QVERIFY(s.trace()->trace());
    QVERIFY(static_cast<std::int64_t>(s.trace()->textTokens().ids.size()) <=
            s.trace()->modelJob()->model()->model->settings.context_length);
}

// no button offers a context_length.
void TestUiGpt2Model::long_text_is_shortened_not_context_length()
{
    Session s;
    DiagnosticsPanel panel(&s);
    QVERIFY(openTiny(s));
    const std::int64_t positions = s.trace()->modelJob()->model()->model->settings.context_length;
    s.trace()->setInputText(
        QStringLiteral("The cat sat on the mat and then the dog sat on the cat, which did not like it."));
    const auto tokens = static_cast<std::int64_t>(s.trace()->textTokens().ids.size());
    QVERIFY(tokens > positions);
    QVERIFY(s.trace()->hasErrors());
    const Diagnostic* found = nullptr;
    for (const Diagnostic& d : s.trace()->diagnostics()) {
        QVERIFY2(d.message.find("context_length to") == std::string::npos, d.message.c_str());
        for (const Fix& f : d.fixes)
            QVERIFY(f.slot != Slot::context_length);
        if (d.code == DiagnosticCode::TokensExceedContext)
            found = &d;
    }
    QVERIFY(found);
    const QString said = QString::fromStdString(found->message);
    QVERIFY2(said.contains(QStringLiteral("has %1 tokens").arg(tokens)), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("at most %1 positions").arg(positions)), qPrintable(said));
    QVERIFY2(said.contains(QStringLiteral("shorten the text to %1 tokens or fewer").arg(positions)), qPrintable(said));
    QVERIFY(said.endsWith(QLatin1Char('.')) && said.count(QStringLiteral(". ")) == 0);
    QVERIFY(found->fixes.empty() && found->call_fix.empty());
    QCoreApplication::processEvents();
    for (const auto* button : panel.findChildren<QPushButton*>())
        QVERIFY2(!button->objectName().startsWith(QStringLiteral("fix-context_length")),
                 qPrintable(button->objectName()));

    // Shortened to fit, the error goes and the model runs again.
    s.trace()->setInputText(kText);
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(!s.trace()->hasErrors());
}

QTEST_MAIN(TestUiGpt2Model)
#include "test_ui_gpt2_model.moc"
