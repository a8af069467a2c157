#pragma once
// Over a page that draws the trace: while the settings cannot give a new one, the page dims what it
// draws and this line says whose trace it is ("last valid trace: MultiHeadAttention(768, 768, 1024,
// 0.0, 12)"), so an old green check is never read as the typed call's. Hidden otherwise.
#include <QLabel>

#include <vector>

namespace attnlab::ui {

class Session;

class StaleTraceBanner : public QLabel {
    Q_OBJECT
public:
    // `dimmed`: the widgets that draw the trace, faded while it is stale.
    StaleTraceBanner(Session* session, std::vector<QWidget*> dimmed, QWidget* parent = nullptr);

private:
    void refresh();

    Session* session_;
    std::vector<QWidget*> dimmed_;
};

} // namespace attnlab::ui
