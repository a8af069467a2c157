// The Debugging tab, driven as a student would: type a call and take the corrected one, pick an
// injected bug and find the first diverging stage the core names, see why a bug hides, and untick
// parts of the weight copy until PyTorch complains (or, worse, does not).
#include "common/session_fixtures.h"
#include "lessons/contract.h"

#include "features/debug/bug_lesson.h"
#include "features/debug/bug_view.h"
#include "features/debug/contract_view.h"
#include "features/debug/debug_view.h"
#include "features/debug/divergence_widget.h"
#include "widgets/themed.h"
#include "render/divergence_painter.h"
#include "forward/experiment.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "features/debug/slot_chips.h"
#include "features/debug/stage_compare_lists.h"
#include "features/debug/transfer_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

// The core's own verdict for the settings the lesson ran on.
Diagnosis coreDiagnosis(const Config& config, std::int64_t batch, std::int64_t tokens, Bug bug)
{
    ExperimentSpec spec;
    spec.config = config;
    spec.batch = batch;
    spec.num_tokens = tokens;
    const Experiment e = prepare(spec);
    return diagnose(e.spec.config, e.weights, e.x, bug);
}

int rowOf(const Diagnosis& d, const std::string& stage)
{
    for (std::size_t i = 0; i < d.stages.size(); ++i)
        if (d.stages[i].stage == stage)
            return static_cast<int>(i);
    return -1;
}

void setSpin(QSpinBox* spin, int value)
{
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, QString::number(value));
    QTest::keyClick(spin, Qt::Key_Enter);
    QCOMPARE(spin->value(), value);
}

} // namespace

class TestUiDebug : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        testing::openWindow(session_, window_, QStringLiteral("gpt2-small"), {1600, 1000});
        debug_ = window_->debugView();
    }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void debugTabFollowsTheSessionView()
    {
        QTabWidget* tabs = nullptr; // the page sits in a scroll area inside the tab widget
        for (QWidget* w = debug_->parentWidget(); w && !tabs; w = w->parentWidget())
            tabs = qobject_cast<QTabWidget*>(w);
        QVERIFY(tabs);
        QVERIFY(!debug_->isVisible());
        session_->view()->setTab(ViewMode::Debug);
        QVERIFY(tabs->currentWidget()->isAncestorOf(debug_));
        QVERIFY(debug_->isVisible());
        tabs->setCurrentIndex(0);
        QCOMPARE(session_->view()->tab(), ViewMode::Stepper);
        tabs->setCurrentIndex(2); // the Debugging tab
        QVERIFY(tabs->currentWidget()->isAncestorOf(debug_));
        QCOMPARE(session_->view()->tab(), ViewMode::Debug);
    }

    void contractFlagsTheDropoutHeadsSwapAndAppliesTheFix()
    {
        session_->view()->setTab(ViewMode::Debug);
        debug_->showSection(DebugSection::Contract);
        ContractView* view = debug_->contractView();
        QLineEdit* call = view->findChild<QLineEdit*>(QStringLiteral("contract-call"));
        QCOMPARE(call->text(), session_->document()->callText()); // starts as the session's call

        const QString typed = QStringLiteral("MultiHeadAttention(768, 768, 1024, 12, 0.0)");
        call->setFocus();
        call->selectAll();
        QTest::keyClick(call, Qt::Key_Delete);
        QTest::keyClicks(call, typed);
        QCOMPARE(call->text(), typed);
        QCOMPARE(session_->document()->callText(),
                 QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)")); // untouched

        // Every value named by its slot, left to right; the two confused slots flagged.
        const auto chips = view->chips()->chips();
        QCOMPARE(chips.size(), 5);
        QCOMPARE(view->chips()->chipText(3), QStringLiteral("dropout = 12"));
        QCOMPARE(view->chips()->chipText(4), QStringLiteral("num_heads = 0.0"));
        const QString flaggedBorder = QStringLiteral("border: 2px solid %1").arg(cssColor(styleFor(chips[3]).warning));
        QVERIFY(chips[3]->styleSheet().contains(flaggedBorder));
        QVERIFY(!chips[0]->styleSheet().contains(flaggedBorder));

        // The core's finding, with its sentence, is what the card says.
        ContractInput input;
        input.d_in = 768;
        input.num_tokens = session_->document()->numTokens();
        const ContractReport expected = check_contract(typed.toStdString(), input);
        QCOMPARE(expected.findings.size(), std::size_t{1});
        QCOMPARE(expected.findings[0].code, ContractFindingCode::DropoutNumHeadsSwapped);
        auto* text = view->findChild<QLabel*>(QStringLiteral("finding-dropout-num_heads-swapped-text"));
        QVERIFY(text);
        QTRY_VERIFY(text->isVisible()); // cards are shown once the layout runs
        QVERIFY(text->text().contains(QString::fromStdString(expected.findings[0].message).toHtmlEscaped()));

        auto* fix = view->findChild<QPushButton*>(QStringLiteral("use-corrected-call-dropout-num_heads-swapped"));
        QVERIFY(fix && fix->isVisible());
        testing::PartsSpy spy(*session_);
        QTest::mouseClick(fix, Qt::LeftButton);
        QVERIFY(spy.count() >= 1);
        QCOMPARE(session_->document()->callText(), QString::fromStdString(expected.findings[0].suggested_call));
        QVERIFY(!session_->document()->callError());
        QVERIFY(!session_->trace()->hasErrors());
        QCOMPARE(session_->document()->config().num_heads, std::int64_t{12});
        QCOMPARE(session_->document()->config().dropout, 0.0);
        QCOMPARE(call->text(), session_->document()->callText());
        QTRY_VERIFY(view->findChild<QLabel*>(QStringLiteral("contract-ok")));
        QVERIFY(view->report().findings.empty());
    }

    void contractCatchesAnotherModulesSlotOrder()
    {
        session_->view()->setTab(ViewMode::Debug);
        ContractView* view = debug_->contractView();
        QLineEdit* call = view->callEdit();
        call->selectAll();
        QTest::keyClick(call, Qt::Key_Delete);
        QTest::keyClicks(call, QStringLiteral("MultiHeadAttention(768, 768, 12, 0.0, 1024)"));
        auto* text = view->findChild<QLabel*>(QStringLiteral("finding-other-slot-order-text"));
        QVERIFY(text);
        QVERIFY(text->text().contains("(d_in, d_out, num_heads, dropout, context_length)"));
        QCOMPARE(view->chips()->chipText(2), QStringLiteral("context_length = 12"));
        QTest::mouseClick(view->findChild<QPushButton*>(QStringLiteral("use-corrected-call-other-slot-order")),
                          Qt::LeftButton);
        QCOMPARE(session_->document()->callText(), QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)"));
        QCOMPARE(session_->document()->config().context_length, std::int64_t{1024});
    }

    void skipContiguousHighlightsTheStageTheCoreNames()
    {
        session_->view()->setTab(ViewMode::Debug);
        debug_->showSection(DebugSection::Bugs);
        BugView* view = debug_->bugView();
        QComboBox* picker = view->picker();
        QSignalSpy spy(view->lesson(), &BugLesson::changed);
        picker->setFocus();
        const int index = picker->findData(static_cast<int>(Bug::SkipContiguous));
        QVERIFY(index > picker->currentIndex());
        for (int i = picker->currentIndex(); i < index; ++i)
            QTest::keyClick(picker, Qt::Key_Down);
        QCOMPARE(view->lesson()->bug(), Bug::SkipContiguous);
        QVERIFY(spy.count() >= 1);

        const Diagnosis d = coreDiagnosis(session_->document()->config(), session_->document()->batch(),
                                          session_->document()->numTokens(), Bug::SkipContiguous);
        QVERIFY(d.first);
        QCOMPARE(d.first->kind, DivergenceStatus::Error);
        const int row = rowOf(d, d.first->stage);
        StageCompareLists* lists = view->lists();
        QCOMPARE(lists->highlightedRow(), row);
        QCOMPARE(lists->bookList()->count(), static_cast<int>(d.stages.size()));
        QVERIFY(lists->bookList()->item(row)->text().startsWith(QStringLiteral("▶ ") +
                                                                QString::fromStdString(d.first->stage)));
        // Every mark a buggy row ends in is explained under the lists.
        auto* legend = lists->findChild<QLabel*>(QStringLiteral("stage-marks-legend"));
        QVERIFY(legend && legend->isVisible());
        for (int r = 0; r < lists->buggyList()->count(); ++r) {
            const QString mark = lists->buggyList()->item(r)->text().right(1);
            QVERIFY2(mark.trimmed().isEmpty() || legend->text().contains(mark + QLatin1Char(' ')), qPrintable(mark));
        }
        // The buggy row beside it marks it too and names the stage to a screen reader.
        QVERIFY(lists->buggyList()->item(row)->text().startsWith(QStringLiteral("▶ ")));
        QVERIFY(lists->buggyList()
                    ->item(row)
                    ->data(Qt::AccessibleTextRole)
                    .toString()
                    .startsWith(QString::fromStdString(d.first->stage) + QStringLiteral(":")));
        QCOMPARE(lists->buggyList()->currentRow(), row); // selected by default
        // The view shows PyTorch's message, and the diagram draws that very stage.
        QVERIFY(view->verdictText().contains(QString::fromStdString(d.first->stage)));
        QVERIFY(view->verdictText().contains(QString::fromStdString(d.first->message).toHtmlEscaped()));
        DivergenceCard card;
        QVERIFY(view->diagram()->card(card));
        QCOMPARE(card.row.stage, d.first->stage);
        QCOMPARE(card.row.status, DivergenceStatus::Error);
        QVERIFY(card.first);

        // Clicking an earlier stage shows it, same on both sides.
        QListWidget* book = lists->bookList();
        const int earlier = rowOf(d, "context.transposed");
        QTest::mouseClick(book->viewport(), Qt::LeftButton, {}, book->visualItemRect(book->item(earlier)).center());
        QCOMPARE(view->lesson()->selectedRow(), earlier);
        QCOMPARE(lists->buggyList()->currentRow(), earlier);
        QVERIFY(view->diagram()->card(card));
        QCOMPARE(card.row.stage, std::string("context.transposed"));
        QCOMPARE(card.row.status, DivergenceStatus::Same);
        QVERIFY(!card.first);
    }

    void aShapeBugNamesExpectedAndObservedShapes()
    {
        session_->view()->setTab(ViewMode::Debug);
        debug_->showSection(DebugSection::Bugs);
        BugView* view = debug_->bugView();
        view->picker()->setCurrentIndex(view->picker()->findData(static_cast<int>(Bug::SkipHeadTranspose)));
        const Diagnosis d = coreDiagnosis(session_->document()->config(), session_->document()->batch(),
                                          session_->document()->numTokens(), Bug::SkipHeadTranspose);
        QVERIFY(d.first);
        QCOMPARE(view->lists()->highlightedRow(), rowOf(d, d.first->stage));
        DivergenceCard card;
        QVERIFY(view->diagram()->card(card));
        QCOMPARE(card.row.expected_shape, d.first->expected_shape);
        QCOMPARE(card.row.observed_shape, d.first->observed_shape);
        QVERIFY(card.row.expected_shape != card.row.observed_shape);
    }

    void aHarmlessBugSaysWhy()
    {
        session_->document()->setCallText(QStringLiteral("MultiHeadAttention(4, 4, 6, 0.0, 1)"));
        session_->document()->setInputShape(1, 1);
        session_->view()->setTab(ViewMode::Debug);
        debug_->showSection(DebugSection::Bugs);
        BugView* view = debug_->bugView();
        view->picker()->setCurrentIndex(view->picker()->findData(static_cast<int>(Bug::SkipHeadTranspose)));
        const Diagnosis d = coreDiagnosis(session_->document()->config(), 1, 1, Bug::SkipHeadTranspose);
        QVERIFY(!d.first);
        const std::string why = why_harmless(Bug::SkipHeadTranspose, session_->document()->config(), 1, 1);
        QVERIFY(!why.empty());
        QCOMPARE(d.why_none, why);
        QVERIFY(view->verdictText().contains(QStringLiteral("No divergence")));
        QVERIFY(view->verdictText().contains(QString::fromStdString(why).toHtmlEscaped()));
        QCOMPARE(view->lists()->highlightedRow(), -1);
        // More tokens and the same bug shows.
        session_->document()->setInputShape(1, 4);
        QVERIFY(view->verdictText().contains(QStringLiteral("First divergence")));
        QVERIFY(view->lists()->highlightedRow() >= 0);
    }

    void bigInputsAreCutSoTheLessonStaysInstant()
    {
        session_->document()->setInputShape(4, 200);
        session_->view()->setTab(ViewMode::Debug);
        debug_->showSection(DebugSection::Bugs);
        BugLesson* lesson = debug_->bugView()->lesson();
        QCOMPARE(lesson->batch(), BugLesson::kMaxBatch);
        QCOMPARE(lesson->numTokens(), BugLesson::kMaxTokens);
        QVERIFY(lesson->capped());
        QCOMPARE(lesson->diagnosis()->correct.stages.front().tensor.shape(),
                 (Shape{BugLesson::kMaxBatch, BugLesson::kMaxTokens, 768}));
        auto* input = debug_->bugView()->findChild<QLabel*>(QStringLiteral("bug-input"));
        QVERIFY(input->text().contains(QStringLiteral("cut to")));
    }

    void transferWithoutTransposeFailsOrHidesByWidth()
    {
        session_->view()->setTab(ViewMode::Debug);
        debug_->showSection(DebugSection::Transfer);
        TransferView* view = debug_->transferView();
        auto* badge = view->findChild<QLabel*>(QStringLiteral("transfer-badge"));
        auto* message = view->findChild<QLabel*>(QStringLiteral("transfer-message"));
        auto* gpt2 = view->findChild<QLabel*>(QStringLiteral("gpt2-badge"));
        QCOMPARE(badge->property("status").toString(), QStringLiteral("match"));
        QCOMPARE(gpt2->property("status").toString(), QStringLiteral("match"));

        setSpin(view->findChild<QSpinBox*>(QStringLiteral("transfer-d_in")), 3);
        setSpin(view->findChild<QSpinBox*>(QStringLiteral("transfer-d_out")), 2);
        auto* transposeKey = view->findChild<QCheckBox*>(QStringLiteral("transpose-key"));
        QTest::mouseClick(transposeKey, Qt::LeftButton, {}, QPoint(8, transposeKey->height() / 2));
        QVERIFY(!transposeKey->isChecked());
        QCOMPARE(badge->property("status").toString(), QStringLiteral("error"));
        QVERIFY(badge->text().contains(QStringLiteral("error")));
        QVERIFY(message->text().contains(QStringLiteral("mat1 and mat2 shapes cannot be multiplied")));
        QCOMPARE(view->findChild<QLabel*>(QStringLiteral("transfer-code-key"))->text(),
                 QStringLiteral("sa_v1.W_key = torch.nn.Parameter(sa_v2.W_key.weight)"));
        // GPT-2's parts are square: the same slip goes unnoticed until the outputs are compared.
        QCOMPARE(gpt2->property("status").toString(), QStringLiteral("mismatch"));
        QVERIFY(view->findChild<QLabel*>(QStringLiteral("gpt2-code"))->text().contains("Parameter(k_w)"));

        setSpin(view->findChild<QSpinBox*>(QStringLiteral("transfer-d_out")), 3);
        QCOMPARE(badge->property("status").toString(), QStringLiteral("mismatch"));
        QVERIFY(session_->feature<DebugState>()->transferResult().max_abs_diff &&
                *session_->feature<DebugState>()->transferResult().max_abs_diff > 1e-4);
        QVERIFY(badge->text().contains(QStringLiteral("max |diff|")));

        QTest::mouseClick(transposeKey, Qt::LeftButton, {}, QPoint(8, transposeKey->height() / 2));
        QCOMPARE(badge->property("status").toString(), QStringLiteral("match"));
        auto* includeValue = view->findChild<QCheckBox*>(QStringLiteral("include-value"));
        QTest::mouseClick(includeValue, Qt::LeftButton, {}, QPoint(8, includeValue->height() / 2));
        QCOMPARE(badge->property("status").toString(), QStringLiteral("mismatch")); // a missing line is silent
        QVERIFY(!view->findChild<QCheckBox*>(QStringLiteral("transpose-value"))->isEnabled());
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
    DebugView* debug_ = nullptr;
};

QTEST_MAIN(TestUiDebug)
#include "test_ui_debug.moc"
