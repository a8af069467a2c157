#pragma once
// The tests' walk of the window: each page (a main tab, or a section of a tab that has its own tabs) and
// the controls on it a user can operate, by mouse or keyboard.
#include "common/session_parts.h"
#include "features/registry.h"
#include "shell/main_window.h"

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

#include <memory>
#include <utility>
#include <vector>

namespace testing {

struct PageStop {
    const char* name;           // "stepper", "debug/Weight transfer": the page's id, then its section's title
    attnlab::ui::ViewMode view; // the main tab
    int section;                // the section in that tab's own tab widget, or -1
};

// Every page a student can look at: each tab of the registry, and each section of a tab that has tabs of
// its own (the Debugging tab's lessons, the trade-offs' counted and measured), found by building the tabs.
inline const std::vector<PageStop>& allPages()
{
    static const std::vector<PageStop> stops = [] {
        static std::vector<QByteArray> names; // what the stops' names point to
        std::vector<std::pair<QByteArray, PageStop>> found;
        attnlab::ui::Session session;
        for (const attnlab::ui::FeatureInfo& info : attnlab::ui::featureRegistry()) {
            const std::unique_ptr<QWidget> page(info.createPage(session.feature(info.view())));
            const auto* sections = page->findChild<QTabWidget*>();
            if (!sections) {
                found.push_back({QByteArray(info.id), {nullptr, info.view(), -1}});
                continue;
            }
            for (int i = 0; i < sections->count(); ++i)
                found.push_back({QByteArray(info.id) + '/' + sections->tabText(i).toUtf8(), {nullptr, info.view(), i}});
        }
        names.reserve(found.size());
        std::vector<PageStop> out;
        for (auto& [name, stop] : found) {
            names.push_back(name);
            stop.name = names.back().constData();
            out.push_back(stop);
        }
        return out;
    }();
    return stops;
}

// Shows `stop` in `window`: its tab (a tab's index is its ViewMode), then its section.
inline bool showPage(attnlab::ui::MainWindow* window, const PageStop& stop)
{
    auto* tabs = window->centralWidget()->findChild<QTabWidget*>();
    const int tab = static_cast<int>(stop.view);
    if (!tabs || tab >= tabs->count())
        return false;
    tabs->setCurrentIndex(tab);
    if (stop.section >= 0) {
        auto* sections = window->page(stop.view)->findChild<QTabWidget*>();
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
