#pragma once
// Over a page that draws the trace: while the settings cannot give a new one, the page dims what it
// draws and this line says whose trace it is ("last valid trace: MultiHeadAttention(768, 768, 1024,
// 0.0, 12)"), so an old green check is never read as the typed call's. Hidden otherwise. The page tells
// it what to say (show()); it knows nothing of where that comes from.
#include <QLabel>

#include <vector>

namespace attnlab::ui {

class StaleTraceBanner : public QLabel {
    Q_OBJECT
public:
    enum class Why { CallDoesNotBind, Cancelled, SettingsHaveErrors };
    struct Staleness {
        bool stale = false;
        QString call; // the call the shown trace is of
        Why why = Why::SettingsHaveErrors;
        bool operator==(const Staleness&) const = default;
    };
    // `dimmed`: the widgets that draw the trace, faded while it is stale.
    explicit StaleTraceBanner(std::vector<QWidget*> dimmed, QWidget* parent = nullptr);
    void show(const Staleness& staleness);

private:
    void refresh();

    Staleness shown_;
    std::vector<QWidget*> dimmed_;
};

} // namespace attnlab::ui
