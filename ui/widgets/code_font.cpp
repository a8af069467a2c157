#include "widgets/code_font.h"

#include "render/text_fit.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

class FollowsTypeSize : public QObject {
public:
    FollowsTypeSize(QWidget* widget, double relative, int floorPx)
        : QObject(widget), widget_(widget), relative_(relative), floorPx_(floorPx)
    {
        // Qt tells the application, not widgets with a font of their own, that the application font changed.
        qApp->installEventFilter(this);
        widget->setFont(codeFont(relative, floorPx));
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == qApp && event->type() == QEvent::ApplicationFontChange)
            widget_->setFont(codeFont(relative_, floorPx_));
        return false;
    }

private:
    QWidget* widget_;
    double relative_;
    int floorPx_;
};

} // namespace

QFont codeFont(double relative, int floorPx)
{
    QFont f(codeFamily());
    f.setStyleHint(QFont::Monospace);
    const int base = std::max(QApplication::font().pixelSize(), 9);
    f.setPixelSize(std::max({9, floorPx, static_cast<int>(std::lround(base * relative))}));
    return f;
}

void useCodeFont(QWidget* widget, double relative, int floorPx)
{
    new FollowsTypeSize(widget, relative, floorPx);
}

} // namespace attnlab::ui
