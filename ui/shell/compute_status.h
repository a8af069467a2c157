#pragma once
// The status bar's account of the computation: what the trace on screen is, and -- once the forward
// pass has been running for a moment -- "Computing…" with a Cancel button. After a cancel it says
// the result shown is the previous one, and the button becomes Compute, which runs the settings again.
// A short computation never flashes the indicator: it appears only after kShowAfterMs. The widget is
// the indicator; the sentence is a label of its own (statusLabel()), so the window can put the
// indicator where status-bar messages never hide it.
#include "widgets/elided_label.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace attnlab::ui {

class Session;

class ComputeStatus : public QWidget {
    Q_OBJECT
public:
    static constexpr int kShowAfterMs = 300;

    explicit ComputeStatus(Session* session, QWidget* parent = nullptr);
    bool indicatorShown() const;                          // "Computing…" with Cancel is up
    QPushButton* actionButton() const { return action_; } // Cancel while computing, Compute after a cancel
    QLabel* statusLabel() const { return status_; }       // the sentence about the trace on screen
    QString text() const;

private:
    void refresh();

    Session* session_;
    QTimer* showDelay_;
    QProgressBar* progress_;
    QLabel* computing_;
    QPushButton* action_;
    ElidedLabel* status_;
    bool indicatorDue_ = false; // busy for longer than kShowAfterMs
};

} // namespace attnlab::ui
