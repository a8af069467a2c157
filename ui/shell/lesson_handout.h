#pragma once
// Lessons > Export Lesson Handout…: a guided lesson for a class away from the projector. Each step is entered as the
// dock enters it (what it needs built, a model trained if it needs one) and saved as a session file a student opens
// on their own laptop at that step; then it is set up as its Show me sets it up and asked as Ask the Class asks it
// (the lesson's own question, else the shown stage's). The questions go out as a GIFT quiz and a page to print,
// as File > Export's do. The teacher's state is put back afterwards, whatever happened.
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace attnlab::ui {

class LessonsPanel;
class Session;
struct SessionState;

// What a finished export wrote, for the sentence that reports it.
struct LessonHandoutFiles {
    QString folder;
    QStringList sessions; // one per step, in the lesson's order: "01-fill-slots.attnlab.json"
    QString gift, html;   // the quiz and the page: "<lesson>.gift", "<lesson>.html"
    int questions = 0;
};

class LessonHandout : public QObject {
    Q_OBJECT
public:
    LessonHandout(LessonsPanel* lessons, Session* session, QObject* parent = nullptr);
    ~LessonHandout() override;

    // Starts the walk, or says in *error (one sentence) why it cannot: no such lesson, a folder that cannot be
    // made, an export already running. The folder is made when missing; files of the same names are replaced.
    bool start(const QString& lessonId, const QString& folder, QString* error);
    bool busy() const { return walk_ != nullptr; }

Q_SIGNALS:
    void progress(const QString& sentence); // "Handout of …: step 2 of 5 …"
    // `error` empty: everything was written. Otherwise one sentence, and what was written before it stays.
    void finished(const QString& error, const LessonHandoutFiles& files);

private:
    struct Walk;
    void enterStep();
    void saveStep();
    void askStep();
    void finish(const QString& error);
    void afterSettled(void (LessonHandout::*next)());

    LessonsPanel* lessons_;
    Session* session_;
    std::unique_ptr<Walk> walk_;
};

} // namespace attnlab::ui

Q_DECLARE_METATYPE(attnlab::ui::LessonHandoutFiles)
