#include "shell/screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace attnlab::ui {

namespace {

QMargins frameOf(const QWidget* window)
{
    // Before the first show the window manager has not said how thick its frame is; keepOnScreen,
    // called once the window is up, takes the real frame into account.
    if (!window->isVisible())
        return {};
    const QRect outer = window->frameGeometry(), inner = window->geometry();
    return {inner.left() - outer.left(), inner.top() - outer.top(), outer.right() - inner.right(),
            outer.bottom() - inner.bottom()};
}

QScreen* screenOf(const QWidget* window)
{
    if (QScreen* s = window->screen())
        return s;
    return QGuiApplication::primaryScreen();
}

} // namespace

QRect fittedWindowGeometry(QSize preferred, const QRect& available, const QMargins& frame)
{
    const QRect room = available.marginsRemoved(frame);
    const QSize size = preferred.boundedTo(room.size()).expandedTo(QSize(1, 1));
    QRect r(QPoint(0, 0), size);
    r.moveCenter(room.center());
    return r;
}

QRect keptWithin(const QRect& geometry, const QRect& available, const QMargins& frame)
{
    const QRect room = available.marginsRemoved(frame);
    QRect r(geometry.topLeft(), geometry.size().boundedTo(room.size()).expandedTo(QSize(1, 1)));
    r.moveLeft(std::clamp(r.left(), room.left(), room.right() - r.width() + 1));
    r.moveTop(std::clamp(r.top(), room.top(), room.bottom() - r.height() + 1));
    return r;
}

void fitToScreen(QWidget* window, QSize preferred)
{
    if (QScreen* screen = screenOf(window))
        window->setGeometry(fittedWindowGeometry(preferred, screen->availableGeometry(), frameOf(window)));
    else
        window->resize(preferred);
}

void keepOnScreen(QWidget* window)
{
    if (QScreen* screen = screenOf(window)) {
        const QRect kept = keptWithin(window->geometry(), screen->availableGeometry(), frameOf(window));
        if (kept != window->geometry())
            window->setGeometry(kept);
    }
}

} // namespace attnlab::ui
