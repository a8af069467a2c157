// What the Session keeps of the student's study of a stage: the element followed (undone like an edit,
// saved, read from the shown trace through core) and Predict First (a question per stage, the tally,
// saved and reopened, reset on demand).
#include "common/session_fixtures.h"
#include "model/presets.h"
#include "common/session_parts.h"
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
    s.document()->applyPreset(*findPreset(QString::fromLatin1(preset)));
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
    QVERIFY(!s.study()->followedElement());
    testing::PartsSpy spy(s);
    s.document()->setSelectedElement({QStringLiteral("queries.heads"), {1, 1, 4, 0}});
    QVERIFY(spy.count() == 1 && (spy.at(0).at(0).value<ChangeFlags>() & ChangeFlag::Selection));
    const ElementFollow* f = s.study()->followedElement();
    QVERIFY(f);
    QCOMPARE(f->value, s.trace()->trace()->find("queries.heads")->tensor.at({1, 1, 4, 0}));
    QVERIFY(std::any_of(f->places.begin(), f->places.end(), [](const ElementPlace& p) {
        return p.stage == "queries" && p.index == Index{1, 4, 1} && p.placement == Placement::SameStorage;
    }));
    // An element the trace does not hold follows nothing, and is kept for a trace that does.
    s.document()->setSelectedElement({QStringLiteral("queries.heads"), {1, 1, 40, 0}});
    QVERIFY(!s.study()->followedElement());
    s.document()->setSelectedElement({QStringLiteral("no.such.stage"), {0}});
    QVERIFY(!s.study()->followedElement());
}

void TestUiStudy::selectionIsUndoneAndSaved()
{
    Session s;
    openPreset(s, "book");
    SettingsHistory history(s.document());
    const ElementSelection a{QStringLiteral("context.merged"), {0, 2, 1}},
        b{QStringLiteral("attn_weights"), {1, 0, 3, 2}};
    s.document()->setSelectedElement(a);
    s.document()->setSelectedElement(b);
    QCOMPARE(history.stack()->count(), 2);
    QCOMPARE(history.stack()->undoText(), QStringLiteral("Change the followed element"));
    history.stack()->undo();
    QCOMPARE(s.document()->selectedElement(), a);
    history.stack()->undo();
    QVERIFY(s.document()->selectedElement().empty());
    history.stack()->redo();
    QCOMPARE(s.document()->selectedElement(), a);

    const QString path = dir_.filePath("selection.attnlab.json");
    QString error;
    QVERIFY2(saveSessionFile(path, captureState(s), sessionFeatures(), &error), qPrintable(error));
    Session t;
    openPreset(t, "gpt2-small");
    const auto state = loadSessionFile(path, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    applyState(t, *state);
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(t) && t.document()->config().d_in == 3, 30000);
    QCOMPARE(t.document()->selectedElement(), a);
    QVERIFY(t.study()->followedElement());
    QCOMPARE(t.study()->followedElement()->value, s.study()->followedElement()->value);
    // Nothing selected, nothing predicted: the file has neither part, so older files keep their bytes.
    Session u;
    const QByteArray bytes = serializeSession(captureState(u), sessionFeatures());
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
    QVERIFY(s.study()->stageRevealed()); // Predict First is off: every stage shows
    s.study()->setPredictFirst(true);
    const int stages = static_cast<int>(s.trace()->trace()->stages.size());
    for (int i = 0; i < stages; ++i) {
        s.view()->setStageIndex(i);
        QVERIFY2(!s.study()->stageRevealed(), s.view()->stage()->name.c_str());
        const StageQuestion* q = s.study()->question();
        QVERIFY(q && q->stage == s.view()->stage()->name);
        StageAnswer answer = truthOf(*q);
        if (i % 2) // every other stage: a wrong last axis
            answer.axes.back() = std::to_string(q->axes.back().size + 1);
        const PredictionCheck check = s.study()->answerStage(answer);
        QCOMPARE(check.all_right(), i % 2 == 0);
        QVERIFY(s.study()->stageRevealed());
        // A second answer does not change the tally.
        s.study()->answerStage(truthOf(*q));
    }
    QCOMPARE(s.study()->predict().asked(), stages);
    QCOMPARE(s.study()->predict().right(), (stages + 1) / 2);
    // Revealed without an answer (the teacher's key): shown, nothing tallied.
    s.study()->resetPredictions();
    QCOMPARE(s.study()->predict().asked(), 0);
    s.view()->setStageIndex(0);
    QVERIFY(!s.study()->stageRevealed());
    s.study()->revealStage();
    QVERIFY(s.study()->stageRevealed());
    QCOMPARE(s.study()->predict().asked(), 0);
}

void TestUiStudy::tallySurvivesSaveAndReopen()
{
    Session s;
    openPreset(s, "book");
    s.study()->setPredictFirst(true);
    for (int i = 0; i < 3; ++i) {
        s.view()->setStageIndex(i);
        StageAnswer a = truthOf(*s.study()->question());
        if (i == 1)
            a.axes.front() = "7";
        s.study()->answerStage(a);
    }
    QCOMPARE(s.study()->predict().right(), 2);
    const QString path = dir_.filePath("predict.attnlab.json");
    QString error;
    QVERIFY2(saveSessionFile(path, captureState(s), sessionFeatures(), &error), qPrintable(error));
    Session t;
    const auto state = loadSessionFile(path, sessionFeatures(), &error);
    QVERIFY2(state, qPrintable(error));
    applyState(t, *state);
    QTRY_VERIFY_WITH_TIMEOUT(testing::idle(t), 30000);
    QVERIFY(t.study()->predict().on);
    QCOMPARE(t.study()->predict().asked(), 3);
    QCOMPARE(t.study()->predict().right(), 2);
    t.view()->setStageIndex(1);
    QVERIFY(t.study()->stageRevealed()); // answered before the save
    t.view()->setStageIndex(3);
    QVERIFY(!t.study()->stageRevealed());
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
    QByteArray bytes = serializeSession(captureState(s), sessionFeatures());
    bytes.insert(bytes.indexOf('{') + 1, "\n    " + part + ",");
    QString error;
    QVERIFY(!parseSession(bytes, sessionFeatures(), &error));
    QVERIFY2(error.contains(says), qPrintable(error));
    QVERIFY2(error.endsWith('.'), qPrintable(error));
}

QTEST_MAIN(TestUiStudy)
#include "test_ui_study.moc"
