#pragma once
// The accessibility tests' view of the window: each page (a main tab, or a section of a tab that has
// its own tabs) and the controls on it a user can operate, by mouse or keyboard.
#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QButtonGroup>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QMainWindow>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

#include <vector>

namespace testing {

struct PageStop {
    const char* name;
    int tab;     // the main tab
    int section; // the section in that tab's own tab widget, or -1
};

// Every page a student can look at: the five tabs, the Debugging tab's four sections, the
// trade-offs' two.
inline std::vector<PageStop> allPages()
{
    return {{"stepper", 0, -1},   {"heatmaps", 1, -1},         {"debug/contract", 2, 0},
            {"debug/bugs", 2, 1}, {"debug/transfer", 2, 2},    {"debug/your code", 2, 3},
            {"designs", 3, -1},   {"tradeoffs/counted", 4, 0}, {"tradeoffs/measured", 4, 1}};
}

// Shows `stop` in `window` (whose central widget holds the main QTabWidget first in findChildren order).
inline bool showPage(QMainWindow* window, const PageStop& stop)
{
    auto* tabs = window->centralWidget()->findChild<QTabWidget*>();
    if (!tabs || stop.tab >= tabs->count())
        return false;
    tabs->setCurrentIndex(stop.tab);
    if (stop.section >= 0) {
        auto* sections = tabs->widget(stop.tab)->findChild<QTabWidget*>();
        if (!sections || stop.section >= sections->count())
            return false;
        sections->setCurrentIndex(stop.section);
    }
    QApplication::processEvents();
    return true;
}

// Parts of a compound control that Qt operates through the control itself.
inline bool partOfAnotherControl(const QWidget* w)
{
    if (qobject_cast<const QScrollBar*>(w) || qobject_cast<const QHeaderView*>(w))
        return true;
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (qobject_cast<const QAbstractSpinBox*>(p) || qobject_cast<const QComboBox*>(p) ||
            qobject_cast<const QAbstractItemView*>(p) || qobject_cast<const QTabBar*>(p))
            return true;
    return false;
}

// What a user operates: anything that takes the keyboard focus, plus buttons, sliders, item views and
// text views even where they keep the focus elsewhere. Containers (scroll areas, tab widgets) are not
// controls; their contents and tab bars are.
inline bool isControl(const QWidget* w)
{
    if (partOfAnotherControl(w) || qobject_cast<const QTabWidget*>(w) || w->focusProxy())
        return false;
    if (w->inherits("QScrollArea"))
        return false;
    return (w->focusPolicy() & Qt::TabFocus) || qobject_cast<const QAbstractButton*>(w) ||
           qobject_cast<const QAbstractSlider*>(w) || qobject_cast<const QAbstractScrollArea*>(w) ||
           qobject_cast<const QTabBar*>(w);
}

// The controls on screen now, in `window` (hidden tabs excluded).
inline QList<QWidget*> visibleControls(QWidget* window)
{
    QList<QWidget*> out;
    for (QWidget* w : window->findChildren<QWidget*>())
        if (w->isVisible() && isControl(w))
            out << w;
    return out;
}

// Tab stops once in a group of exclusive buttons (at the checked one) and the arrows move within it,
// as with radio buttons: the group's members stand for each other.
inline bool sameExclusiveGroup(const QWidget* a, const QWidget* b)
{
    auto* x = qobject_cast<const QAbstractButton*>(a);
    auto* y = qobject_cast<const QAbstractButton*>(b);
    return x && y && x->group() && x->group() == y->group() && x->group()->exclusive();
}

inline QString nameOf(const QWidget* w)
{
    QString text;
    if (auto* b = qobject_cast<const QAbstractButton*>(w))
        text = b->text();
    return QStringLiteral("%1 '%2'%3")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
             text.isEmpty() ? QString() : QStringLiteral(" \"%1\"").arg(text));
}

} // namespace testing
