#include "shell/lesson_scroll.h"

#include "shell/lessons.h"

#include <QScrollArea>
#include <QScrollBar>

#include <map>

namespace attnlab::ui {

namespace {

QScrollArea* enclosingArea(QWidget* w)
{
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p); area && area->widget() && area->widget()->isAncestorOf(w))
            return area;
    return nullptr;
}

} // namespace

QWidget* shownLessonTarget(QWidget* window, const QString& name)
{
    const bool prefix = name.endsWith(QLatin1Char('*'));
    const QString stem = prefix ? name.chopped(1) : name;
    for (QWidget* w : window->findChildren<QWidget*>())
        if ((prefix ? w->objectName().startsWith(stem) : w->objectName() == stem) && w->isVisible())
            return w;
    return nullptr;
}

void scrollTargetsIntoView(QWidget* window, const LessonStep& step)
{
    std::map<QScrollArea*, QRect> spans; // in the area's content coordinates
    for (const LessonTarget& t : step.targets) {
        if (t.kind != LessonTarget::Kind::Widget && t.kind != LessonTarget::Kind::Cells)
            continue;
        QWidget* w = shownLessonTarget(window, t.name);
        QScrollArea* area = w ? enclosingArea(w) : nullptr;
        if (!area)
            continue;
        const QRect r(w->mapTo(area->widget(), QPoint(0, 0)), w->size());
        spans[area] = spans[area].isNull() ? r : spans[area].united(r);
    }
    constexpr int margin = 8;
    for (const auto& [area, span] : spans) {
        QScrollBar* bar = area->verticalScrollBar();
        const int port = area->viewport()->height();
        const int top = bar->value();
        int value = top;
        if (span.height() + 2 * margin > port || span.top() - margin < top)
            value = span.top() - margin;
        else if (span.bottom() + margin > top + port)
            value = span.bottom() + margin - port;
        bar->setValue(value); // the bar clamps to its range
    }
}

} // namespace attnlab::ui
