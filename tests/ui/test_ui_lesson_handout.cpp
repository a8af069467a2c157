// Lessons > Export Handout for This Lesson… (issue 45 item 4): a session file per step that opens on the step, the
// lesson's questions as a GIFT quiz read back by the reader written from the format's documentation and as a page,
// the teacher's own state put back afterwards, and refusals said in one sentence, in the window and from the
// command line.
#include "common/gift_parser.h"
#include "common/gui_runner.h"
#include "common/session_fixtures.h"
#include "common/shell_app.h"
#include "features/debug/bug_lesson.h"
#include "features/debug/debug_state.h"
#include "features/session.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/sweep_question.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "features/session_state.h"
#include "model/document_model.h"
#include "model/presets.h"
#include "model/session_file.h"
#include "model/trace_state.h"
#include "model/view_model.h"
#include "shell/app_shell.h"
#include "shell/file_actions.h"
#include "shell/lesson_handout.h"
#include "shell/lesson_handout_actions.h"
#include "shell/lesson_questions.h"
#include "shell/lessons.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"

#include <QAction>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QPushButton>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <memory>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

using App = testing::ShellApp;

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The questions of the quiz by title ("lesson:view-transpose:contiguous-first yes-no"), each once.
std::map<std::string, testing::GiftQuestion> byTitle(const std::vector<testing::GiftQuestion>& quiz)
{
    std::map<std::string, testing::GiftQuestion> m;
    for (const auto& q : quiz)
        m.emplace(q.title, q);
    return m;
}

} // namespace

class TestUiLessonHandout : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true); // the recent files an opened session adds are not the user's
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    }

    // Rows: the lesson, how many of its steps have a question of the lesson's own, one of them and its answer.
    void writesEveryStep_data()
    {
        QTest::addColumn<QString>("lesson");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("expected"); // "TRUE", "FALSE", a number, or what the row checks
        QTest::newRow("view-transpose") << "view-transpose"
                                        << "lesson:view-transpose:contiguous-first yes-no"
                                        << "FALSE";
        QTest::newRow("gpt2-split") << "gpt2-split"
                                    << "lesson:gpt2-split:mend-split number"
                                    << "64";
        QTest::newRow("first-divergence") << "first-divergence"
                                          << "lesson:first-divergence:first-stage choice"
                                          << "the first divergence";
        QTest::newRow("argument-contract") << "argument-contract"
                                           << "lesson:argument-contract:slot-by-slot choice"
                                           << "num_heads";
        QTest::newRow("weight-transfer") << "weight-transfer"
                                         << "lesson:weight-transfer:three-lines yes-no"
                                         << "FALSE";
        QTest::newRow("wrapper-integrated") << "wrapper-integrated"
                                            << "lesson:wrapper-integrated:stack-heads number"
                                            << "4"; // the book's d_out 2, two heads
    }

    void writesEveryStep()
    {
        QFETCH(QString, lesson);
        QFETCH(QString, title);
        QFETCH(QString, expected);
        App a;
        QVERIFY(a.open());
        // The teacher's own state, which the walk must give back: another call, another stage, no lesson.
        a.session.document()->setCallText(QStringLiteral("MultiHeadAttention(64, 32, 16, 0.0, 4)"));
        QVERIFY(testing::waitUntilSettled(a.session));
        a.session.view()->setStageByName(QStringLiteral("keys.view"));
        const QByteArray before = serializeSession(captureState(a.session), sessionFeatures());

        const QString folder = dir_.filePath(lesson + QStringLiteral("/new/folder"));
        LessonHandout* handout = a.shell->handouts()->handout();
        QSignalSpy finished(handout, &LessonHandout::finished);
        QString error;
        QVERIFY2(handout->start(lesson, folder, &error), qPrintable(error));
        QVERIFY(handout->busy());
        QVERIFY(!a.shell->handouts()->exportAction()->isEnabled()); // one at a time
        QVERIFY(finished.wait(60000) || finished.count() == 1);
        QVERIFY(!handout->busy());
        QVERIFY2(finished.at(0).at(0).toString().isEmpty(), qPrintable(finished.at(0).at(0).toString()));
        const auto files = finished.at(0).at(1).value<LessonHandoutFiles>();

        // One session file per step, each opening inside the lesson at its step.
        const Lesson* l = findLesson(lesson);
        QVERIFY(l);
        QCOMPARE(files.sessions.size(), static_cast<qsizetype>(l->steps.size()));
        for (int i = 0; i < files.sessions.size(); ++i) {
            QCOMPARE(files.sessions[i], QStringLiteral("%1-%2.attnlab.json")
                                            .arg(i + 1, 2, 10, QLatin1Char('0'))
                                            .arg(l->steps[static_cast<std::size_t>(i)].id));
            const auto state = loadSessionFile(QDir(folder).filePath(files.sessions[i]), sessionFeatures(), &error);
            QVERIFY2(state, qPrintable(error));
            QCOMPARE(state->view.guide.lesson, lesson);
            QCOMPARE(state->view.guide.step, i);
        }

        // The quiz, read as an LMS reads it: its category, the lesson's question with the app's answer, every
        // question prefaced by its step.
        const auto quiz = testing::parse_gift(readText(files.gift).toStdString());
        QVERIFY(!quiz.empty());
        QVERIFY(files.questions > 0 && files.questions <= static_cast<int>(l->steps.size()));
        for (const auto& q : quiz) {
            QCOMPARE(q.category, "attention-lab/" + lesson.toStdString());
            QVERIFY2(q.text.rfind("Step ", 0) == 0, q.text.c_str());
        }
        const auto titled = byTitle(quiz);
        QVERIFY2(titled.count(title.toStdString()), title.toLatin1().constData());
        const testing::GiftQuestion& q = titled.at(title.toStdString());
        if (expected == QLatin1String("the first divergence")) { // the stage the app diagnoses, among its neighbours
            BugLesson* bugs = a.session.feature<DebugState>()->bugLesson();
            bugs->setActive(true);
            QVERIFY(bugs->diagnosis() && bugs->firstDivergenceRow() >= 0);
            const std::string stage =
                bugs->diagnosis()->stages[static_cast<std::size_t>(bugs->firstDivergenceRow())].stage;
            QCOMPARE(q.type, testing::GiftQuestion::Type::MultipleChoice);
            QVERIFY(q.answers.size() >= 2 && q.answers.size() <= 6);
            int right = 0;
            for (const auto& answer : q.answers)
                if (answer.weight == 100) {
                    ++right;
                    QCOMPARE(answer.text, stage);
                }
            QCOMPARE(right, 1);
        } else if (expected == QLatin1String("num_heads")) { // as the swapped call is written, 1024 fills num_heads
            QCOMPARE(q.type, testing::GiftQuestion::Type::MultipleChoice);
            for (const auto& answer : q.answers)
                QCOMPARE(answer.weight == 100, answer.text == "num_heads");
        } else if (expected == QLatin1String("TRUE") || expected == QLatin1String("FALSE")) {
            QCOMPARE(q.type, testing::GiftQuestion::Type::TrueFalse);
            QCOMPARE(q.truth, expected == QLatin1String("TRUE"));
        } else {
            QCOMPARE(q.type, testing::GiftQuestion::Type::Numerical);
            QCOMPARE(*q.number, expected.toDouble());
        }
        // The page: a title naming the lesson, every question, the answers after.
        const QString page = readText(files.html);
        QVERIFY(page.contains(l->title.toHtmlEscaped()));
        QVERIFY(page.contains(QStringLiteral("Answers")));
        QCOMPARE(page.count(QStringLiteral("<div class=\"question\">")), files.questions);

        // The teacher's state is back, byte for byte.
        QVERIFY(testing::waitUntilSettled(a.session));
        QCOMPARE(serializeSession(captureState(a.session), sessionFeatures()), before);
    }

    // Lesson 10's memory step asks the bytes one token adds to Llama 3 8B's cache (llama-3-8b): 32 layers x 2 x 8
    // key/value heads x head_dim 128 x 2 bytes (bf16), the table's bold row.
    void theCacheQuestionIsTheTables()
    {
        App a;
        QVERIFY(a.open());
        LessonsPanel* lessons = a.shell->lessonsPanel();
        QVERIFY(lessons->setLesson(QStringLiteral("kv-heads")));
        lessons->setStep(2);
        QCOMPARE(lessons->currentStep()->id, QStringLiteral("kv-memory"));
        lessons->showMe();
        QVERIFY(testing::waitUntilSettled(a.session));
        const auto q = lessonClassQuestion(QStringLiteral("kv-memory"), {&a.session, a.window.get()});
        QVERIFY(q && q->fields.size() == 1);
        QCOMPARE(q->fields[0].right, std::string("131072"));
        QVERIFY2(q->prompt.find("llama-3-8b") != std::string::npos, q->prompt.c_str());
        QVERIFY2(q->fields[0].explanation.find("32 × 2 × 8 × 128 × 2 = 131072") != std::string::npos,
                 q->fields[0].explanation.c_str());
    }

    // Lessons 9 and 10 ask which variant did best: the highest mean, and any within its seeds' spread counts too.
    void theBestVariantIsAsked_data()
    {
        QTest::addColumn<QList<double>>("means");
        QTest::addColumn<QList<double>>("spreads");
        QTest::addColumn<int>("right");
        QTest::addColumn<QStringList>("alsoRight");
        QTest::newRow("clear-best") << QList<double>{0.60, 0.91, 0.80, 0.20} << QList<double>{0.05, 0.01, 0.02, 0.0}
                                    << 1 << QStringList{};
        QTest::newRow("within-spread") << QList<double>{0.60, 0.91, 0.89, 0.20} << QList<double>{0.05, 0.03, 0.02, 0.0}
                                       << 1 << QStringList{"2"};
        QTest::newRow("last-best") << QList<double>{0.5, 0.7} << QList<double>{0.0, 0.0} << 1 << QStringList{};
    }

    void theBestVariantIsAsked()
    {
        QFETCH(QList<double>, means);
        QFETCH(QList<double>, spreads);
        QFETCH(int, right);
        QFETCH(QStringList, alsoRight);
        std::vector<SweepRow> rows;
        const std::int64_t heads[] = {1, 2, 4, 32};
        for (int i = 0; i < means.size(); ++i) {
            SweepRow r;
            r.heads = heads[i];
            r.kvGroups = heads[i];
            r.accuracy = {means[i], spreads[i]};
            rows.push_back(r);
        }
        const auto q = bestVariantQuestion("lesson:read-table", rows, false);
        QVERIFY(q);
        QCOMPARE(q->fields[0].right, std::to_string(right));
        QStringList also;
        for (const std::string& s : q->fields[0].also_right)
            also << QString::fromStdString(s);
        QCOMPARE(also, alsoRight);
        QCOMPARE(q->fields[0].choices.front(), std::string("1 head"));
        QVERIFY(!bestVariantQuestion("x", {rows.front()}, false)); // one row: nothing to choose between
    }

    // A student opens an exercise: the lessons panel shows, at the step the file was made for.
    void anExerciseOpensAtItsStep()
    {
        App a;
        QVERIFY(a.open());
        const QString folder = dir_.filePath(QStringLiteral("opened"));
        QSignalSpy finished(a.shell->handouts()->handout(), &LessonHandout::finished);
        QString error;
        QVERIFY(a.shell->handouts()->handout()->start(QStringLiteral("view-transpose"), folder, &error));
        QVERIFY(finished.wait(60000) || finished.count() == 1);
        QVERIFY(a.shell->lessonsDock()->isHidden()); // the walk used the panel unseen
        App student;
        QVERIFY(student.open());
        QVERIFY(student.shell->lessonsDock()->isHidden());
        QVERIFY2(student.shell->files()->openFile(QDir(folder).filePath("02-transpose-swaps.attnlab.json"), &error),
                 qPrintable(error));
        QVERIFY(testing::waitUntilSettled(student.session));
        QVERIFY(!student.shell->lessonsDock()->isHidden());
        QCOMPARE(student.shell->lessonsPanel()->lesson()->id, QStringLiteral("view-transpose"));
        QCOMPARE(student.shell->lessonsPanel()->step(), 1);
        // Lesson 5's exercise: its answer is held back for the student too, until they reveal it.
        const QString divergence = dir_.filePath(QStringLiteral("divergence"));
        QVERIFY(a.shell->handouts()->handout()->start(QStringLiteral("first-divergence"), divergence, &error));
        QVERIFY(finished.wait(60000) || finished.count() == 2);
        QVERIFY2(student.shell->files()->openFile(QDir(divergence).filePath("01-first-stage.attnlab.json"), &error),
                 qPrintable(error));
        QVERIFY(testing::waitUntilSettled(student.session));
        QCOMPARE(student.session.view()->guide().held, QStringLiteral("divergence"));
        QVERIFY(student.shell->lessonsPanel()->revealButton()->isEnabled());
        student.shell->lessonsPanel()->reveal();
        QVERIFY(student.session.view()->guide().held.isEmpty());
    }

    // A session made on another machine names the app's own trained model by a path that is not here: the model
    // of that name shipped with this app is opened instead.
    void theShippedModelIsFoundByName()
    {
        App a;
        QVERIFY(a.open());
        QVERIFY(a.shell->lessonsPanel()->setLesson(QStringLiteral("trained-heads")));
        a.shell->lessonsPanel()->setStep(1); // entered there, it opens the induction model
        QVERIFY(testing::waitUntilSettled(a.session, 60000));
        QVERIFY(a.session.trace()->usesOpenedModel());
        SessionState state = captureState(a.session);
        const QString here = state.checkpoint;
        QVERIFY(here.endsWith(QStringLiteral(".safetensors")));
        state.checkpoint = QStringLiteral("/nowhere/on/this/machine/") + QFileInfo(here).fileName();
        state.document.spec.gpt_model_path = state.checkpoint.toStdString();
        const QString path = dir_.filePath(QStringLiteral("moved.attnlab.json"));
        QString error;
        QVERIFY2(saveSessionFile(path, state, sessionFeatures(), &error), qPrintable(error));
        App student;
        QVERIFY(student.open());
        QVERIFY2(student.shell->files()->openFile(path, &error), qPrintable(error));
        QVERIFY(testing::waitUntilSettled(student.session, 60000));
        QVERIFY(student.session.trace()->usesOpenedModel());
        QCOMPARE(student.session.trace()->openedCheckpoint(), here);
        QVERIFY(!student.session.trace()->hasErrors());
    }

    // Refused at once, with one sentence, nothing changed: no such lesson, a folder that cannot be made, a second
    // export while one runs.
    void refusals()
    {
        App a;
        QVERIFY(a.open());
        const QByteArray before = serializeSession(captureState(a.session), sessionFeatures());
        LessonHandout* handout = a.shell->handouts()->handout();
        QString error;
        QVERIFY(!handout->start(QStringLiteral("bogus"), dir_.filePath(QStringLiteral("b")), &error));
        QVERIFY2(error.contains(QStringLiteral("no lesson \"bogus\"")) &&
                     error.contains(QStringLiteral("view-transpose")),
                 qPrintable(error));
        QFile file(dir_.filePath(QStringLiteral("a-file")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(
            !handout->start(QStringLiteral("view-transpose"), dir_.filePath(QStringLiteral("a-file/under")), &error));
        QVERIFY2(error.contains(QStringLiteral("Could not make the folder")), qPrintable(error));
        QVERIFY(!handout->busy());
        QCOMPARE(serializeSession(captureState(a.session), sessionFeatures()), before);
        QSignalSpy finished(handout, &LessonHandout::finished);
        QVERIFY(handout->start(QStringLiteral("gpt2-split"), dir_.filePath(QStringLiteral("twice")), &error));
        QVERIFY(!handout->start(QStringLiteral("gpt2-split"), dir_.filePath(QStringLiteral("twice")), &error));
        QVERIFY2(error.contains(QStringLiteral("already")), qPrintable(error));
        QVERIFY(finished.wait(60000) || finished.count() == 1);
    }

    // From the command line, as a teacher prepares a class: written and exit 0; refused with exit 1 and the
    // sentence on standard error.
    void fromTheCommandLine()
    {
        const QString config = dir_.filePath(QStringLiteral("config"));
        const QString folder = dir_.filePath(QStringLiteral("cli"));
        const testing::GuiRun ok = testing::runGui(
            {QStringLiteral("--guide"), QStringLiteral("view-transpose"), QStringLiteral("--export-handout"), folder},
            config);
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        QVERIFY2(ok.out.contains(QStringLiteral("3 session file(s)")), qPrintable(ok.out));
        QVERIFY(QFile::exists(QDir(folder).filePath(QStringLiteral("01-view-relabels.attnlab.json"))));
        QVERIFY(QFile::exists(QDir(folder).filePath(QStringLiteral("view-transpose.gift"))));
        const testing::GuiRun noLesson =
            testing::runGui({QStringLiteral("--export-handout"), dir_.filePath(QStringLiteral("x"))}, config);
        QCOMPARE(noLesson.code, 1);
        QVERIFY2(noLesson.err.contains(QStringLiteral("needs the lesson")), qPrintable(noLesson.err));
        QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("x"))));
    }
};

QTEST_MAIN(TestUiLessonHandout)
#include "test_ui_lesson_handout.moc"
