#include "widgets/themed.h"

#include <QApplication>
#include <QEvent>
#include <QMetaObject>
#include <QWidget>

namespace attnlab::ui {

namespace {

class PaletteFollower : public QObject {
public:
    PaletteFollower(QWidget* widget, std::function<void()> refresh) : QObject(widget), refresh_(std::move(refresh))
    {
        widget->installEventFilter(this);
    }

    bool eventFilter(QObject*, QEvent* event) override
    {
        // Queued: the event reaches this filter before the widget (and its children) take the new palette,
        // so the refresh runs once the change has gone through the whole tree. A refresh that sets a style
        // sheet sends palette changes of its own; those are ignored.
        const bool change = event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange;
        if (change && !busy_ && !pending_) {
            pending_ = true;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    pending_ = false;
                    busy_ = true;
                    refresh_();
                    busy_ = false;
                },
                Qt::QueuedConnection);
        }
        return false;
    }

private:
    std::function<void()> refresh_;
    bool busy_ = false;
    bool pending_ = false;
};

} // namespace

RenderStyle styleFor(const QWidget* widget)
{
    const QWidget* surface = widget && widget->parentWidget() ? widget->parentWidget() : widget;
    return RenderStyle::fromPalette(surface ? surface->palette() : QApplication::palette());
}

QString cssColor(const QColor& color)
{
    return color.name(QColor::HexRgb);
}

void followPalette(QWidget* widget, std::function<void()> refresh)
{
    new PaletteFollower(widget, std::move(refresh));
}

} // namespace attnlab::ui
