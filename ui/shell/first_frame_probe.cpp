#include "shell/first_frame_probe.h"

#include <QApplication>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <cstdio>

namespace attnlab::ui {

namespace {

// The first paint event of any widget of the window starts its first frame: Qt paints the whole window
// into the backing store and flushes it in that one pass, so a queued call runs once the frame is out.
class FirstFrameProbe : public QObject {
public:
    FirstFrameProbe(QWidget* window, QObject* parent) : QObject(parent), window_(window) {}

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (!seen_ && event->type() == QEvent::Paint && watched->isWidgetType() &&
            static_cast<QWidget*>(watched)->window() == window_) {
            seen_ = true;
            QTimer::singleShot(0, qApp, [] {
                std::fputs("first frame painted\n", stdout);
                std::fflush(stdout);
                QApplication::exit(0);
            });
        }
        return false;
    }

private:
    QWidget* window_;
    bool seen_ = false;
};

} // namespace

void exitAfterFirstFrameWhenAsked(QWidget* window)
{
    if (qEnvironmentVariableIsEmpty("ATTNLAB_EXIT_AFTER_FIRST_FRAME"))
        return;
    qApp->installEventFilter(new FirstFrameProbe(window, qApp));
}

} // namespace attnlab::ui
