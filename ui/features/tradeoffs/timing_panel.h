#pragma once
// Forward time per valid num_heads for the session's d_out, measured on this machine by the engine
// (the Session's TimingsJob) on request: the multiply-adds are the same for every head count, the time
// is not, and each number says how it was obtained. The panel only shows what the job delivered.
#include <QWidget>

class QLabel;
class QPushButton;

namespace attnlab::ui {

class TradeoffsState;

class TimingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingPanel(TradeoffsState* state, QWidget* parent = nullptr);

private:
    void show();

    TradeoffsState* state_;
    QPushButton* button_;
    QLabel* result_;
};

} // namespace attnlab::ui
