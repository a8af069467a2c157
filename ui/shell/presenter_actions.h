#pragma once
// View > Presenter View (Alt+F5, as presentation software has it): the teacher's own window (presenter_view.h).
// With two screens or more it goes to the primary screen -- the laptop's, as presentation software takes it --
// and the app to another screen, full screen in presentation mode, so the projector shows the stage alone; with
// one screen the view opens over the app and nothing moves.
#include <QList>
#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QScreen;

namespace attnlab::ui {

class LessonsPanel;
class PollState;
class PresentationMode;
class PresenterView;

// Where each window goes. presenter and projector are the same screen when there is one.
struct PresenterScreens {
    QScreen* presenter = nullptr;
    QScreen* projector = nullptr;
};
// `app`: the screen the app is on now; when that is not the primary one it stays the projector.
PresenterScreens presenterScreens(const QList<QScreen*>& screens, QScreen* primary, QScreen* app);

class PresenterActions : public QObject {
    Q_OBJECT
public:
    PresenterActions(QMainWindow* window, LessonsPanel* lessons, PollState* poll, PresentationMode* presentation,
                     QObject* parent = nullptr);
    QAction* toggleAction() const { return toggle_; }
    PresenterView* view() const; // null while closed
    void setOpen(bool open);

private:
    QMainWindow* window_;
    LessonsPanel* lessons_;
    PollState* poll_;
    PresentationMode* presentation_;
    QAction* toggle_;
    QPointer<PresenterView> view_;
};

} // namespace attnlab::ui
