// Compare With My Code in the window: a learner's wrong module, recorded, opened through the action's code
// path, shows Debugging > Your code with the first divergence highlighted at the right stage and line, the
// known bug named; a bad file is explained inline and keeps the previous comparison; Help > Record Your
// Module… gives the three lines and the recorder.
#include "common/recording_files.h"
#include "features/debug/recording_compare.h"
#include "common/session_parts.h"
#include "features/debug/debug_view.h"
#include "features/debug/your_code_view.h"
#include "render/render_style.h"
#include "shell/app_shell.h"
#include "features/debug/compare_actions.h"
#include "shell/main_window.h"
#include "shell/weights_actions.h"

#include <QCommandLineParser>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// The row of `table` whose first column reads `text`, -1 when none.
int rowOf(const QTableWidget* table, const QString& text)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0) && table->item(r, 0)->text() == text)
            return r;
    return -1;
}

bool highlighted(const QTableWidget* table, int row)
{
    return row >= 0 && table->item(row, 0)->background().color() ==
                           RenderStyle::fromPalette(table->palette(), QPalette::Base).differsFill;
}

} // namespace

class TestUiCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void wrong_module_highlighted();
    void book_module_has_no_divergence();
    void bad_file_inline();
    void recorder_snippet();

private:
    Session* session_ = nullptr;
    MainWindow* window_ = nullptr;
    AppShell* shell_ = nullptr;
};

void TestUiCompare::init()
{
    session_ = new Session;
    window_ = new MainWindow(session_);
    QCommandLineParser parser;
    addShellOptions(parser);
    addCompareOptions(parser);
    addWeightsOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QStringLiteral("as gui_main has it"), QStringLiteral("FILE")});
    QVERIFY(parser.parse({QStringLiteral("attention-lab")}));
    shell_ = new AppShell(window_, session_, parser);
}

void TestUiCompare::cleanup()
{
    delete shell_;
    delete window_;
    delete session_;
}

void TestUiCompare::wrong_module_highlighted()
{
    QVERIFY(shell_->compare()->openRecording(recording_path("softmax_wrong_dim")));
    DebugView* debug = window_->debugView();
    QCOMPARE(session_->view()->tab(), ViewMode::Debug);
    QCOMPARE(debug->sections()->currentWidget(), debug->yourCodeView());
    YourCodeView* view = debug->yourCodeView();
    QCOMPARE(view->highlightedLine(), 44);
    const int line = rowOf(view->lines(), QStringLiteral("44"));
    QVERIFY(highlighted(view->lines(), line));
    QVERIFY(view->lines()->item(line, 1)->text().contains(QStringLiteral("dim=-2")));
    QVERIFY(!highlighted(view->lines(), rowOf(view->lines(), QStringLiteral("43"))));
    const int stage = rowOf(view->stages(), QStringLiteral("attn_weights"));
    QVERIFY(highlighted(view->stages(), stage));
    QVERIFY(view->stages()->item(stage, 2)->text().contains(QStringLiteral("first divergence")));
    QVERIFY(!highlighted(view->stages(), rowOf(view->stages(), QStringLiteral("attn_scores.masked"))));
    const QString summary = view->summary()->text();
    QVERIFY2(summary.contains(QStringLiteral("First divergence: attn_weights")), qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("at line 44")));
    QVERIFY(summary.contains(QStringLiteral("max |difference|")));
    QVERIFY(summary.contains(QStringLiteral("softmax-wrong-dim")));
    QVERIFY(view->message()->isHidden());
}

void TestUiCompare::book_module_has_no_divergence()
{
    QVERIFY(shell_->compare()->openRecording(recording_path("book-wrapper")));
    YourCodeView* view = window_->debugView()->yourCodeView();
    QCOMPARE(view->highlightedLine(), -1);
    QVERIFY(view->summary()->text().contains(QStringLiteral("No divergence")));
    QVERIFY(rowOf(view->stages(), QStringLiteral("heads.1.context")) >= 0);
}

void TestUiCompare::bad_file_inline()
{
    QVERIFY(shell_->compare()->openRecording(recording_path("keys_T_4d")));
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("truncated.safetensors"));
    QFile good(recording_path("skip_mask"));
    QVERIFY(good.open(QIODevice::ReadOnly));
    QVERIFY(write_file(bad, good.readAll().left(500)));
    QVERIFY(!shell_->compare()->openRecording(bad));
    YourCodeView* view = window_->debugView()->yourCodeView();
    QVERIFY(!view->message()->isHidden());
    QVERIFY2(view->message()->text().contains(QStringLiteral("truncated")), qPrintable(view->message()->text()));
    QCOMPARE(view->highlightedLine(), 41); // the previous comparison stays on screen
    QVERIFY(view->summary()->text().contains(QStringLiteral("(error)")));
    QVERIFY(!shell_->compare()->openRecording(dir.filePath(QStringLiteral("missing.safetensors"))));
    QVERIFY(shell_->compare()->openRecording(recording_path("skip_mask")));
    QVERIFY(view->message()->isHidden());
}

void TestUiCompare::recorder_snippet()
{
    const QString lines = recorderSnippet();
    QVERIFY(lines.contains(QStringLiteral("from attention_lab_probe import record")));
    QVERIFY(lines.contains(QStringLiteral("record(my_module, x)")));
    QVERIFY(lines.contains(QStringLiteral(".save(")));
    QFile resource(QStringLiteral(":/pytorch/attention_lab_probe.py")); // what Save Recorder As… writes
    QVERIFY(resource.open(QIODevice::ReadOnly));
    QVERIFY(resource.readAll().contains("def record("));
}

QTEST_MAIN(TestUiCompare)
#include "test_ui_compare.moc"
