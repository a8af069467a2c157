#include "common/layout_checks.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QLabel>
#include <QScrollArea>
#include <QTabBar>

namespace testing {

QString describe(const QWidget* w)
{
    QString name = w->objectName().isEmpty() ? QString::fromLatin1(w->metaObject()->className()) : w->objectName();
    if (const auto* label = qobject_cast<const QLabel*>(w))
        name += QStringLiteral(" '%1'").arg(label->text().left(40));
    if (const auto* button = qobject_cast<const QAbstractButton*>(w))
        name += QStringLiteral(" '%1'").arg(button->text().left(40));
    return name;
}

QString clippedReason(QWidget* w, QWidget* window)
{
    for (QWidget* p = w->parentWidget(); p && p != window; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p)) {
            area->ensureWidgetVisible(w, 0, 0);
            if (area->widget() && area->widget()->isAncestorOf(w)) { // larger than the viewport: its start
                const QPoint at = w->mapTo(area->widget(), QPoint(0, 0));
                area->ensureVisible(at.x(), at.y(), 0, 0);
            }
        }
    QRect r(QPoint(0, 0), w->size()); // what is left of w to see, in the coordinates of `child`'s parent
    for (QWidget *child = w, *p = w->parentWidget(); p; child = p, p = p->parentWidget()) {
        r.translate(child->pos());
        auto* scrolling = p->parentWidget() ? qobject_cast<QAbstractScrollArea*>(p->parentWidget()) : nullptr;
        if (scrolling && !qobject_cast<QScrollArea*>(scrolling) && scrolling->viewport() == p)
            return {}; // a cell widget of an item view: the view scrolls to it
        const bool viewport = scrolling && scrolling->viewport() == p;
        const bool inside = viewport
                                ? p->rect().contains(r.topLeft()) &&
                                      (p->rect().contains(r) || r.width() >= p->width() || r.height() >= p->height())
                                : p->rect().contains(r);
        if (!inside)
            return QStringLiteral("%1 at (%2,%3) %4x%5 lies outside %6 (%7x%8)")
                .arg(describe(w))
                .arg(r.x())
                .arg(r.y())
                .arg(r.width())
                .arg(r.height())
                .arg(describe(p))
                .arg(p->width())
                .arg(p->height());
        if (viewport)
            r = r.intersected(p->rect()); // the rest is reached by scrolling
        if (p == window)
            break;
    }
    return {};
}

QString cutTextReason(QWidget* w)
{
    const auto* label = qobject_cast<QLabel*>(w);
    const auto* button = qobject_cast<QAbstractButton*>(w);
    if ((label && label->wordWrap()) || !(label || (button && !button->text().isEmpty()))) // arrows: no text
        return {};
    const int wanted = w->minimumSizeHint().width();
    if (wanted <= w->width())
        return {};
    return QStringLiteral("%1 needs %2 px for its text and has %3").arg(describe(w)).arg(wanted).arg(w->width());
}

QString overlapReason(QWidget* page)
{
    QList<QWidget*> shown;
    for (QWidget* w : page->findChildren<QWidget*>())
        if (w->isVisible() && !w->size().isEmpty() && !qobject_cast<QTabBar*>(w->parentWidget()) && // Qt's arrows
            (qobject_cast<QLabel*>(w) || qobject_cast<QAbstractButton*>(w) || qobject_cast<QAbstractSpinBox*>(w)))
            shown << w;
    for (int i = 0; i < shown.size(); ++i)
        for (int j = i + 1; j < shown.size(); ++j)
            if (shown[i]->parentWidget() == shown[j]->parentWidget() &&
                shown[i]->geometry().intersects(shown[j]->geometry()))
                return QStringLiteral("%1 and %2 overlap").arg(describe(shown[i]), describe(shown[j]));
    return {};
}

bool inViewOf(QScrollArea* area, const QList<QWidget*>& widgets)
{
    const QRect view = area->viewport()->rect();
    for (QWidget* w : widgets) {
        const QRect r(w->mapTo(area->viewport(), QPoint(0, 0)), w->size());
        const bool tall = r.height() > view.height();
        if (tall ? !view.contains(r.topLeft()) : !view.contains(r))
            return false;
    }
    return !widgets.isEmpty();
}

QList<QWidget*> shownWidgets(QWidget* page)
{
    QList<QWidget*> out;
    for (QWidget* w : page->findChildren<QWidget*>()) {
        if (!w->isVisible() || w->width() <= 0)
            continue;
        const auto* label = qobject_cast<QLabel*>(w);
        if ((label && !label->text().isEmpty()) || qobject_cast<QAbstractButton*>(w) ||
            w->objectName() == QLatin1String("shape-diagram"))
            out << w;
    }
    return out;
}

} // namespace testing
