// The Debugging tab's choices belong to the session: a session saved on a bug, a transfer line or a
// pasted call reopens to the same view; undo takes each choice back; a version-1 file (no lessons)
// still opens; a head asked for while a trace computes applies when it arrives.
#include "common/session_fixtures.h"
#include "features/debug/bug_lesson.h"
#include "model/presets.h"
#include "common/session_parts.h"
#include "model/session_file.h"
#include "model/undo_commands.h"
#include "features/debug/bug_view.h"
#include "features/debug/debug_view.h"
#include "shell/file_actions.h"
#include "shell/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;
using testing::idle;

namespace {

const QString kSwappedCall = QStringLiteral("MultiHeadAttention(768, 768, 12, 0.0, 1024)");

// Every lesson choice away from its default, made through the session as the views make them.
void chooseEverything(Session& s)
{
    s.view()->setTab(ViewMode::Debug);
    s.document()->setBug(Bug::SkipMask);
    s.document()->setTransferLine(TransferRole::Key, true, false);
    s.document()->setTransferLine(TransferRole::Value, false, true);
    s.document()->setContractCall(kSwappedCall);
    s.view()->setDebugSection(DebugSection::Transfer);
}

} // namespace

class TestUiLessonState : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    void aSavedDebuggingStateReopensToTheSameView()
    {
        Session original;
        original.document()->applyPreset(*findPreset(QStringLiteral("book")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(original), 30000);
        chooseEverything(original);
        const QString path = dir_.filePath("debug.attnlab.json");
        QString error;
        QVERIFY2(saveSessionFile(path, captureState(original), sessionFeatures(), &error), qPrintable(error));

        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small")));
        MainWindow window(&s);
        SettingsHistory history(s.document());
        FileActions files(&window, &s, &history);
        QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
        QVERIFY2(files.openFile(path, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(idle(s) && s.document()->config().d_in == 3, 30000);
        QVERIFY(s.document()->lessonState() == original.document()->lessonState());

        // What the views show is the session's state.
        DebugView* debug = window.debugView();
        QCOMPARE(debug->sections()->currentIndex(), static_cast<int>(DebugSection::Transfer));
        auto* picker = debug->findChild<QComboBox*>(QStringLiteral("bug-picker"));
        QVERIFY(picker);
        QCOMPARE(picker->currentData().toInt(), static_cast<int>(Bug::SkipMask));
        QCOMPARE(s.feature<DebugState>()->bugLesson()->bug(), Bug::SkipMask);
        QVERIFY(!debug->findChild<QCheckBox*>(QStringLiteral("transpose-key"))->isChecked());
        QVERIFY(debug->findChild<QCheckBox*>(QStringLiteral("include-key"))->isChecked());
        QVERIFY(!debug->findChild<QCheckBox*>(QStringLiteral("include-value"))->isChecked());
        QCOMPARE(debug->findChild<QLineEdit*>(QStringLiteral("contract-call"))->text(), kSwappedCall);

        // And the file holds it under "lessons", in the app's own words.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject lessons = QJsonDocument::fromJson(f.readAll()).object().value("lessons").toObject();
        QCOMPARE(lessons.value("bug").toString(), QStringLiteral("skip-mask"));
        QCOMPARE(lessons.value("section").toString(), QStringLiteral("transfer"));
        QCOMPARE(lessons.value("contract_call").toString(), kSwappedCall);
        QCOMPARE(lessons.value("transfer").toObject().value("key").toObject().value("transpose").toBool(true), false);
    }

    void aVersionOneFileOpensWithTheLessonsDefaults()
    {
        Session original;
        original.document()->applyPreset(*findPreset(QStringLiteral("book")));
        QTRY_VERIFY_WITH_TIMEOUT(idle(original), 30000);
        QJsonObject o = sessionToJson(captureState(original), sessionFeatures());
        o.remove("lessons");
        o.insert("version", 1);
        QString error;
        const auto state = sessionFromJson(o, sessionFeatures(), &error);
        QVERIFY2(state, qPrintable(error));
        QVERIFY(state->document.lessons == LessonState{});

        o.insert("version", 2); // version 2 must carry its lessons
        QVERIFY(!sessionFromJson(o, sessionFeatures(), &error));
        QVERIFY2(error.contains(QStringLiteral("\"lessons\" is missing")), qPrintable(error));
    }

    void aBadLessonsObjectIsRefusedWithOneSentence_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown-bug") << "bug" << QJsonValue("skip-everything") << "skip-head-transpose";
        QTest::newRow("unknown-section") << "section" << QJsonValue("heatmaps")
                                         << "contract, bugs, transfer, your-code or class-code";
        QTest::newRow("transfer-not-object") << "transfer" << QJsonValue(3) << "\"transfer\"";
        QTest::newRow("contract-call-number") << "contract_call" << QJsonValue(12) << "\"contract_call\"";
    }

    void aBadLessonsObjectIsRefusedWithOneSentence()
    {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, says);
        Session s;
        QJsonObject o = sessionToJson(captureState(s), sessionFeatures());
        QJsonObject lessons = o.value("lessons").toObject();
        lessons.insert(key, value);
        o.insert("lessons", lessons);
        QString error;
        QVERIFY(!sessionFromJson(o, sessionFeatures(), &error));
        QVERIFY2(error.contains(says), qPrintable(error));
        QVERIFY2(error.endsWith('.'), qPrintable(error));
    }

    void undoTakesEachLessonChoiceBack()
    {
        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("book")));
        MainWindow window(&s);
        QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
        SettingsHistory history(s.document());
        s.view()->setDebugSection(DebugSection::Bugs); // navigation: not an edit
        QCOMPARE(history.stack()->count(), 0);

        auto* picker = window.debugView()->findChild<QComboBox*>(QStringLiteral("bug-picker"));
        picker->setCurrentIndex(picker->findData(static_cast<int>(Bug::ScaleByDOut)));
        QCOMPARE(s.document()->lessonState().bug, Bug::ScaleByDOut);
        QCOMPARE(history.stack()->count(), 1);
        QCOMPARE(history.stack()->undoText(), QStringLiteral("Change the bug"));

        window.debugView()->findChild<QCheckBox*>(QStringLiteral("transpose-query"))->click();
        QVERIFY(!s.document()->lessonState().transfer.line(TransferRole::Query).transpose);
        QCOMPARE(history.stack()->undoText(), QStringLiteral("Change the transfer lines"));

        history.stack()->undo();
        QVERIFY(s.document()->lessonState().transfer.line(TransferRole::Query).transpose);
        QVERIFY(window.debugView()->findChild<QCheckBox*>(QStringLiteral("transpose-query"))->isChecked());
        history.stack()->undo();
        QCOMPARE(s.document()->lessonState().bug, LessonState{}.bug);
        QCOMPARE(picker->currentData().toInt(), static_cast<int>(LessonState{}.bug));
        QCOMPARE(s.view()->debugSection(), DebugSection::Bugs); // undo leaves the student where they are
        history.stack()->redo();
        QCOMPARE(s.document()->lessonState().bug, Bug::ScaleByDOut);
    }

    void aHeadAskedForWhileComputingAppliesWhenTheTraceArrives()
    {
        Session s;
        s.document()->applyPreset(*findPreset(QStringLiteral("book"))); // two heads
        QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
        s.document()->applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // twelve, still computing
        QVERIFY(s.trace()->busy());
        s.view()->setHead(7);
        s.view()->setBatchIndex(0);
        QTRY_VERIFY_WITH_TIMEOUT(idle(s), 30000);
        QCOMPARE(s.view()->head(), 7);

        s.document()->applyPreset(*findPreset(QStringLiteral("book")));
        s.view()->setHead(9); // more than the new trace will have: clamped when it arrives
        QTRY_VERIFY_WITH_TIMEOUT(idle(s) && s.document()->config().num_heads == 2, 30000);
        QCOMPARE(s.view()->head(), 1);
    }

private:
    QTemporaryDir dir_;
};

QTEST_MAIN(TestUiLessonState)
#include "test_ui_lesson_state.moc"
