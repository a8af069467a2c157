// A saved session remembers the GPT-2 checkpoint its text went through: reopened, the checkpoint is opened
// again and its layer, head and text come back; a checkpoint gone since is said in one sentence naming it,
// and the rest of the session still loads; a file without the key opens as before.
#include "common/close_values.h"
#include "common/session_fixtures.h"
#include "model/model_job.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "shell/main_window.h"
#include "shell/open_model_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
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

bool openCheckpoint(Session& s, const QString& path)
{
    s.trace()->setInputText(kText);
    OpenModelDialog dialog(&s, path);
    if (!dialog.usable() || !dialog.openButton()->isEnabled())
        return false;
    QSignalSpy opened(s.trace()->modelJob(), &ModelJob::opened);
    dialog.openChosen();
    return opened.wait(30000) && testing::waitUntilSettled(s) && s.trace()->usesOpenedModel() && s.trace()->trace();
}

QJsonObject textInputOf(const QByteArray& bytes)
{
    return QJsonDocument::fromJson(bytes).object().value("settings").toObject().value("text_input").toObject();
}

} // namespace

class TestUiGpt2Session : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void saved_checkpoint_opens_again();
    void missing_checkpoint_is_said_and_the_rest_loads();
    void missing_checkpoint_labels_say_it();
    void files_without_the_key_load_as_before();
};

void TestUiGpt2Session::saved_checkpoint_opens_again()
{
    Session s;
    QVERIFY(openCheckpoint(s, kTiny));
    s.document()->setGptLayer(2);
    QVERIFY(testing::waitUntilSettled(s));
    s.view()->setHead(1);
    s.view()->setTab(ViewMode::Heatmaps);
    const QString file = QString::fromStdString(s.trace()->modelJob()->model()->plan.file);
    const QByteArray bytes = serializeSession(captureState(s), sessionFeatures());
    QCOMPARE(textInputOf(bytes).value("checkpoint").toString(), file);

    QString error;
    const auto state = parseSession(bytes, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    QCOMPARE(state->checkpoint, file);
    Session fresh;
    QSignalSpy opened(fresh.trace()->modelJob(), &ModelJob::opened);
    applyState(fresh, *state);
    QVERIFY(opened.wait(30000) || !opened.isEmpty());
    QVERIFY(testing::waitUntilSettled(fresh));
    QVERIFY(fresh.trace()->usesOpenedModel());
    QCOMPARE(fresh.document()->gptLayer(), 2);
    QCOMPARE(fresh.view()->head(), 1);
    QCOMPARE(fresh.view()->tab(), ViewMode::Heatmaps);
    QCOMPARE(fresh.document()->inputText(), kText);
    QVERIFY(!fresh.trace()->hasErrors());
    // The same layer's weights as the session saved: the checkpoint's own, not a Verdict GPT's.
    const QString difference =
        testing::firstDifference(fresh.trace()->trace()->find("attn_weights")->tensor.contiguous().to_vector(),
                                 s.trace()->trace()->find("attn_weights")->tensor.contiguous().to_vector());
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(serializeSession(captureState(fresh), sessionFeatures()), bytes);
}

// A session saved at `layer` of a copy of the checkpoint, "tiny-copy", deleted before the file is read back.
static std::optional<SessionState> savedWithGoneCheckpoint(const QTemporaryDir& dir, int layer, SessionState* saved)
{
    const QString copy = dir.filePath("tiny-copy");
    if (!QDir().mkpath(copy))
        return std::nullopt;
    for (const char* name : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
        if (QFile::exists(kTiny + "/" + name) && !QFile::copy(kTiny + "/" + name, copy + "/" + name))
            return std::nullopt;
    Session s;
    if (!openCheckpoint(s, copy))
        return std::nullopt;
    s.document()->setGptLayer(layer);
    if (!testing::waitUntilSettled(s))
        return std::nullopt;
    s.view()->setTab(ViewMode::Heatmaps);
    *saved = captureState(s);
    const QString path = dir.filePath("saved.attnlab.json");
    QString error;
    if (!saveSessionFile(path, *saved, sessionFeatures(), &error) || !QDir(copy).removeRecursively())
        return std::nullopt;
    return loadSessionFile(path, sessionFeatures(),
                           &error); // the file opens: the checkpoint is what is missing, not the session
}

void TestUiGpt2Session::missing_checkpoint_is_said_and_the_rest_loads()
{
    QTemporaryDir dir;
    SessionState saved;
    const auto state = savedWithGoneCheckpoint(dir, 1, &saved);
    QVERIFY(state);

    Session fresh;
    applyState(fresh, *state);
    QCoreApplication::processEvents();
    QVERIFY(!fresh.trace()->modelJob()->opening() && !fresh.trace()->usesOpenedModel());
    QCOMPARE(fresh.document()->inputText(), kText);
    QCOMPARE(fresh.view()->tab(), ViewMode::Heatmaps);
    QCOMPARE(fresh.document()->gptLayer(), 1);
    QVERIFY(fresh.trace()->hasErrors());
    QVERIFY(testing::hasDiagnostic(fresh, DiagnosticCode::ModelMissing));
    for (const Diagnostic& d : fresh.trace()->diagnostics()) {
        if (d.code != DiagnosticCode::ModelMissing)
            continue;
        const QString said = QString::fromStdString(d.message);
        QVERIFY2(said.contains(saved.checkpoint), qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("checkpoint")), qPrintable(said));
        QVERIFY2(said.endsWith(QLatin1Char('.')) && said.count(QStringLiteral(". ")) == 0, qPrintable(said));
    }
    // A Verdict GPT picked then runs, as from any state.
    fresh.trace()->useTrainedModel(2, 0);
    QVERIFY(testing::waitUntilSettled(fresh));
    QVERIFY(!fresh.trace()->hasErrors());
}

// No such model is open, so no label may name one: not the switch ("a GPT trained on The Verdict"), the
// variant picker (a head count), the layer picker (Verdict's two layers), the tokens (the story's
// tokenizer's), nor the status bar's weights (seeded ones: nothing runs).
void TestUiGpt2Session::missing_checkpoint_labels_say_it()
{
    QTemporaryDir dir;
    SessionState saved;
    const auto state = savedWithGoneCheckpoint(dir, 2, &saved);
    QVERIFY(state);
    Session fresh;
    MainWindow window(&fresh);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    applyState(fresh, *state);
    QVERIFY(testing::waitUntilSettled(fresh));
    QVERIFY(!fresh.trace()->usesOpenedModel());
    QCOMPARE(fresh.trace()->unopenedCheckpoint(), saved.checkpoint);

    auto* enabled = window.findChild<QCheckBox*>(QStringLiteral("text-input-enabled"));
    auto* variant = window.findChild<QComboBox*>(QStringLiteral("text-input-variant"));
    auto* layer = window.findChild<QComboBox*>(QStringLiteral("text-input-layer"));
    auto* about = window.findChild<QLabel*>(QStringLiteral("text-input-about"));
    auto* tokens = window.findChild<QWidget*>(QStringLiteral("text-input-tokens"));
    QLabel* weights = nullptr;
    for (auto* label : window.findChildren<QLabel*>())
        if (label->accessibleName() == QStringLiteral("Weights in use"))
            weights = label;
    QVERIFY(enabled && variant && layer && about && tokens && weights);
    QVERIFY(enabled->isChecked());
    QVERIFY2(!enabled->text().contains(QStringLiteral("Verdict")), qPrintable(enabled->text()));
    QVERIFY2(enabled->text().contains(QStringLiteral("not opened")), qPrintable(enabled->text()));
    QVERIFY2(enabled->toolTip().contains(saved.checkpoint), qPrintable(enabled->toolTip()));
    QCOMPARE(variant->currentText(), QStringLiteral("tiny-copy (not opened)"));
    QCOMPARE(layer->currentText(), QStringLiteral("layer 2")); // beyond the Verdict GPTs' two
    QVERIFY(!layer->isEnabled());
    QVERIFY2(about->text().contains(QStringLiteral("tiny-copy could not be opened")), qPrintable(about->text()));
    QVERIFY2(!about->text().contains(QStringLiteral("tokens")), qPrintable(about->text()));
    QVERIFY(!tokens->isVisibleTo(&window));
    QCOMPARE(weights->text(), QStringLiteral("Weights: none, tiny-copy could not be opened"));

    // Picking a Verdict GPT: its labels, and the unopened entry is gone.
    variant->setCurrentIndex(variant->findData(2));
    QVERIFY(testing::waitUntilSettled(fresh));
    QVERIFY(fresh.trace()->unopenedCheckpoint().isEmpty());
    QCOMPARE(enabled->text(), QStringLiteral("Text through a GPT trained on The Verdict"));
    QCOMPARE(variant->findText(QStringLiteral("tiny-copy (not opened)")), -1);
    QCOMPARE(variant->currentData().toInt(), 2);
    QVERIFY(layer->isEnabled());
    QVERIFY(tokens->isVisibleTo(&window));
    QVERIFY2(weights->text().startsWith(QStringLiteral("Weights: trained")), qPrintable(weights->text()));
}

void TestUiGpt2Session::files_without_the_key_load_as_before()
{
    Session s;
    s.trace()->setInputText(kText);
    s.trace()->useTrainedModel(4, 1);
    QVERIFY(testing::waitUntilSettled(s));
    const QByteArray bytes = serializeSession(captureState(s), sessionFeatures());
    QVERIFY(!textInputOf(bytes).contains("checkpoint"));
    QString error;
    const auto state = parseSession(bytes, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    QVERIFY(state->checkpoint.isEmpty());
    Session fresh;
    applyState(fresh, *state);
    QVERIFY(testing::waitUntilSettled(fresh));
    QVERIFY(!fresh.trace()->usesOpenedModel());
    QCOMPARE(fresh.trace()->gptHeads(), 4);
    QCOMPARE(fresh.document()->gptLayer(), 1);
    QVERIFY(!fresh.trace()->hasErrors());

    // The key of the wrong type is refused in one sentence naming it.
    QJsonObject o = QJsonDocument::fromJson(bytes).object();
    QJsonObject settings = o.value("settings").toObject();
    QJsonObject text = settings.value("text_input").toObject();
    text.insert("checkpoint", 3);
    settings.insert("text_input", text);
    o.insert("settings", settings);
    QVERIFY(!sessionFromJson(o, sessionFeatures(), &error));
    QVERIFY2(error.contains(QStringLiteral("checkpoint")), qPrintable(error));
}

QTEST_MAIN(TestUiGpt2Session)
#include "test_ui_gpt2_session.moc"
