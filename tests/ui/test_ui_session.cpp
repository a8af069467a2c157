// The live-configuration contract, driven through the real widgets: typing a bad num_heads shows
// the head-split diagnostic and a fix button restores validity; the call line and the spin boxes
// follow each other; edits beyond the memory budget are refused without being attempted.
#include "common/session_fixtures.h"
#include "shell/call_line.h"
#include "shell/config_panel.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::hasDiagnostic;
using testing::idle;

class TestUiSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { testing::openWindow(session_, window_, QStringLiteral("gpt2-small")); }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void typingBadNumHeadsShowsTheSplitDiagnosticAndAFixRestoresIt()
    {
        auto* heads = qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("num_heads"));
        QVERIFY(heads);
        const auto goodTrace = session_->trace()->trace();
        heads->setFocus();
        heads->selectAll();
        QTest::keyClicks(heads, "5");
        QCOMPARE(session_->document()->config().num_heads, 5);
        QVERIFY(hasDiagnostic(*session_, DiagnosticCode::HeadSplit));
        QVERIFY(session_->trace()->hasErrors());
        QVERIFY(!session_->trace()->busy());             // never attempted
        QCOMPARE(session_->trace()->trace(), goodTrace); // the last good trace stays on screen
        QVERIFY(window_->configPanel()->headDimLabel()->text().contains("not whole"));

        // The core offers the divisors of 768 around 5; the panel shows them as buttons.
        auto* fix = window_->findChild<QPushButton*>(QStringLiteral("fix-num_heads-6"));
        QVERIFY(fix);
        QVERIFY(window_->findChild<QPushButton*>(QStringLiteral("fix-num_heads-4")));
        QVERIFY(window_->findChild<QPushButton*>(QStringLiteral("fix-d_out-770")));
        QTest::mouseClick(fix, Qt::LeftButton);
        QCOMPARE(session_->document()->config().num_heads, 6);
        QVERIFY(!session_->trace()->hasErrors());
        QCOMPARE(heads->value(), 6);
        QCOMPARE(window_->callLine()->text(), QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 6)"));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_) && session_->trace()->trace()->config.num_heads == 6, 30000);
        QCOMPARE(session_->trace()->trace()->find("queries.view")->tensor.shape(), (Shape{1, 16, 6, 128}));
    }

    void badNumHeadsInTheCallLineShowsTheSameDiagnostic()
    {
        CallLine* line = window_->callLine();
        line->selectAll();
        QTest::keyClicks(line, "MultiHeadAttention(768, 770, 1024, 0.0, 12)");
        QVERIFY(hasDiagnostic(*session_, DiagnosticCode::HeadSplit));
        QCOMPARE(qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("d_out"))->value(), 770);
        QTest::mouseClick(window_->findChild<QPushButton*>(QStringLiteral("fix-d_out-768")), Qt::LeftButton);
        QVERIFY(!session_->trace()->hasErrors());
        QCOMPARE(line->text(), QStringLiteral("MultiHeadAttention(768, 768, 1024, 0.0, 12)"));
    }

    void callLineAndSpinBoxesStayInSync()
    {
        testing::PartsSpy spy(*session_);
        CallLine* line = window_->callLine();
        auto* dIn = qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("d_in"));
        auto* context = qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("context_length"));

        // Call line -> spin boxes, keywords included.
        line->selectAll();
        QTest::keyClicks(line,
                         "MultiHeadAttention(d_in=512, d_out=768, context_length=256, dropout=0.1, num_heads=12)");
        QVERIFY(spy.count() > 0);
        QVERIFY(spy.last().at(0).value<ChangeFlags>() & ChangeFlag::Settings);
        QCOMPARE(dIn->value(), 512);
        QCOMPARE(context->value(), 256);
        QCOMPARE(qobject_cast<QDoubleSpinBox*>(window_->configPanel()->spinBox("dropout"))->value(), 0.1);
        QCOMPARE(session_->document()->config().d_in, 512);
        // What was typed stays as typed (keywords and all) while it is valid.
        QVERIFY(line->text().startsWith("MultiHeadAttention(d_in=512"));

        // Spin boxes -> call line.
        spy.clear();
        dIn->setFocus();
        dIn->selectAll();
        QTest::keyClicks(dIn, "64");
        QVERIFY(spy.count() >= 1);
        QCOMPARE(session_->document()->config().d_in, 64);
        QCOMPARE(line->text(), QStringLiteral("MultiHeadAttention(64, 768, 256, 0.1, 12)"));

        // A call that does not parse leaves the spin boxes alone and says where it broke.
        line->selectAll();
        QTest::keyClicks(line, "MultiHeadAttention(64, 768, 256, 0.1, 12.5)");
        QVERIFY(session_->document()->callError().has_value());
        QVERIFY(hasDiagnostic(*session_, DiagnosticCode::CallSyntax));
        QCOMPARE(dIn->value(), 64);
        QCOMPARE(qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("num_heads"))->value(), 12);
    }

    void hoveringAValueNamesItsSlot()
    {
        CallLine* line = window_->callLine();
        const QString text = line->text(); // MultiHeadAttention(768, 768, 1024, 0.0, 12)
        QVERIFY(line->slotTipAt(text.indexOf("1024") + 1).startsWith("context_length = 1024"));
        QVERIFY(line->slotTipAt(text.indexOf("768") + 1).startsWith("d_in = 768"));
        QVERIFY(line->slotTipAt(text.indexOf("768, 1024") + 1).startsWith("d_out = 768"));
        QVERIFY(line->slotTipAt(text.indexOf("12)") + 1).startsWith("num_heads = 12"));
        QVERIFY(line->slotTipAt(3).contains("module class"));
    }

    void editsBeyondTheMemoryBudgetAreRefusedNotAttempted()
    {
        session_->document()->setMemoryBudget(64ull << 20); // 64 MiB
        auto* tokens = qobject_cast<QSpinBox*>(window_->configPanel()->spinBox("num_tokens"));
        tokens->setFocus();
        tokens->selectAll();
        QTest::keyClicks(tokens, "1024");
        QCOMPARE(session_->document()->numTokens(), 1024);
        QVERIFY(hasDiagnostic(*session_, DiagnosticCode::MemoryBudget));
        // Keystrokes before the last ("1", "10", "102") fit and may still be computing; 1024 never starts.
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy(), 30000);
        QVERIFY(session_->trace()->trace()->stages.front().tensor.size(1) < 1024);
        QVERIFY(hasDiagnostic(*session_, DiagnosticCode::MemoryBudget));
        // The fix offers the most tokens that fit.
        Diagnostic budget;
        for (const auto& d : session_->trace()->diagnostics())
            if (d.code == DiagnosticCode::MemoryBudget)
                budget = d;
        QCOMPARE(budget.fixes.size(), std::size_t(1));
        session_->document()->applyFix(budget.fixes.front());
        QVERIFY(!session_->trace()->hasErrors());
        QVERIFY(estimate_request_bytes(session_->document()->config(), {1, session_->document()->numTokens()}) <=
                (64ull << 20));
        QVERIFY(estimate_request_bytes(session_->document()->config(), {1, session_->document()->numTokens() + 1}) >
                (64ull << 20));
    }

    void theNewestEditWins()
    {
        for (int heads : {1, 2, 3, 4, 6, 8})
            session_->document()->setSlot(Slot::num_heads, heads);
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 30000);
        QCOMPARE(session_->trace()->trace()->config.num_heads, 8);
        QCOMPARE(session_->view()->headCount(), 8);
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiSession)
#include "test_ui_session.moc"
