#include "shell/keyboard_focus.h"

#include <QAbstractButton>
#include <QApplication>
#include <QButtonGroup>
#include <QComboBox>
#include <QKeyEvent>
#include <QShortcut>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>

namespace attnlab::ui {

namespace {

// Keys `focused` acts on itself, that the window binds to stepping through the stages.
bool ownsKey(const QWidget* focused, int key)
{
    const bool activate = key == Qt::Key_Space || key == Qt::Key_Return || key == Qt::Key_Enter;
    const bool sideways = key == Qt::Key_Left || key == Qt::Key_Right;
    const bool arrows = sideways || key == Qt::Key_Up || key == Qt::Key_Down;
    if (auto* button = qobject_cast<const QAbstractButton*>(focused)) {
        // Tab stops at the chosen button of an exclusive group; the arrows choose among them.
        const bool exclusive = (button->group() && button->group()->exclusive()) || button->autoExclusive();
        return activate || (exclusive && arrows);
    }
    if (qobject_cast<const QComboBox*>(focused))
        return activate;
    if (qobject_cast<const QTabBar*>(focused))
        return sideways || activate;
    if (qobject_cast<const QTableView*>(focused))
        return sideways || key == Qt::Key_Space;
    return false;
}

} // namespace

KeyboardFocus::KeyboardFocus(QWidget* window, QTabWidget* tabs) : QObject(window), window_(window), tabs_(tabs)
{
    // Ctrl+Tab stays with the innermost tab widget the focus is in (the Debugging tab has its own);
    // Ctrl+PageDown/PageUp always move between the main tabs.
    auto* next = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown), window_);
    auto* previous = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp), window_);
    connect(next, &QShortcut::activated, this, [this] { stepTab(1); });
    connect(previous, &QShortcut::activated, this, [this] { stepTab(-1); });
    qApp->installEventFilter(this);
}

void KeyboardFocus::stepTab(int delta)
{
    const int n = tabs_->count();
    if (n > 0)
        tabs_->setCurrentIndex((tabs_->currentIndex() + delta + n) % n);
}

bool KeyboardFocus::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ShortcutOverride && watched == QApplication::focusWidget()) {
        auto* key = static_cast<QKeyEvent*>(event);
        auto* focused = static_cast<QWidget*>(watched);
        if (focused->window() == window_ && (key->modifiers() & ~Qt::KeypadModifier) == 0 &&
            ownsKey(focused, key->key())) {
            event->accept(); // delivered as a key press to the focused control, not to a shortcut
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace attnlab::ui
