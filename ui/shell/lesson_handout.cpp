#include "shell/lesson_handout.h"

#include "features/session.h"
#include "features/session_state.h"
#include "features/tradeoffs/sweep_job.h"
#include "features/tradeoffs/tradeoffs_state.h"
#include "forward/stage_names.h"
#include "lessons/predict.h"
#include "model/session_file.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_mode.h"
#include "model/view_model.h"
#include "poll/gift_quiz.h"
#include "poll/handout_page.h"
#include "shell/exporters.h"
#include "shell/lesson_questions.h"
#include "shell/lessons_panel.h"

#include <QDir>
#include <QFileInfo>

#include <set>
#include <vector>

namespace attnlab::ui {

struct LessonHandout::Walk {
    const Lesson* lesson = nullptr;
    int step = 0;
    SessionState teacher; // put back at the end
    LessonHandoutFiles files;
    std::vector<poll::Question> questions;
    std::set<std::string> asked; // a stage asked again with the same settings is asked once
};

LessonHandout::LessonHandout(LessonsPanel* lessons, Session* session, QObject* parent)
    : QObject(parent), lessons_(lessons), session_(session)
{
}

LessonHandout::~LessonHandout() = default;

bool LessonHandout::start(const QString& lessonId, const QString& folder, QString* error)
{
    const Lesson* lesson = findLesson(lessonId);
    if (walk_)
        *error = tr("A lesson handout is being written already: wait for it to finish.");
    else if (!lesson)
        *error =
            tr("There is no lesson \"%1\"; the lessons are %2.").arg(lessonId, lessonIds().join(QStringLiteral(", ")));
    else if (folder.isEmpty() || !QDir().mkpath(folder) || !QFileInfo(folder).isDir())
        *error = tr("Could not make the folder \"%1\" for the handout: choose a folder you can write to.").arg(folder);
    else {
        walk_ = std::make_unique<Walk>();
        walk_->lesson = lesson;
        walk_->teacher = captureState(*session_);
        walk_->files.folder = QDir(folder).absolutePath();
        enterStep();
        return true;
    }
    return false;
}

// Once everything the step started is computed: the trace, and a sweep it trains.
void LessonHandout::afterSettled(void (LessonHandout::*next)())
{
    if (session_->feature<TradeoffsState>()->sweep()->busy())
        session_->feature<TradeoffsState>()->waitForSweep();
    session_->whenSettled(this, [this, next] {
        if (walk_)
            (this->*next)();
    });
}

void LessonHandout::enterStep()
{
    Walk& w = *walk_;
    const int count = static_cast<int>(w.lesson->steps.size());
    if (w.step >= count) {
        const std::string title = w.lesson->title.toStdString() + " — the lesson's questions";
        const QString base = QDir(w.files.folder).filePath(w.lesson->id);
        w.files.gift = base + QStringLiteral(".gift");
        w.files.html = base + QStringLiteral(".html");
        w.files.questions = static_cast<int>(w.questions.size());
        QString error;
        if (w.questions.empty())
            return finish({});
        if (!writeTextFile(
                w.files.gift,
                QString::fromStdString(poll::gift_quiz("attention-lab/" + w.lesson->id.toStdString(), w.questions)),
                &error) ||
            !writeTextFile(w.files.html, QString::fromStdString(poll::handout_page(title, w.questions)), &error))
            return finish(error);
        return finish({});
    }
    Q_EMIT progress(tr("Handout of \"%1\": step %2 of %3…").arg(w.lesson->title).arg(w.step + 1).arg(count));
    if (w.step == 0)
        lessons_->setLesson(w.lesson->id);
    lessons_->setStep(w.step); // what the step needs, built as the dock builds it
    afterSettled(&LessonHandout::saveStep);
}

void LessonHandout::saveStep()
{
    Walk& w = *walk_;
    const LessonStep& step = w.lesson->steps[static_cast<std::size_t>(w.step)];
    const QString name = QStringLiteral("%1-%2%3")
                             .arg(w.step + 1, 2, 10, QLatin1Char('0'))
                             .arg(step.id, QString::fromLatin1(kSessionFileSuffix));
    QString error;
    if (!saveSessionFile(QDir(w.files.folder).filePath(name), captureState(*session_), sessionFeatures(), &error))
        return finish(error);
    w.files.sessions << name;
    lessons_->showMe(); // set up as the step shows it, so the question is about what the room would see
    afterSettled(&LessonHandout::askStep);
}

void LessonHandout::askStep()
{
    Walk& w = *walk_;
    const LessonStep& step = w.lesson->steps[static_cast<std::size_t>(w.step)];
    std::optional<poll::Question> q = lessonClassQuestion(step.id, {session_, nullptr});
    // Else what the step shows, when it shows a stage: its shape on the Forward tab (not the input's, which is
    // given), which head looks back on the Heatmaps tab. A step on another tab (a table, a chart) asks nothing.
    const auto trace = session_->trace()->trace();
    const StageQuestion* stage = session_->study()->question();
    const ViewMode tab = session_->view()->tab();
    if (!q && trace && !session_->trace()->hasErrors()) {
        const std::optional<HeadQuestion> heads =
            tab == ViewMode::Heatmaps
                ? head_question_for(*trace, stage::attn_weights,
                                    session_->trace()->headMeasures(session_->view()->batchIndex()))
                : std::nullopt;
        if (heads)
            q = poll::from_heads(*heads);
        else if (tab == ViewMode::Stepper && stage && session_->view()->stage() &&
                 session_->view()->stage()->name != stage::x)
            q = poll::from_stage(*trace, *stage);
    }
    if (q && !q->fields.empty()) {
        std::string key = q->prompt + '\n' + q->context;
        for (const poll::Field& f : q->fields)
            key += '\n' + f.right;
        if (w.asked.insert(key).second) {
            const std::string where = "Step " + std::to_string(w.step + 1) + " · " + step.title.toStdString();
            q->id = "lesson:" + w.lesson->id.toStdString() + ":" + step.id.toStdString();
            q->context = q->context.empty() ? where : where + '\n' + q->context;
            w.questions.push_back(std::move(*q));
        }
    }
    ++w.step;
    enterStep();
}

void LessonHandout::finish(const QString& error)
{
    std::unique_ptr<Walk> w = std::move(walk_);
    applyState(*session_, w->teacher); // the teacher's own state, as it was before the walk
    Q_EMIT finished(error, w->files);
}

} // namespace attnlab::ui
