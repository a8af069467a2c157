// Undo/redo of settings edits and File > Export: keystrokes into one spin box are one
// step; undo and redo walk the settings back and forth through the real widgets; the PNG, SVG, CSV
// and Markdown exports hold what is on screen; "Copy as PyTorch" writes runnable code and weights.
#include "common/gift_parser.h"
#include "common/session_fixtures.h"
#include "shell/call_line.h"
#include "shell/config_panel.h"
#include "shell/export_actions.h"
#include "render/heatmap_source.h"
#include "features/heatmaps/heatmaps_view.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "io/safetensors.h"
#include "common/session_parts.h"
#include "model/undo_commands.h"

#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QProcess>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::idle;

namespace {

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestUiUndoExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }
    void init()
    {
        session_ = std::make_unique<Session>();
        window_ = std::make_unique<MainWindow>(session_.get());
        session_->document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        history_ = std::make_unique<SettingsHistory>(session_->document());
        exports_ = std::make_unique<ExportActions>(window_.get(), session_.get());
        window_->resize(1400, 900);
        window_->show();
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 30000);
    }
    void cleanup()
    {
        exports_.reset();
        history_.reset();
        window_.reset();
        session_.reset();
    }

    void keystrokesInOneSpinBoxAreOneUndoStep()
    {
        auto* heads = qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("num_heads"));
        heads->setFocus();
        heads->selectAll();
        QTest::keyClicks(heads, "24"); // 2, then 24: one edit of num_heads
        QCOMPARE(session_->document()->config().num_heads, 24);
        QUndoStack* stack = history_->stack();
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Change num_heads"));

        stack->undo();
        QCOMPARE(session_->document()->config().num_heads, 12);
        QCOMPARE(heads->value(), 12);
        QCOMPARE(window_->callLine()->text(), QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)"));
        stack->redo();
        QCOMPARE(session_->document()->config().num_heads, 24);
        QCOMPARE(heads->value(), 24);
        QCOMPARE(stack->count(), 1); // undo and redo record nothing themselves
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.num_heads == 24, 30000);
    }

    void differentEditsUndoOneByOneIncludingTheCallLineAndPresets()
    {
        QUndoStack* stack = history_->stack();
        auto* dIn = qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("d_in"));
        dIn->setFocus();
        dIn->selectAll();
        QTest::keyClicks(dIn, "64");
        CallLine* line = window_->callLine();
        line->setFocus();
        line->selectAll();
        QTest::keyClicks(line, "MultiHeadAttention(64, 768, 1024, 0.0, 6)");
        QCOMPARE(session_->document()->config().num_heads, 6);
        session_->document()->applyPreset(*findPreset(QStringLiteral("book")));
        QCOMPARE(stack->count(), 3);

        stack->undo(); // the preset
        QCOMPARE(session_->document()->config().d_in, 64);
        QCOMPARE(session_->document()->config().num_heads, 6);
        QVERIFY(!session_->document()->prefersBookInput());
        stack->undo(); // the typed call, every keystroke at once
        QCOMPARE(session_->document()->config().num_heads, 12);
        QCOMPARE(session_->document()->config().d_in, 64);
        QVERIFY(!session_->document()->callError());
        stack->undo(); // d_in
        QCOMPARE(session_->document()->config().d_in, 768);
        QVERIFY(!stack->canUndo());
        stack->redo();
        stack->redo();
        stack->redo();
        QCOMPARE(session_->document()->config().d_in, 3);
        QVERIFY(session_->document()->prefersBookInput());
        QCOMPARE(session_->document()->batch(), 2);
    }

    void editsFarApartInTimeAreSeparateSteps()
    {
        const qint64 late = SettingsCommand::kMergeWindowMs + 1;
        Document a = session_->document()->document(), b = a, c = a;
        b.spec.config.num_heads = 6;
        c.spec.config.num_heads = 4;
        SettingsCommand first(history_.get(), a, b, 0), soon(history_.get(), b, c, 100),
            later(history_.get(), b, c, late);
        QVERIFY(SettingsCommand(history_.get(), a, b, 0).mergeWith(&soon));
        QVERIFY(!first.mergeWith(&later));
        Document d = a;
        d.spec.num_tokens = 8;
        SettingsCommand otherField(history_.get(), b, d, 50);
        QVERIFY(!first.mergeWith(&otherField));
    }

    // Merging goes by the typed field, whatever language the Edit menu speaks; whole edits never merge.
    void editsMergeByTheirField()
    {
        Document a = session_->document()->document(), heads = a, both = a, loaded = a;
        heads.spec.config.num_heads = 6;
        both.spec.config.num_heads = 4;
        both.spec.num_tokens = 8;
        loaded.spec.weights_path = "w.safetensors";
        QCOMPARE(changedField(a, heads), DocumentField{Slot::num_heads});
        QCOMPARE(fieldLabel(changedField(a, heads)), QStringLiteral("num_heads"));
        QCOMPARE(changedField(heads, both), DocumentField{DocumentPart::Whole});
        QCOMPARE(changedField(a, loaded), DocumentField{DocumentPart::Weights});
        QCOMPARE(fieldLabel(DocumentPart::Weights), QStringLiteral("weights"));
        Document more = both, loadedAgain = loaded;
        more.spec.config.num_heads = 3;
        more.spec.num_tokens = 9;
        loadedAgain.spec.weights_path = "v.safetensors";
        const SettingsCommand moreSoon(history_.get(), both, more, 10),
            loadedSoon(history_.get(), loaded, loadedAgain, 10);
        QVERIFY(!SettingsCommand(history_.get(), heads, both, 0).mergeWith(&moreSoon));
        QVERIFY(!SettingsCommand(history_.get(), a, loaded, 0).mergeWith(&loadedSoon));
    }

    void exportsThePictureOfTheCurrentView()
    {
        session_->view()->setTab(ViewMode::Heatmaps);
        const QString png = dir_.filePath("view.png"), svg = dir_.filePath("view.svg");
        QString error;
        QVERIFY2(exports_->exportViewPng(png, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size() / image.devicePixelRatio(), window_->heatmapsView()->size());
        QVERIFY2(exports_->exportViewSvg(svg, &error), qPrintable(error));
        const QString text = readText(svg);
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("<title>Attention Lab: MultiHeadAttention(768, 768, 1024, 0.0, 12)</title>"));
        QVERIFY(text.size() > 2000); // the drawing itself, not an empty frame
    }

    void exportsTheSelectedHeatmapAsCsv()
    {
        session_->document()->applyPreset(*findPreset(QStringLiteral("book")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.d_in == 3, 30000);
        session_->view()->setHead(1);
        session_->view()->setHeatmapKind(AttentionMatrix::Weights);
        const QString path = dir_.filePath("weights.csv");
        QString error;
        QVERIFY2(exports_->exportHeatmapCsv(path, &error), qPrintable(error));
        const QStringList rows = readText(path).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 7);
        QCOMPARE(rows[0], QStringLiteral("query \\ key,Your,journey,starts,with,one,step"));
        QCOMPARE(rows[1], QStringLiteral("Your,1.0,0.0,0.0,0.0,0.0,0.0")); // the first token sees only itself
        const QStringList last = rows[6].split(',');
        QCOMPARE(last.size(), 7);
        double sum = 0;
        for (int i = 1; i < 7; ++i)
            sum += last[i].toDouble();
        QVERIFY(std::abs(sum - 1.0) < 1e-5); // a softmax row
        const HeatmapSlice slice = heatmapSlice(session_->trace()->trace(), AttentionMatrix::Weights, 1, 0);
        QCOMPARE(last[3].toFloat(), slice.value(5, 2));

        session_->view()->setHeatmapKind(AttentionMatrix::MaskedScores);
        QVERIFY(exports_->exportHeatmapCsv(path, &error));
        QVERIFY(readText(path).split('\n')[1].endsWith(",-inf,-inf,-inf,-inf,-inf"));
    }

    void exportsTheShapeTraceAsMarkdown()
    {
        const QString path = dir_.filePath("trace.md");
        QString error;
        QVERIFY2(exports_->exportTraceMarkdown(path, &error), qPrintable(error));
        const QString md = readText(path);
        QVERIFY(md.contains("| # | stage | code line | shape | strides | contiguous |"));
        QVERIFY(md.contains("| `queries.view` | `queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)` "
                            "| (1, 16, 12, 64) | (12288, 768, 64, 1) | yes |"));
        QVERIFY(md.contains("| `context.transposed` | `context_vec = (attn_weights @ values).transpose(1, 2)` "
                            "| (1, 16, 12, 64) | (12288, 64, 1024, 1) | **no** |"));
        int tableRows = 0;
        for (const QString& line : md.split('\n'))
            tableRows += line.startsWith(QLatin1String("| ")) ? 1 : 0;
        QCOMPARE(tableRows, static_cast<int>(session_->trace()->trace()->stages.size()) + 1); // + the header
    }

    // The questions of the call in view as a GIFT quiz, read back with the reader written from the format's
    // documentation, and as a page to print: the same questions, the answers the trace computes.
    void exportsTheQuestionsAsAQuizAndAHandout()
    {
        const QString quiz = dir_.filePath("class.gift"), page = dir_.filePath("class.html");
        QString error;
        QVERIFY2(exports_->exportQuizGift(quiz, &error), qPrintable(error));
        const auto read = ::testing::parse_gift(readText(quiz).toStdString());
        const auto& stages = session_->trace()->trace()->stages;
        QVERIFY(read.size() > stages.size()); // every stage but x, each axis its own question
        const auto head_dim = std::find_if(read.begin(), read.end(),
                                           [](const auto& q) { return q.title == "stage:queries.view axis-3"; });
        QVERIFY(head_dim != read.end());
        QCOMPARE(*head_dim->number, static_cast<double>(session_->document()->config().head_dim()));
        QVERIFY2(exports_->exportHandoutHtml(page, &error), qPrintable(error));
        const QString html = readText(page);
        QVERIFY(html.contains("What shape does context.merged have?"));
        QVERIFY(html.contains("<h1>Answers</h1>"));
    }

    void copyAsPytorchWritesRunnableCodeAndTheWeights()
    {
        session_->document()->applyPreset(*findPreset(QStringLiteral("book")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.d_in == 3, 30000);
        const QString weights = dir_.filePath("book weights.safetensors");
        QString error;
        const QString script = exports_->copyAsPytorch(weights, &error);
        QVERIFY2(!script.isEmpty(), qPrintable(error));
        QCOMPARE(QApplication::clipboard()->text(), script);
        QVERIFY(script.contains("class MultiHeadAttention(nn.Module):"));
        QVERIFY(script.contains("context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)"));
        QVERIFY(script.contains("module = MultiHeadAttention(3, 2, 6, 0.0, 2)\n"));
        QVERIFY(script.contains(QStringLiteral("WEIGHTS = \"%1\"").arg(weights)));
        QVERIFY(script.contains("module.load_state_dict(tensors, strict=False)"));

        const SafetensorsFile file = read_safetensors(weights.toStdString());
        for (const char* name :
             {"W_query.weight", "W_key.weight", "W_value.weight", "out_proj.weight", "out_proj.bias"})
            QVERIFY2(file.find(name), name);
        QCOMPARE(file.find("W_query.weight")->shape(), (Shape{2, 3}));
        const Tensor* x = file.find("x");
        QVERIFY(x);
        QCOMPARE(x->shape(), (Shape{2, 6, 3}));
        QCOMPARE(x->contiguous().data()[0], session_->trace()->trace()->stages.front().tensor.contiguous().data()[0]);
        QCOMPARE(file.meta("call"), std::string("MultiHeadAttention(3, 2, 6, 0.0, 2)"));

        // The wrapper's script carries CausalAttention too; and every script is valid Python.
        session_->document()->setModuleKind(ModuleKind::MultiHeadAttentionWrapper);
        const QString wrapper = exports_->copyAsPytorch(dir_.filePath("w.safetensors"), &error);
        QVERIFY(wrapper.contains("class CausalAttention(nn.Module):"));
        QVERIFY(wrapper.contains("module = MultiHeadAttentionWrapper(3, 2, 6, 0.0, 2)"));
        QVERIFY(read_safetensors(dir_.filePath("w.safetensors").toStdString()).find("heads.1.W_value.weight"));
        const QString py = QStandardPaths::findExecutable("python3");
        if (py.isEmpty())
            QSKIP("python3 is not installed: the syntax check needs it");
        for (const QString& text : {script, wrapper}) {
            const QString path = dir_.filePath("script.py");
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.toUtf8());
            f.close();
            QProcess p;
            p.start(py, {"-m", "py_compile", path});
            QVERIFY(p.waitForFinished(30000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        }
    }

private:
    QTemporaryDir dir_;
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<SettingsHistory> history_;
    std::unique_ptr<ExportActions> exports_;
};

QTEST_MAIN(TestUiUndoExport)
#include "test_ui_undo_export.moc"
