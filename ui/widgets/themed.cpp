#include "widgets/themed.h"

#include <QApplication>
#include <QEvent>
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
        // Re-entrancy guard: a refresh that sets a style sheet sends a palette change of its own.
        if (!busy_ && (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange)) {
            busy_ = true;
            refresh_();
            busy_ = false;
        }
        return false;
    }

private:
    std::function<void()> refresh_;
    bool busy_ = false;
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
