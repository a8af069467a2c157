#pragma once
// Forward time per valid num_heads for the session's d_out, measured on this machine by the engine
// (core/designs/measured_tradeoffs.h) on a worker thread, on request: the multiply-adds are the same
// for every head count, the time is not, and each number says how it was obtained.
#include "designs/measured_tradeoffs.h"

#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;

namespace attnlab::ui {

class LatestWorker;
class Session;

class TimingPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingPanel(Session* session, QWidget* parent = nullptr);
    void measure(); // the button: times the current d_out and tokens
    const std::vector<HeadTiming>& timings() const { return timings_; }
    bool busy() const;

Q_SIGNALS:
    void measured();

private:
    void show(const TimingQuery& q, std::vector<HeadTiming> timings, const QString& error);

    Session* session_;
    LatestWorker* worker_;
    QPushButton* button_;
    QLabel* result_;
    std::vector<HeadTiming> timings_;
};

} // namespace attnlab::ui
