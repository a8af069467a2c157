// Debugging > The class's code in the window: a folder of students' recordings (book modules, injected bugs,
// duplicates, a truncated file) tallied as the CLI's --summary tallies it, anonymised until "Show file names"
// is ticked, the broken file named and not fatal, and a recording activated opening in Your code.
#include "common/recording_files.h"
#include "features/debug/class_code_view.h"
#include "features/debug/compare_actions.h"
#include "features/debug/debug_view.h"
#include "features/debug/recording_compare.h"
#include "features/debug/your_code_view.h"
#include "features/poll/poll_actions.h"
#include "features/session.h"
#include "model/view_model.h"
#include "shell/app_shell.h"
#include "shell/main_window.h"
#include "shell/text_options.h"
#include "shell/weights_actions.h"

#include <QCheckBox>
#include <QCommandLineParser>
#include <QLabel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QByteArray read_all(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The tally's top-level rows and, for each, its recordings' rows.
QStringList rows(const QTreeWidget* tree)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        out << tree->topLevelItem(i)->text(0);
        for (int j = 0; j < tree->topLevelItem(i)->childCount(); ++j)
            out << "  " + tree->topLevelItem(i)->child(j)->text(0);
    }
    return out;
}

} // namespace

class TestUiClassCode : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void tally_of_a_folder();
    void names_on_request();
    void recording_opens_in_your_code();
    void refused_folder_inline();
    void start_up_option();

private:
    Session* session_ = nullptr;
    MainWindow* window_ = nullptr;
    AppShell* shell_ = nullptr;
    QTemporaryDir dir_;
};

void TestUiClassCode::init()
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
    const QList<QPair<QString, QString>> students = {{"alice", "book-multi-head"},   {"bob", "softmax_wrong_dim"},
                                                     {"carol", "softmax_wrong_dim"}, {"dave", "scale_by_d_out"},
                                                     {"erin", "book-wrapper"},       {"frank", "causal_no_scaling"}};
    for (const auto& s : students)
        QVERIFY(write_file(dir_.filePath(s.first + ".safetensors"), read_all(recording_path(s.second))));
    QVERIFY(write_file(dir_.filePath("grace.safetensors"), read_all(recording_path("skip_mask")).left(500)));
}

void TestUiClassCode::cleanup()
{
    delete shell_;
    delete window_;
    delete session_;
}

void TestUiClassCode::tally_of_a_folder()
{
    QVERIFY(shell_->compare()->openClassFolder(dir_.path()));
    DebugView* debug = window_->debugView();
    QCOMPARE(session_->view()->tab(), ViewMode::Debug);
    QCOMPARE(debug->sections()->currentWidget(), debug->classCodeView());
    ClassCodeView* view = debug->classCodeView();
    QVERIFY(!view->showNames()->isChecked()); // anonymised by default
    const QStringList shown = rows(view->tally());
    QCOMPARE(shown.size(), 13);
    QVERIFY(shown[0].startsWith("7 recordings in "));
    QCOMPARE(shown.mid(1, 11),
             (QStringList{"2 match the book", "  recording 1", "  recording 5",
                          "2 at attn_weights: softmax-wrong-dim, Softmax over the wrong axis", "  recording 2, line 44",
                          "  recording 3, line 44", "1 at attn_weights: scale-by-d_out, Scores scaled by sqrt(d_out)",
                          "  recording 4, line 45", "1 at attn_weights: no known bug", "  recording 6, line 28",
                          "1 could not be read"}));
    // The broken file is named, with the reader's sentence.
    QVERIFY2(shown[12].startsWith("  grace.safetensors: ") && shown[12].contains("truncated"), qPrintable(shown[12]));
    QVERIFY(view->message()->isHidden());
}

void TestUiClassCode::names_on_request()
{
    QVERIFY(shell_->compare()->openClassFolder(dir_.path()));
    ClassCodeView* view = window_->debugView()->classCodeView();
    QVERIFY(!rows(view->tally()).join('\n').contains("alice"));
    view->showNames()->setChecked(true);
    const QString named = rows(view->tally()).join('\n');
    QVERIFY2(named.contains("  alice.safetensors\n") && named.contains("  bob.safetensors, line 44"),
             qPrintable(named));
    QVERIFY(!named.contains("recording 1"));
}

void TestUiClassCode::recording_opens_in_your_code()
{
    QVERIFY(shell_->compare()->openClassFolder(dir_.path()));
    DebugView* debug = window_->debugView();
    QTreeWidget* tree = debug->classCodeView()->tally();
    QTreeWidgetItem* bob = tree->topLevelItem(2)->child(0); // recording 2, softmax over dim=-2
    QCOMPARE(bob->text(0), QStringLiteral("recording 2, line 44"));
    Q_EMIT tree->itemActivated(bob, 0);
    QCOMPARE(debug->sections()->currentWidget(), debug->yourCodeView());
    QCOMPARE(QFileInfo(debug->yourCodeView()->model()->path()).fileName(), QStringLiteral("bob.safetensors"));
    QCOMPARE(debug->yourCodeView()->highlightedLine(), 44);
    // The broken file's row opens nothing.
    shell_->compare()->openClassFolder(dir_.path());
    QTreeWidgetItem* grace = tree->topLevelItem(tree->topLevelItemCount() - 1)->child(0);
    Q_EMIT tree->itemActivated(grace, 0);
    QCOMPARE(debug->sections()->currentWidget(), debug->classCodeView());
}

void TestUiClassCode::refused_folder_inline()
{
    QVERIFY(shell_->compare()->openClassFolder(dir_.path()));
    ClassCodeView* view = window_->debugView()->classCodeView();
    QTemporaryDir empty;
    QVERIFY(!shell_->compare()->openClassFolder(empty.path()));
    QVERIFY(!view->message()->isHidden());
    QVERIFY2(view->message()->text().contains("no .safetensors recordings"), qPrintable(view->message()->text()));
    QVERIFY(rows(view->tally())[0].startsWith("7 recordings")); // the previous tally stays
}

// --compare-class DIR among all of the window's options, as gui_main registers them (the poll's --class-code
// took the first name tried, and a second option of one name is dropped with a warning, not refused).
void TestUiClassCode::start_up_option()
{
    QCommandLineParser parser;
    addShellOptions(parser);
    addWeightsOptions(parser);
    addCompareOptions(parser);
    addTextOptions(parser);
    addPollOptions(parser);
    parser.addOption({QStringLiteral("screenshot"), QStringLiteral("as gui_main has it"), QStringLiteral("FILE")});
    QCOMPARE(parser.helpText().count(QStringLiteral("--compare-class <DIR>")), 1);
    QVERIFY(parser.parse({QStringLiteral("attention-lab"), QStringLiteral("--compare-class"), dir_.path()}));
    AppShell shell(window_, session_, parser);
    ClassCodeView* view = window_->debugView()->classCodeView();
    QVERIFY(view->hasResult());
    QCOMPARE(view->result().recordings.size(), std::size_t(7));
    QCOMPARE(window_->debugView()->sections()->currentWidget(), view);
}

QTEST_MAIN(TestUiClassCode)
#include "test_ui_class_code.moc"
