#include "shell/presenter_actions.h"

#include "shell/presentation.h"
#include "shell/presenter_view.h"

#include <QAction>
#include <QGuiApplication>
#include <QMainWindow>
#include <QScreen>
#include <QWindow>

namespace attnlab::ui {

PresenterScreens presenterScreens(const QList<QScreen*>& screens, QScreen* primary, QScreen* app)
{
    if (screens.size() < 2 || !primary)
        return {app ? app : primary, app ? app : primary};
    if (app && app != primary)
        return {primary, app};
    for (QScreen* s : screens)
        if (s != primary)
            return {primary, s};
    return {primary, primary};
}

PresenterActions::PresenterActions(QMainWindow* window, LessonsPanel* lessons, PollState* poll,
                                   PresentationMode* presentation, QObject* parent)
    : QObject(parent), window_(window), lessons_(lessons), poll_(poll), presentation_(presentation),
      toggle_(new QAction(tr("P&resenter View"), this))
{
    toggle_->setCheckable(true);
    toggle_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_F5));
    toggle_->setToolTip(tr("A window for the teacher's screen: the lesson step, the next one, the class's answers "
                           "before the room sees them, and a clock; with a projector, the app goes to it."));
    connect(toggle_, &QAction::toggled, this, &PresenterActions::setOpen);
}

PresenterView* PresenterActions::view() const
{
    return view_;
}

void PresenterActions::setOpen(bool open)
{
    if (open == static_cast<bool>(view_))
        return;
    if (!open) {
        view_->close(); // deleted on close; destroyed() unchecks the action
        return;
    }
    view_ = new PresenterView(lessons_, poll_, window_);
    view_->setAttribute(Qt::WA_DeleteOnClose);
    connect(view_, &QObject::destroyed, this, [this] {
        const QSignalBlocker block(toggle_);
        toggle_->setChecked(false);
    });
    const PresenterScreens at =
        presenterScreens(QGuiApplication::screens(), QGuiApplication::primaryScreen(), window_->screen());
    if (at.presenter && at.projector && at.presenter != at.projector) {
        // The app to the projector, full screen there; the view on the teacher's screen, filling it.
        presentation_->setPresenting(false); // leave full screen where it is before moving
        window_->move(at.projector->geometry().topLeft());
        if (QWindow* handle = window_->windowHandle())
            handle->setScreen(at.projector);
        presentation_->setPresenting(true);
        view_->setGeometry(at.presenter->availableGeometry());
        view_->show();
        if (QWindow* handle = view_->windowHandle())
            handle->setScreen(at.presenter);
        view_->showMaximized();
    } else {
        view_->show();
    }
    // The app keeps the keyboard: a clicker's PageDown / PageUp go on stepping the projected stages.
    window_->raise();
    window_->activateWindow();
    const QSignalBlocker block(toggle_);
    toggle_->setChecked(true);
}

} // namespace attnlab::ui
