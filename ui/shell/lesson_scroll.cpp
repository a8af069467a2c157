#include "shell/lesson_scroll.h"

#include "shell/lessons.h"

#include <QCoreApplication>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <vector>

namespace attnlab::ui {

namespace {

// Every scroll area `w` is inside, the innermost first: a page's own area may be cut off by the one the
// tab sits in, and then only scrolling the outer one brings the target into view.
std::vector<QScrollArea*> enclosingAreas(QWidget* w)
{
    std::vector<QScrollArea*> out;
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p); area && area->widget() && area->widget()->isAncestorOf(w))
            out.push_back(area);
    return out;
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
    // Layouts still pending (a page just shown, a progress bar that appeared) would move the targets after
    // they were measured: settle them first.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    std::vector<QWidget*> targets;
    std::vector<QScrollArea*> order; // innermost first, each once
    for (const LessonTarget& t : step.targets) {
        if (t.kind != LessonTarget::Kind::Widget && t.kind != LessonTarget::Kind::Cells)
            continue;
        if (QWidget* w = shownLessonTarget(window, t.name)) {
            targets.push_back(w);
            for (QScrollArea* a : enclosingAreas(w))
                if (std::find(order.begin(), order.end(), a) == order.end())
                    order.push_back(a);
        }
    }
    constexpr int margin = 8;
    // An inner area first, then the ones around it: each span is measured after the scrolls inside it.
    for (QScrollArea* area : order) {
        QRect span;
        for (QWidget* w : targets)
            if (area->widget()->isAncestorOf(w)) {
                const QRect r(w->mapTo(area->widget(), QPoint(0, 0)), w->size());
                span = span.isNull() ? r : span.united(r);
            }
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
