#include "shell/lesson_handout_actions.h"

#include "features/session.h"
#include "shell/lesson_handout.h"
#include "shell/lessons.h"
#include "shell/lessons_panel.h"
#include "shell/main_window.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

#include <cstdio>
#include <cstdlib>

namespace attnlab::ui {

namespace {

QString doneSentence(const LessonHandoutFiles& f)
{
    QString s = QObject::tr("Handout written to %1: %n session file(s), one per step", nullptr,
                            static_cast<int>(f.sessions.size()))
                    .arg(QDir::toNativeSeparators(f.folder));
    if (f.questions == 0)
        return s + QObject::tr("; the lesson asks no question, so there is no quiz.");
    return s + QObject::tr(", and %n question(s) as %1 and %2.", nullptr, f.questions)
                   .arg(QFileInfo(f.gift).fileName(), QFileInfo(f.html).fileName());
}

} // namespace

LessonHandoutActions::LessonHandoutActions(MainWindow* window, LessonsPanel* lessons, Session* session, QObject* parent)
    : QObject(parent), window_(window), lessons_(lessons), session_(session),
      handout_(new LessonHandout(lessons, session, this)),
      export_(new QAction(tr("Export &Handout for This Lesson…"), this))
{
    export_->setObjectName(QStringLiteral("export-lesson-handout"));
    export_->setToolTip(tr("Write a session file per step of the lesson in the panel, for students to open on "
                           "their own laptops, and the lesson's questions as a GIFT quiz and a page to print."));
    connect(export_, &QAction::triggered, this, &LessonHandoutActions::askFolder);
    connect(lessons_, &LessonsPanel::stepShown, this, &LessonHandoutActions::refresh);
    connect(handout_, &LessonHandout::progress, this, [this](const QString& sentence) {
        refresh(); // disabled while it runs
        Q_EMIT message(sentence);
    });
    connect(handout_, &LessonHandout::finished, this, [this](const QString& error, const LessonHandoutFiles& files) {
        Q_EMIT message(error.isEmpty() ? doneSentence(files) : error);
        refresh();
    });
    refresh();
}

void LessonHandoutActions::refresh()
{
    export_->setEnabled(lessons_->lesson() && !handout_->busy());
}

void LessonHandoutActions::askFolder()
{
    if (!lessons_->lesson())
        return;
    const QString folder = QFileDialog::getExistingDirectory(window_, tr("Export the Lesson's Handout into a Folder"));
    if (folder.isEmpty())
        return;
    QString error;
    if (!handout_->start(lessons_->lesson()->id, folder, &error))
        Q_EMIT message(error);
    refresh();
}

void LessonHandoutActions::exportFromCommandLine(const QString& lessonId, const QString& folder)
{
    connect(handout_, &LessonHandout::finished, this, [](const QString& error, const LessonHandoutFiles& files) {
        if (!error.isEmpty()) {
            std::fprintf(stderr, "attention-lab: %s\n", qPrintable(error));
            std::exit(1); // at once: a --screenshot waiting on the same moment must not exit 0 after it
        }
        std::printf("%s\n", qPrintable(doneSentence(files)));
        std::fflush(stdout);
        QApplication::exit(0);
    });
    session_->whenSettled(this, [this, lessonId, folder] {
        QString error = tr("--export-handout needs the lesson: add --guide LESSON (one of %1).")
                            .arg(lessonIds().join(QStringLiteral(", ")));
        if (lessonId.isEmpty() || !handout_->start(lessonId, folder, &error)) {
            std::fprintf(stderr, "attention-lab: %s\n", qPrintable(error));
            std::exit(1);
        }
    });
}

} // namespace attnlab::ui
