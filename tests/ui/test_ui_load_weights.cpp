// "Load your own": File > Load Weights… reads a torch state_dict or a GPT-2 checkpoint,
// asks for num_heads (the weights do not store it), and the window then shows the attention of those
// very weights -- the same numbers the core computes from the file -- as one undoable edit. Bad and
// vanished files are explained inline and change nothing; --weights does the same from the command line.
#include "common/session_fixtures.h"
#include "shell/diagnostics_panel.h"
#include "shell/export_actions.h"
#include "widgets/load_weights_dialog.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "model/undo_commands.h"
#include "shell/weights_actions.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

#include <limits>

#include <cmath>

using namespace attnlab;
using namespace attnlab::ui;
using testing::idle;

namespace {

Tensor values(const Shape& shape, double phase)
{
    std::vector<float> v(static_cast<std::size_t>(shape_numel(shape)));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<float>(0.5 * std::sin(0.37 * static_cast<double>(i) + phase));
    return Tensor::from_values(shape, std::move(v));
}

// MultiHeadAttention(6, 4, ..., qkv_bias=True) as torch saves its state_dict.
void writeTorchFile(const QString& path)
{
    std::vector<std::pair<std::string, Tensor>> t;
    double phase = 0;
    for (const char* p : {"W_query", "W_key", "W_value"}) {
        t.emplace_back(std::string(p) + ".weight", values({4, 6}, phase += 1));
        t.emplace_back(std::string(p) + ".bias", values({4}, phase += 1));
    }
    t.emplace_back("out_proj.weight", values({4, 4}, 7));
    t.emplace_back("out_proj.bias", values({4}, 8));
    write_safetensors(path.toStdString(), t, {});
}

// A two-layer GPT-2 with d=8, its causal-mask buffer saying context_length=8.
void writeGpt2File(const QString& path)
{
    std::vector<std::pair<std::string, Tensor>> t;
    for (int l = 0; l < 2; ++l) {
        const std::string at = "h." + std::to_string(l) + ".attn.";
        t.emplace_back(at + "bias", Tensor::zeros({1, 1, 8, 8}));
        t.emplace_back(at + "c_attn.weight", values({8, 24}, 10 * l + 1));
        t.emplace_back(at + "c_attn.bias", values({24}, 10 * l + 2));
        t.emplace_back(at + "c_proj.weight", values({8, 8}, 10 * l + 3));
        t.emplace_back(at + "c_proj.bias", values({8}, 10 * l + 4));
    }
    write_safetensors(path.toStdString(), t, {});
}

// What the core computes on its own from the file: the output the window must show.
Tensor coreOutput(const Session& s, const QString& path, WeightLayout layout, int layer, std::int64_t heads)
{
    ExperimentSpec spec;
    spec.config = s.document()->config();
    spec.config.num_heads = heads;
    spec.batch = s.document()->batch();
    spec.num_tokens = s.document()->numTokens();
    spec.weights_path = path.toStdString();
    spec.layout = layout;
    spec.layer = layer;
    return run(prepare(spec)).stages.back().tensor;
}

} // namespace

class TestUiLoadWeights : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        writeTorchFile(torch_ = dir_.filePath("mha-6-4.safetensors"));
        writeGpt2File(gpt2_ = dir_.filePath("gpt2-tiny.safetensors"));
    }
    void init()
    {
        session_ = std::make_unique<Session>();
        session_->document()->applyPreset(*findPreset(QStringLiteral("book"))); // MultiHeadAttention(3, 2, 6, 0.0, 2)
        window_ = std::make_unique<MainWindow>(session_.get());
        history_ = std::make_unique<SettingsHistory>(session_->document());
        weights_ = std::make_unique<WeightsActions>(window_.get(), session_.get());
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 30000);
    }
    void cleanup()
    {
        weights_.reset();
        history_.reset();
        window_.reset();
        session_.reset();
    }

    void theDialogSaysWhatTheFileHoldsAndAsksForNumHeads()
    {
        LoadWeightsDialog dialog(torch_, session_->document()->spec());
        QVERIFY(dialog.usable());
        QVERIFY(dialog.layerBox()->isHidden());                // a state_dict has no layers
        QCOMPARE(dialog.headsBox()->count(), 3);               // 1, 2, 4: the divisors of d_out=4
        QCOMPARE(dialog.headsBox()->currentData().toInt(), 2); // the current num_heads divides: kept
        QCOMPARE(dialog.headsBox()->itemText(2), QStringLiteral("4  (head_dim 1)"));
        QVERIFY(!dialog.headsBox()->accessibleName().isEmpty() && !dialog.headsBox()->toolTip().isEmpty());
        bool said = false;
        for (const QLabel* l : dialog.findChildren<QLabel*>())
            said = said || l->text().contains(QStringLiteral("num_heads is not stored in the weights"));
        QVERIFY(said);
        const Config c = dialog.chosenSpec().config;
        QCOMPARE(QString::fromStdString(positional_call(c)),
                 QStringLiteral("MultiHeadAttention(6, 4, 6, 0.0, 2, True)"));
    }

    void loadingAGpt2LayerShowsItsRealAttentionAndUndoGoesBack()
    {
        const Tensor seeded = session_->trace()->trace()->stages.back().tensor;
        QTimer::singleShot(0, this, [] { // the dialog is modal: set it up and press Load from inside
            auto* d = qobject_cast<LoadWeightsDialog*>(QApplication::activeModalWidget());
            QVERIFY(d && d->layerBox()->isVisibleTo(d));
            d->layerBox()->setCurrentIndex(d->layerBox()->findData(1));
            d->headsBox()->setCurrentIndex(d->headsBox()->findData(4));
            QTest::mouseClick(d->loadButton(), Qt::LeftButton);
        });
        QVERIFY(weights_->openDialog(gpt2_));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.d_in == 8, 30000);
        QCOMPARE(session_->document()->config().num_heads, 4);
        QCOMPARE(session_->document()->config().context_length, 8); // from h.1.attn.bias
        QVERIFY(session_->document()->config().qkv_bias);
        QCOMPARE(session_->document()->spec().layer, 1);
        const Tensor shown = session_->trace()->trace()->stages.back().tensor;
        QCOMPARE(shown.to_vector(), coreOutput(*session_, gpt2_, WeightLayout::Gpt2Hf, 1, 4).to_vector());
        QVERIFY(shown.to_vector() != coreOutput(*session_, gpt2_, WeightLayout::Gpt2Hf, 0, 4).to_vector());
        QCOMPARE(window_->weightsLabel()->text(), QStringLiteral("Weights: gpt2-tiny.safetensors, layer 1"));

        QUndoStack* stack = history_->stack();
        QCOMPARE(stack->count(), 1); // module, widths, heads, context and the file: one edit
        QCOMPARE(stack->undoText(), QStringLiteral("Change weights"));
        stack->undo();
        QVERIFY(session_->document()->spec().weights_path.empty());
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.d_in == 3, 30000);
        QCOMPARE(session_->trace()->trace()->stages.back().tensor.to_vector(), seeded.to_vector());
        QCOMPARE(window_->weightsLabel()->text(), QStringLiteral("Weights: torch.manual_seed(123)"));
    }

    void aFileThatCannotBeUsedIsExplainedInlineAndChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        QTest::newRow("not safetensors") << QByteArray("certainly not a safetensors file") << "cannot be loaded: '";
        QTest::newRow("missing") << QByteArray() << "does not exist";
    }

    void aFileThatCannotBeUsedIsExplainedInlineAndChangesNothing()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        const QString path = dir_.filePath(QStringLiteral("bad.safetensors"));
        QFile::remove(path);
        if (!bytes.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const ExperimentSpec before = session_->document()->spec();
        testing::PartsSpy spy(*session_);
        QTimer::singleShot(0, this, [says] {
            auto* d = qobject_cast<LoadWeightsDialog*>(QApplication::activeModalWidget());
            QVERIFY(d && !d->usable() && !d->loadButton()->isEnabled());
            QVERIFY2(d->errorText().contains(says), qPrintable(d->errorText()));
            d->reject();
        });
        QVERIFY(!weights_->openDialog(path));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(session_->document()->spec().config, before.config);
        QCOMPARE(history_->stack()->count(), 0);
    }

    // Weights holding NaN or infinity are refused as the CLI refuses them (core's require_finite), said inline in the
    // diagnostics, never drawn as a heatmap of nan.
    void weightsThatAreNotFiniteAreSaidInline()
    {
        const QString path = dir_.filePath(QStringLiteral("nan.safetensors"));
        std::vector<std::pair<std::string, Tensor>> t;
        for (const char* p : {"W_query", "W_key", "W_value"})
            t.emplace_back(std::string(p) + ".weight", values({4, 6}, 1));
        t.emplace_back("out_proj.weight", values({4, 4}, 7));
        t.emplace_back("out_proj.bias", values({4}, 8));
        t[1].second.data()[2] = std::numeric_limits<float>::quiet_NaN();
        write_safetensors(path.toStdString(), t, {});
        QString error;
        weights_->apply(*specWithFileWeights(session_->document()->spec(), path, std::nullopt, &error));
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy() && session_->trace()->hasErrors(), 30000);
        bool shown = false;
        for (const QLabel* l : window_->diagnosticsPanel()->findChildren<QLabel*>())
            shown = shown || l->text().contains(QStringLiteral("W_key.weight has 1 NaN of 24 values"));
        QVERIFY2(shown, "the diagnostics panel does not say the weights hold NaN");
        weights_->useSeededWeights();
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && !session_->trace()->hasErrors(), 30000);
    }

    void aLoadedFileThatVanishesIsSaidInline()
    {
        const QString path = dir_.filePath(QStringLiteral("vanishing.safetensors"));
        writeTorchFile(path);
        QString error;
        weights_->apply(*specWithFileWeights(session_->document()->spec(), path, std::nullopt, &error));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.d_in == 6, 30000);
        QCOMPARE(session_->trace()->trace()->stages.back().tensor.to_vector(),
                 coreOutput(*session_, torch_, WeightLayout::Torch, 0, 2).to_vector()); // same numbers as mha-6-4
        QVERIFY(QFile::remove(path));
        session_->document()->setInputShape(1, 5); // any recomputation reads the file again
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy() && session_->trace()->hasErrors(), 30000);
        bool shown = false;
        for (const QLabel* l : window_->diagnosticsPanel()->findChildren<QLabel*>())
            shown = shown || (l->text().contains(QStringLiteral("vanishing.safetensors")) &&
                              l->text().contains(QStringLiteral("does not exist")));
        QVERIFY2(shown, "the diagnostics panel does not say the weights file is gone");
        weights_->useSeededWeights(); // and the way back works
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && !session_->trace()->hasErrors(), 30000);
    }

    void theCommandLineLoadsWeightsToo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("refusal"); // empty: loaded
        QTest::newRow("gpt2 layer 1") << QStringList{"--weights", gpt2_, "--layer", "1"} << "";
        QTest::newRow("torch") << QStringList{"--weights", torch_} << "";
        QTest::newRow("no such layer") << QStringList{"--weights", gpt2_, "--layer", "7"}
                                       << "has no layer 7; it holds layers 0, 1.";
        QTest::newRow("layer of a state_dict")
            << QStringList{"--weights", torch_, "--layer", "0"} << "--layer does not apply";
        QTest::newRow("missing file") << QStringList{"--weights", dir_.filePath("nowhere.safetensors")}
                                      << "does not exist";
        QTest::newRow("layer alone") << QStringList{"--layer", "1"} << "need --weights FILE";
    }

    void theCommandLineLoadsWeightsToo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, refusal);
        QCommandLineParser parser;
        addWeightsOptions(parser);
        QVERIFY(parser.parse(QStringList{"attention-lab"} + args));
        const QString said = applyStartupWeights(parser, *session_);
        QVERIFY2(said.contains(refusal) && said.isEmpty() == refusal.isEmpty(), qPrintable(said));
        QCOMPARE(session_->document()->spec().weights_path.empty(), !refusal.isEmpty());
        if (refusal.isEmpty())
            QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && !session_->trace()->hasErrors() &&
                                         session_->trace()->trace()->config.d_in != 3,
                                     30000);
    }

    // "Copy as PyTorch" really run by PyTorch: the book's class, the loaded weights, the same output.
    void theExportedScriptReproducesTheLoadedWeightsInPyTorch()
    {
        const QString python = QStringLiteral("/usr/bin/python3");
        if (QProcess::execute(python, {"-c", "import torch"}) != 0)
            QSKIP("/usr/bin/python3 cannot import torch (Debian: apt install python3-torch), so the exported "
                  "script cannot be run here");
        QString error;
        weights_->apply(*specWithFileWeights(session_->document()->spec(), gpt2_, 1, &error));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.d_in == 8, 30000);
        exportedScriptMatchesPyTorch(python);
    }

    // The project's GroupedQueryAttention, with a sliding window, exported and run by PyTorch as the book's
    // classes are: the class text from resources/pytorch, the seeded weights, the same output.
    void aGroupedQueryModuleExportsAndRunsInPyTorch()
    {
        const QString python = QStringLiteral("/usr/bin/python3");
        if (QProcess::execute(python, {"-c", "import torch"}) != 0)
            QSKIP("/usr/bin/python3 cannot import torch (Debian: apt install python3-torch), so the exported "
                  "script cannot be run here");
        session_->document()->setCallText(
            QStringLiteral("GroupedQueryAttention(8, 12, 8, 0.0, 6, 2, qkv_bias=True, window_size=3)"));
        session_->document()->setInputShape(2, 7);
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && !session_->trace()->hasErrors() &&
                                     session_->trace()->trace()->config.is_grouped(),
                                 30000);
        exportedScriptMatchesPyTorch(python);
    }

private:
    void exportedScriptMatchesPyTorch(const QString& python)
    {
        QString error;
        ExportActions exports(window_.get(), session_.get());
        const QString script = exports.copyAsPytorch(dir_.filePath("export.safetensors"), &error);
        QVERIFY2(!script.isEmpty(), qPrintable(error));
        const QString scriptPath = dir_.filePath("export.py"), valuesPath = dir_.filePath("values.txt");
        QFile file(scriptPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(script.toUtf8());
        file.close();
        QProcess p;
        p.start(python, {scriptPath, valuesPath});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const std::string shape = shape_to_string(session_->trace()->trace()->stages.back().tensor.shape());
        QVERIFY(p.readAllStandardOutput().contains(("output: " + shape).c_str()));

        QFile values(valuesPath);
        QVERIFY(values.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = values.readAll().trimmed().split('\n');
        const std::vector<float> ours = session_->trace()->trace()->stages.back().tensor.to_vector();
        QCOMPARE(static_cast<std::size_t>(lines.size()), ours.size());
        for (std::size_t i = 0; i < ours.size(); ++i) { // the golden files' tolerance: rtol 1e-4, atol 2e-5
            const double theirs = lines[static_cast<qsizetype>(i)].toDouble();
            QVERIFY2(
                std::abs(theirs - ours[i]) <= 2e-5 + 1e-4 * std::abs(theirs),
                qPrintable(QStringLiteral("value %1: PyTorch %2, Attention Lab %3").arg(i).arg(theirs).arg(ours[i])));
        }
    }

    QTemporaryDir dir_;
    QString torch_, gpt2_;
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<SettingsHistory> history_;
    std::unique_ptr<WeightsActions> weights_;
};

QTEST_MAIN(TestUiLoadWeights)
#include "test_ui_load_weights.moc"
