// Long work is cancellable: GPT-2 small at batch 8 x 1,024 tokens, started and cancelled
// by the Cancel button, by Esc and by the session's slot. Busy clears within a couple of seconds,
// the previous trace stays on screen, the typed settings stay, and the status bar says the result
// is the previous one and offers Compute. A newer edit cancels the now-stale computation.
#include "common/session_fixtures.h"
#include "shell/call_line.h"
#include "shell/compute_status.h"
#include "shell/main_window.h"
#include "model/presets.h"
#include "common/session_parts.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::hasDiagnostic;
using testing::idle;

namespace {

// ATTNLAB_TEST_SHOTS=DIR saves the window at the interesting moments, to look at the status bar.
void shoot(QWidget* window, const char* name)
{
    const QString dir = qEnvironmentVariable("ATTNLAB_TEST_SHOTS");
    if (!dir.isEmpty())
        window->grab().save(dir + QLatin1Char('/') + QLatin1String(name) + QStringLiteral(".png"));
}

} // namespace

class TestUiCancel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        testing::openWindow(session_, window_, QStringLiteral("gpt2-small")); // (768, 768, 1024, 0.0, 12)
    }
    void cleanup()
    {
        window_.reset();
        session_.reset();
    }

    void cancellingKeepsThePreviousTraceAndOffersCompute_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("Cancel button") << QStringLiteral("button");
        QTest::newRow("Esc in the window") << QStringLiteral("esc");
        QTest::newRow("Esc in the call line") << QStringLiteral("esc-call-line");
        QTest::newRow("session slot") << QStringLiteral("slot");
    }

    void cancellingKeepsThePreviousTraceAndOffersCompute()
    {
        QFETCH(QString, how);
        const auto previous = session_->trace()->trace();
        ComputeStatus* status = window_->computeStatus();
        QPushButton* action = status->actionButton();
        QVERIFY(!status->indicatorShown());
        session_->document()->setInputShape(8, 1024);
        QVERIFY(session_->trace()->busy());
        QVERIFY(!status->indicatorShown()); // a short computation never flashes it
        QTRY_VERIFY_WITH_TIMEOUT(status->indicatorShown(), 2000);
        QVERIFY(action->isVisible());
        QCOMPARE(action->text(), QStringLiteral("Cancel"));
        shoot(window_.get(), "computing");

        testing::PartsSpy spy(*session_);
        QElapsedTimer latency;
        latency.start();
        if (how == "button") {
            QTest::mouseClick(action, Qt::LeftButton);
        } else if (how == "slot") {
            session_->cancel();
        } else {
            QWidget* target = window_.get();
            if (how == "esc-call-line") { // a plain line edit has no use for Esc: it reaches the window
                window_->callLine()->setFocus();
                target = window_->callLine();
            }
            QTest::keyClick(target, Qt::Key_Escape);
        }
        QVERIFY(session_->trace()->cancelling() || !session_->trace()->busy());
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy(), 3000);
        qInfo("cancel latency (%s): %lld ms", qPrintable(how), static_cast<long long>(latency.elapsed()));

        // The previous result stays, consistent with itself; the settings are the ones typed.
        QCOMPARE(session_->trace()->trace(), previous);
        QCOMPARE(session_->trace()->trace()->stages.front().tensor.shape(), (Shape{1, 16, 768}));
        QCOMPARE(session_->document()->batch(), 8);
        QCOMPARE(session_->document()->numTokens(), 1024);
        QVERIFY(session_->trace()->cancelled());
        QVERIFY(hasDiagnostic(*session_, DiagnosticCode::Cancelled));
        QVERIFY(!session_->trace()->hasErrors());
        QVERIFY2(status->text().startsWith(QStringLiteral("Cancelled — showing the previous result, "
                                                          "MultiHeadAttention(768, 768, 1024, 0.0, 12) on input "
                                                          "(1, 16, 768).")),
                 qPrintable(status->text()));
        QVERIFY(!status->indicatorShown());
        QVERIFY(action->isVisible());
        QCOMPARE(action->text(), QStringLiteral("Compute"));
        shoot(window_.get(), "cancelled");
        QVERIFY(spy.count() >= 1);
        const auto last = spy.last().at(0).value<ChangeFlags>();
        QVERIFY((last & ChangeFlag::Busy) && (last & ChangeFlag::Diagnostics) && !(last & ChangeFlag::Trace));

        // Compute runs the shown settings again; cancelling again brings back the same state.
        QTest::mouseClick(action, Qt::LeftButton);
        QVERIFY(session_->trace()->busy());
        QVERIFY(!session_->trace()->cancelled() && !hasDiagnostic(*session_, DiagnosticCode::Cancelled));
        session_->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy(), 3000);
        QCOMPARE(session_->trace()->trace(), previous);
        QVERIFY(session_->trace()->cancelled());
    }

    void anEditAfterACancelComputesAndClearsTheNote()
    {
        session_->document()->setInputShape(8, 1024);
        QTRY_VERIFY_WITH_TIMEOUT(window_->computeStatus()->indicatorShown(), 2000);
        session_->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!session_->trace()->busy(), 3000);
        QVERIFY(session_->trace()->cancelled());
        session_->document()->setInputShape(2, 32);
        QVERIFY(!session_->trace()->cancelled() && !hasDiagnostic(*session_, DiagnosticCode::Cancelled));
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 30000);
        QCOMPARE(session_->trace()->trace()->stages.front().tensor.shape(), (Shape{2, 32, 768}));
        QVERIFY(window_->computeStatus()->text().startsWith(QStringLiteral("Showing ")));
        QVERIFY(!window_->computeStatus()->actionButton()->isVisible());
    }

    void aNewerEditCancelsTheStaleComputation()
    {
        session_->document()->setInputShape(8, 1024);
        QTest::qWait(150); // the big computation is under way
        QVERIFY(session_->trace()->busy());
        QElapsedTimer elapsed;
        elapsed.start();
        session_->document()->setInputShape(1, 8);
        QTRY_VERIFY_WITH_TIMEOUT(idle(*session_), 30000);
        qInfo("a newer edit replaced 8 x 1024 tokens in %lld ms", static_cast<long long>(elapsed.elapsed()));
        QCOMPARE(session_->trace()->trace()->stages.front().tensor.shape(), (Shape{1, 8, 768}));
        QVERIFY(!session_->trace()->cancelled()); // superseded, not cancelled by the user: nothing to report
        QVERIFY(!hasDiagnostic(*session_, DiagnosticCode::Cancelled));
        QVERIFY(elapsed.elapsed() < 5000);
    }

    void escWhileIdleDoesNothing()
    {
        testing::PartsSpy spy(*session_);
        QTest::keyClick(window_.get(), Qt::Key_Escape);
        QCOMPARE(spy.count(), 0);
        QVERIFY(!session_->trace()->cancelled());
    }

private:
    std::unique_ptr<Session> session_;
    std::unique_ptr<MainWindow> window_;
};

QTEST_MAIN(TestUiCancel)
#include "test_ui_cancel.moc"
