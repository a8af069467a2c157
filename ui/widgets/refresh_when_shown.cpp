#include "widgets/refresh_when_shown.h"

#include <QEvent>
#include <QWidget>

namespace attnlab::ui {

RefreshWhenShown::RefreshWhenShown(QWidget* widget, std::function<void()> refresh)
    : QObject(widget), widget_(widget), refresh_(std::move(refresh))
{
    widget_->installEventFilter(this);
}

void RefreshWhenShown::request()
{
    if (widget_->isVisible() || !widget_->window()->isVisible()) {
        stale_ = false;
        refresh_();
    } else {
        stale_ = true;
    }
}

bool RefreshWhenShown::eventFilter(QObject* watched, QEvent* event)
{
    // Show comes before the widget's first paint, so the refreshed state is what gets painted.
    if (watched == widget_ && event->type() == QEvent::Show && stale_) {
        stale_ = false;
        refresh_();
    }
    return QObject::eventFilter(watched, event);
}

} // namespace attnlab::ui
