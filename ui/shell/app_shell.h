#pragma once
// What makes the main window a desktop app: the File / Edit / View / Lessons menus, undo history,
// session files and recent files, exports, presentation mode and themes, the lessons dock, and the
// state and geometry kept between runs (QSettings). gui_main.cpp calls the three hooks below; the
// window itself knows nothing of them.
#include <QObject>
#include <QPointer>
#include <QString>

class QCommandLineParser;
class QDockWidget;

namespace attnlab::ui {

class CompareActions;
class DiagramRoom;
class UserGuide;
class ExportActions;
class FileActions;
class LessonHandoutActions;
class LessonsPanel;
class MainWindow;
class PollActions;
class PresenterActions;
class PresentationMode;
class Session;
class SettingsHistory;
class WeightsActions;

// Before QApplication: --help and --version need no display, so they run on the offscreen platform
// (a terminal without X or Wayland still gets the option list).
void useOffscreenForHelp(int argc, char** argv);
// --open, --save-session, --presentation, --guide, --guide-step.
void addShellOptions(QCommandLineParser& parser);
// Before the window exists: --open FILE replaces the state; with no option naming a state, the last
// state of the previous run comes back. Returns one sentence when the file is refused, else empty.
QString applyStartupState(const QCommandLineParser& parser, Session& session);

class AppShell : public QObject {
    Q_OBJECT
public:
    // Create it after every other handler of the session's changes is connected: --save-session
    // writes the state once the trace and the head those handlers select are in.
    AppShell(MainWindow* window, Session* session, const QCommandLineParser& parser, QObject* parent = nullptr);

    SettingsHistory* history() const { return history_; }
    FileActions* files() const { return files_; }
    WeightsActions* weights() const { return weights_; }
    CompareActions* compare() const { return compare_; }
    ExportActions* exports() const { return exports_; }
    PresentationMode* presentation() const { return presentation_; }
    LessonsPanel* lessonsPanel() const { return lessons_; }
    QDockWidget* lessonsDock() const { return dock_; }
    PollActions* poll() const { return poll_; } // Ask the Class (features/poll/)
    PresenterActions* presenter() const { return presenter_; }
    LessonHandoutActions* handouts() const { return handouts_; } // Lessons > Export Handout…

    static void rememberState(const MainWindow& window, const Session& session, bool geometry);

private:
    void buildMenus();
    void saveSessionWhenComputed(const QString& path, bool exitAfter);

    MainWindow* window_;
    Session* session_;
    SettingsHistory* history_;
    FileActions* files_;
    WeightsActions* weights_;
    CompareActions* compare_;
    ExportActions* exports_;
    PresentationMode* presentation_;
    LessonsPanel* lessons_;
    QDockWidget* dock_;
    PollActions* poll_;
    PresenterActions* presenter_;
    LessonHandoutActions* handouts_;
    DiagramRoom* room_;
    QPointer<UserGuide> guide_;
};

} // namespace attnlab::ui
