// A GPT trained in the app on a synthetic task, saved and opened as the model under study: it reads its
// task's letters (not GPT-2's BPE), is first shown a held-out sequence of its own task, its layer's trace
// and every head come from its own forward on those ids, and a letter it has no token for is said
// inline, with the chips saying the same, and nothing is run on it.
#include "common/session_fixtures.h"
#include "gpt/gpt2_checkpoint.h"
#include "gpt/gpt_forward.h"
#include "gpt/gpt_text.h"
#include "text/letter_tokens.h"
#include "text/tokenizer.h"
#include "model/model_job.h"
#include "common/session_parts.h"
#include "train/run_files.h"
#include "train/train_run.h"
#include "widgets/token_chips.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// The book's GPT (vocabulary 16, context 32, emb 32, 4 heads) trained on `task` and saved as `train --save`
// saves it, in `dir`.
QString trainModel(const QTemporaryDir& dir, const std::string& task, std::int64_t layers, std::int64_t steps,
                   std::int64_t batch)
{
    train::RunSettings settings;
    settings.task = task;
    settings.shape = {16, 32, 32, layers, 4, 0.0, false};
    settings.steps = steps;
    settings.batch = batch;
    settings.eval_every = steps;
    const QString path = dir.filePath(QString::fromStdString(task) + QStringLiteral("-h4.safetensors"));
    train::save_trained_model(path.toStdString(), train::train_run(settings), {});
    return path;
}

bool openFile(Session& s, const QString& path)
{
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    s.trace()->openModel(plan_gpt2_checkpoint(path.toStdString()));
    return opened.wait(30000) && testing::waitUntilSettled(s) && s.trace()->usesOpenedModel() && s.trace()->trace();
}

} // namespace

class TestUiTaskModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reads_its_task_in_letters();
    void layer_is_the_forward_on_the_letters();
    void unknown_letter_is_said_and_not_run();
    void students_letters_are_kept();
    void short_context_verdict_model_opens_on_its_first_text();
    void predict_asks_which_head_looks_back();

private:
    QTemporaryDir dir_;
    QString path_;
};

void TestUiTaskModel::initTestCase()
{
    QVERIFY(dir_.isValid());
    path_ = trainModel(dir_, "induction", 2, 5, 8); // a file the trainer really wrote, not a trained model
}

void TestUiTaskModel::reads_its_task_in_letters()
{
    Session s;
    s.trace()->setInputText(QStringLiteral("I HAD always thought Jack Gisburn rather a cheap genius"));
    QVERIFY(openFile(s, path_));
    const OpenedModel& m = *s.trace()->modelJob()->model();
    QCOMPARE(m.reader, TextReader::Letters);
    QVERIFY(!m.tokenizer); // GPT-2's files are not read for it
    // The story's words are nothing to it: it is shown its task's first held-out sequence instead.
    QCOMPARE(s.document()->inputText(), QString::fromStdString(example_text(*m.model)));
    const TokenizedText tokens = s.trace()->textTokens();
    QCOMPARE(tokens.ids.size(), std::size_t(32));
    for (std::size_t i = 0; i < tokens.ids.size(); ++i) {
        QVERIFY(!tokens.unknown[i]);
        QVERIFY(tokens.ids[i] >= 0 && tokens.ids[i] < 16);
        QCOMPARE(tokens.tokens[i], letter_token(tokens.ids[i]));
    }
    QVERIFY(!s.trace()->hasErrors());
    QCOMPARE(s.trace()->tokenLabels().value(0), QString::fromStdString(tokens.tokens[0]));
    QVERIFY(s.feature<OverviewState>()->layerAttention());
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->grid.size(), std::size_t(2));
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->grid[0].size(), std::size_t(4));
    QCOMPARE(s.feature<OverviewState>()->layerAttention()->ids, tokens.ids);
}

void TestUiTaskModel::layer_is_the_forward_on_the_letters()
{
    Session s;
    QVERIFY(openFile(s, path_));
    s.document()->setGptLayer(1);
    QVERIFY(testing::waitUntilSettled(s));
    const OpenedModel& m = *s.trace()->modelJob()->model();
    const std::vector<std::int64_t> ids = letter_tokenize(s.document()->inputText().toStdString(), 16).ids;
    const GptForward f = gpt_forward(*m.model, m.plan.layer_norm_eps, ids, {.full_traces = {1}});
    const Tensor& shown = s.trace()->trace()->find("attn_weights")->tensor;
    QCOMPARE(shown.shape(), f.layers[1].attn_weights.shape());
    // Equal up to the order of float sums: the Session's run is on a worker thread, where OpenBLAS may
    // split a product otherwise (2e-8 seen).
    const std::vector<float> a = shown.contiguous().to_vector(), b = f.layers[1].attn_weights.contiguous().to_vector();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        QVERIFY2(std::abs(a[i] - b[i]) <= 1e-6f, qPrintable(QString::number(i)));
}

void TestUiTaskModel::unknown_letter_is_said_and_not_run()
{
    Session s;
    QVERIFY(openFile(s, path_));
    const auto before = s.trace()->trace();
    s.trace()->setInputText(QStringLiteral("A B C Q"));
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(s.trace()->hasErrors());
    QString said;
    for (const Diagnostic& d : s.trace()->diagnostics())
        if (d.code == DiagnosticCode::TextUnusable)
            said = QString::fromStdString(d.message);
    QVERIFY2(said.contains(QStringLiteral("'Q'")) && said.contains(QStringLiteral("A to P")), qPrintable(said));
    TokenChips chips;
    chips.setTokens(s.trace()->textTokens());
    QVERIFY2(chips.accessibleDescription().contains(QStringLiteral("Q → not a token of this model")),
             qPrintable(chips.accessibleDescription()));
    QVERIFY(!chips.accessibleDescription().contains(QStringLiteral("<|unk|>")));
    // Fixed, it runs again.
    s.trace()->setInputText(QStringLiteral("A B C A B"));
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(!s.trace()->hasErrors());
    QVERIFY(s.trace()->trace() && s.trace()->trace() != before);
    QCOMPARE(s.trace()->trace()->find("attn_weights")->tensor.size(2), std::int64_t(5));
}

void TestUiTaskModel::students_letters_are_kept()
{
    Session s;
    s.trace()->setInputText(QStringLiteral("ABCDABCD"));
    QVERIFY(openFile(s, path_));
    QCOMPARE(s.document()->inputText(), QStringLiteral("ABCDABCD"));
    QCOMPARE(s.trace()->textTokens().ids, (std::vector<std::int64_t>{0, 1, 2, 3, 0, 1, 2, 3}));
}

// A model trained here on the-verdict with --context 56 opened with the story's first sentence (57 tokens) in the
// Text input: the sentence is cut at a space to what it reads, and its trace comes (it opened on an inline error,
// "the text has 57 tokens; ... takes at most 56").
void TestUiTaskModel::short_context_verdict_model_opens_on_its_first_text()
{
    train::RunSettings settings;
    settings.task = "the-verdict";
    settings.shape = {1132, 56, 16, 1, 2, 0.0, false};
    settings.steps = 1;
    settings.batch = 2;
    settings.eval_every = 1;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("verd56.safetensors"));
    train::save_trained_model(path.toStdString(), train::train_run(settings), {});
    Session s;
    s.trace()->setInputText(QString::fromStdString(verdict_first_sentence()));
    QCOMPARE(s.trace()->textTokens().ids.size(), std::size_t{57});
    QVERIFY(openFile(s, path));
    const std::string text = s.document()->inputText().toStdString();
    QVERIFY2(verdict_first_sentence().starts_with(text) && text.size() > 100, text.c_str());
    QVERIFY(s.trace()->textTokens().ids.size() <= 56);
    // A student's own text is theirs: kept when reopened, even where the model cannot read it whole.
    const QString own = QString::fromStdString(verdict_first_sentence() + " " + verdict_first_sentence());
    s.trace()->setInputText(own);
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    s.trace()->openModel(plan_gpt2_checkpoint(path.toStdString()));
    QVERIFY(opened.wait(30000) && testing::waitUntilSettled(s));
    QCOMPARE(s.document()->inputText(), own);
}

// Predict First on a model trained here, whose heads differ: at the weights stage it asks which head looks
// at the previous token, and the head the measures rank first is the right pick.
void TestUiTaskModel::predict_asks_which_head_looks_back()
{
    const QString path = trainModel(dir_, "previous-token", 1, 200, 16); // long enough for heads that look back
    Session s;
    QVERIFY(openFile(s, path));
    s.study()->setPredictFirst(true);
    QVERIFY(s.view()->setStageByName(QStringLiteral("attn_weights")));
    QVERIFY(testing::waitUntilSettled(s));
    QVERIFY(!s.study()->stageRevealed());
    const std::optional<HeadQuestion> q = s.study()->headQuestion();
    QVERIFY(q.has_value());
    QCOMPARE(q->previous.size(), std::size_t{4});
    QVERIFY(q->previous[static_cast<std::size_t>(q->best)] > 2 * q->uniform); // a head this task trained looks back
    const Verdict right = s.study()->answerHead(q->best);
    QVERIFY2(right.right, right.says.c_str());
}

QTEST_MAIN(TestUiTaskModel)
#include "test_ui_task_model.moc"
