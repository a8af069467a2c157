#include "widgets/code_font.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

class FollowsTypeSize : public QObject {
public:
    FollowsTypeSize(QWidget* widget, double relative) : QObject(widget), widget_(widget), relative_(relative)
    {
        // Qt tells the application, not widgets with a font of their own, that the application font changed.
        qApp->installEventFilter(this);
        widget->setFont(codeFont(relative));
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == qApp && event->type() == QEvent::ApplicationFontChange)
            widget_->setFont(codeFont(relative_));
        return false;
    }

private:
    QWidget* widget_;
    double relative_;
};

} // namespace

QFont codeFont(double relative)
{
    QFont f(QStringLiteral("DejaVu Sans Mono"));
    const int base = std::max(QApplication::font().pixelSize(), 9);
    f.setPixelSize(std::max(9, static_cast<int>(std::lround(base * relative))));
    return f;
}

void useCodeFont(QWidget* widget, double relative)
{
    new FollowsTypeSize(widget, relative);
}

} // namespace attnlab::ui
