// What the Session keeps of the student's study of a stage: the element followed (undone like an edit,
// saved, read from the shown trace through core) and Predict First (a question per stage, the tally,
// saved and reopened, reset on demand).
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "model/session.h"
#include "model/session_file.h"
#include "model/undo_commands.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

void openPreset(Session& s, const char* preset)
{
    s.applyPreset(*findPreset(QString::fromLatin1(preset)));
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(s), 30000);
}

StageAnswer truthOf(const StageQuestion& q)
{
    StageAnswer a;
    for (const auto& axis : q.axes)
        a.axes.push_back(std::to_string(axis.size));
    a.contiguous = q.contiguous;
    a.shares_storage = q.shares_storage;
    for (std::int64_t i = 0; i < q.tokens; ++i)
        for (std::int64_t j = i + 1; j < q.tokens; ++j)
            a.hidden.push_back({i, j});
    return a;
}

} // namespace

class TestUiStudy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void followsTheSelectedElement();
    void selectionIsUndoneAndSaved();
    void predictEveryStage_data();
    void predictEveryStage();
    void tallySurvivesSaveAndReopen();
    void badFilesAreRefused_data();
    void badFilesAreRefused();

private:
    QTemporaryDir dir_;
};

void TestUiStudy::followsTheSelectedElement()
{
    Session s;
    openPreset(s, "book");
    QVERIFY(!s.followedElement());
    QSignalSpy spy(&s, &Session::changed);
    s.setSelectedElement({QStringLiteral("queries.heads"), {1, 1, 4, 0}});
    QVERIFY(spy.count() == 1 && (spy.at(0).at(0).value<ChangeFlags>() & ChangeFlag::Selection));
    const ElementFollow* f = s.followedElement();
    QVERIFY(f);
    QCOMPARE(f->value, s.trace()->find("queries.heads")->tensor.at({1, 1, 4, 0}));
    QVERIFY(std::any_of(f->places.begin(), f->places.end(), [](const ElementPlace& p) {
        return p.stage == "queries" && p.index == Index{1, 4, 1} && p.placement == Placement::SameStorage;
    }));
    // An element the trace does not hold follows nothing, and is kept for a trace that does.
    s.setSelectedElement({QStringLiteral("queries.heads"), {1, 1, 40, 0}});
    QVERIFY(!s.followedElement());
    s.setSelectedElement({QStringLiteral("no.such.stage"), {0}});
    QVERIFY(!s.followedElement());
}

void TestUiStudy::selectionIsUndoneAndSaved()
{
    Session s;
    openPreset(s, "book");
    SettingsHistory history(&s);
    const ElementSelection a{QStringLiteral("context.merged"), {0, 2, 1}},
        b{QStringLiteral("attn_weights"), {1, 0, 3, 2}};
    s.setSelectedElement(a);
    s.setSelectedElement(b);
    QCOMPARE(history.stack()->count(), 2);
    QCOMPARE(history.stack()->undoText(), QStringLiteral("Change the followed element"));
    history.stack()->undo();
    QCOMPARE(s.selectedElement(), a);
    history.stack()->undo();
    QVERIFY(s.selectedElement().empty());
    history.stack()->redo();
    QCOMPARE(s.selectedElement(), a);

    const QString path = dir_.filePath("selection.attnlab.json");
    QString error;
    QVERIFY2(saveSessionFile(path, captureState(s), &error), qPrintable(error));
    Session t;
    openPreset(t, "gpt2-small");
    const auto state = loadSessionFile(path, &error);
    QVERIFY2(state, qPrintable(error));
    applyState(t, *state);
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(t) && t.config().d_in == 3, 30000);
    QCOMPARE(t.selectedElement(), a);
    QVERIFY(t.followedElement());
    QCOMPARE(t.followedElement()->value, s.followedElement()->value);
    // Nothing selected, nothing predicted: the file has neither part, so older files keep their bytes.
    Session u;
    const QByteArray bytes = serializeSession(captureState(u));
    QVERIFY(!bytes.contains("\"selection\"") && !bytes.contains("\"predict\""));
}

void TestUiStudy::predictEveryStage_data()
{
    QTest::addColumn<QString>("preset");
    QTest::newRow("book") << "book";
    QTest::newRow("gpt2-small") << "gpt2-small";
}

void TestUiStudy::predictEveryStage()
{
    QFETCH(QString, preset);
    Session s;
    openPreset(s, preset.toLatin1().constData());
    QVERIFY(s.stageRevealed()); // Predict First is off: every stage shows
    s.setPredictFirst(true);
    const int stages = static_cast<int>(s.trace()->stages.size());
    for (int i = 0; i < stages; ++i) {
        s.setStageIndex(i);
        QVERIFY2(!s.stageRevealed(), s.stage()->name.c_str());
        const StageQuestion* q = s.question();
        QVERIFY(q && q->stage == s.stage()->name);
        StageAnswer answer = truthOf(*q);
        if (i % 2) // every other stage: a wrong last axis
            answer.axes.back() = std::to_string(q->axes.back().size + 1);
        const PredictionCheck check = s.answerStage(answer);
        QCOMPARE(check.all_right(), i % 2 == 0);
        QVERIFY(s.stageRevealed());
        // A second answer does not change the tally.
        s.answerStage(truthOf(*q));
    }
    QCOMPARE(s.predict().asked(), stages);
    QCOMPARE(s.predict().right(), (stages + 1) / 2);
    // Revealed without an answer (the teacher's key): shown, nothing tallied.
    s.resetPredictions();
    QCOMPARE(s.predict().asked(), 0);
    s.setStageIndex(0);
    QVERIFY(!s.stageRevealed());
    s.revealStage();
    QVERIFY(s.stageRevealed());
    QCOMPARE(s.predict().asked(), 0);
}

void TestUiStudy::tallySurvivesSaveAndReopen()
{
    Session s;
    openPreset(s, "book");
    s.setPredictFirst(true);
    for (int i = 0; i < 3; ++i) {
        s.setStageIndex(i);
        StageAnswer a = truthOf(*s.question());
        if (i == 1)
            a.axes.front() = "7";
        s.answerStage(a);
    }
    QCOMPARE(s.predict().right(), 2);
    const QString path = dir_.filePath("predict.attnlab.json");
    QString error;
    QVERIFY2(saveSessionFile(path, captureState(s), &error), qPrintable(error));
    Session t;
    const auto state = loadSessionFile(path, &error);
    QVERIFY2(state, qPrintable(error));
    applyState(t, *state);
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(t), 30000);
    QVERIFY(t.predict().on);
    QCOMPARE(t.predict().asked(), 3);
    QCOMPARE(t.predict().right(), 2);
    t.setStageIndex(1);
    QVERIFY(t.stageRevealed()); // answered before the save
    t.setStageIndex(3);
    QVERIFY(!t.stageRevealed());
}

void TestUiStudy::badFilesAreRefused_data()
{
    QTest::addColumn<QByteArray>("part");
    QTest::addColumn<QString>("says");
    QTest::newRow("selection-not-object") << QByteArray(R"("selection": 3)") << "selection";
    QTest::newRow("index-negative") << QByteArray(R"("selection": {"stage": "x", "index": [0, -1]})")
                                    << "whole numbers";
    QTest::newRow("index-fraction") << QByteArray(R"("selection": {"stage": "x", "index": [0.5]})") << "whole numbers";
    QTest::newRow("index-not-array") << QByteArray(R"("selection": {"stage": "x", "index": "0,1"})") << "array";
    QTest::newRow("answer-not-bool") << QByteArray(R"("predict": {"on": true, "answers": {"a": 1}})")
                                     << "true or false";
    QTest::newRow("on-not-bool") << QByteArray(R"("predict": {"on": "yes"})") << "on";
}

void TestUiStudy::badFilesAreRefused()
{
    QFETCH(QByteArray, part);
    QFETCH(QString, says);
    Session s;
    QByteArray bytes = serializeSession(captureState(s));
    bytes.insert(bytes.indexOf('{') + 1, "\n    " + part + ",");
    QString error;
    QVERIFY(!parseSession(bytes, &error));
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY2(error.endsWith('.'), qPrintable(error));
}

QTEST_MAIN(TestUiStudy)
#include "test_ui_study.moc"
