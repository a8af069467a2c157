#pragma once
// Refreshes a widget from the session only while a student can see it. A page in a hidden tab
// rebuilt after every edit what nobody looks at (its table, its twelve heatmaps), and that work sat
// between the edit and the picture of the page in view. Hidden, a request only marks the widget
// stale; it is refreshed when shown, before its first paint, so it never shows an old trace.
// While the window itself is not shown yet (tests, start-up) requests refresh at once, as before.
#include <QObject>

#include <functional>

class QWidget;

namespace attnlab::ui {

class RefreshWhenShown : public QObject {
public:
    // Owned by `widget`; `refresh` is what the widget would have done at once.
    RefreshWhenShown(QWidget* widget, std::function<void()> refresh);
    void request();
    bool stale() const { return stale_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* widget_;
    std::function<void()> refresh_;
    bool stale_ = false;
};

} // namespace attnlab::ui
