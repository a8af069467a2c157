#include "widgets/lesson_target.h"

#include <QPointer>
#include <QWidget>

#include <algorithm>
#include <vector>

namespace {

std::vector<QPointer<QWidget>>& index()
{
    static std::vector<QPointer<QWidget>> targets; // in the order they were named; GUI thread only
    return targets;
}

} // namespace

void nameTarget(QWidget* widget, const QString& name)
{
    widget->setObjectName(name);
    auto& targets = index();
    // Pages rebuild their widgets (a heatmap per head, a field per axis): drop the deleted ones now and
    // then so the index stays the size of what is on screen.
    if (targets.size() >= 64 && targets.size() % 64 == 0)
        std::erase_if(targets, [](const QPointer<QWidget>& w) { return w.isNull(); });
    if (std::find(targets.begin(), targets.end(), widget) == targets.end())
        targets.emplace_back(widget);
}

QWidget* lessonTarget(const QWidget* within, const QString& name, bool shownOnly)
{
    if (!within)
        return nullptr;
    const bool prefix = name.endsWith(QLatin1Char('*'));
    const QString stem = prefix ? name.chopped(1) : name;
    for (const QPointer<QWidget>& w : index()) {
        if (w.isNull())
            continue;
        const QString own = w->objectName();
        if (!(prefix ? own.startsWith(stem) : own == stem))
            continue;
        if ((w == within || within->isAncestorOf(w)) && (!shownOnly || w->isVisible()))
            return w;
    }
    return nullptr;
}
