#pragma once
// Lessons > Export Handout for This Lesson… and `attention-lab --guide LESSON --export-handout FOLDER`: the
// window's ways into LessonHandout (a folder asked for, progress and the outcome said in the status bar, or on
// standard error and in the exit code when run from the command line).
#include <QObject>
#include <QString>

class QAction;

namespace attnlab::ui {

class LessonHandout;
class LessonsPanel;
class MainWindow;
class Session;

class LessonHandoutActions : public QObject {
    Q_OBJECT
public:
    LessonHandoutActions(MainWindow* window, LessonsPanel* lessons, Session* session, QObject* parent = nullptr);

    QAction* exportAction() const { return export_; } // enabled while a lesson is in the panel and none is written
    LessonHandout* handout() const { return handout_; }
    // Once the start-up state is computed: the lesson's handout written into `folder`, then the app exits (0, or
    // 1 with the sentence on standard error).
    void exportFromCommandLine(const QString& lessonId, const QString& folder);

Q_SIGNALS:
    void message(const QString& sentence);

private:
    void askFolder();
    void refresh();

    MainWindow* window_;
    LessonsPanel* lessons_;
    Session* session_;
    LessonHandout* handout_;
    QAction* export_;
};

} // namespace attnlab::ui
