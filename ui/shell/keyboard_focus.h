#pragma once
// Keyboard alone, across the window: the main tabs switch with Ctrl+PageDown / Ctrl+PageUp wherever
// the focus is, and a focused control keeps the keys it acts on (Space on a button or a combo box,
// the arrows on the tab bar, in tables and among exclusive buttons) instead of losing them to the window-wide stage
// keys.
#include <QObject>

class QTabWidget;
class QWidget;

namespace attnlab::ui {

class KeyboardFocus : public QObject {
    Q_OBJECT
public:
    KeyboardFocus(QWidget* window, QTabWidget* tabs); // owned by window

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void stepTab(int delta);

    QWidget* window_;
    QTabWidget* tabs_;
};

} // namespace attnlab::ui
