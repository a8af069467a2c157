#pragma once
// "Trained here": the book's GPT trained in the app for several num_heads at once, on a task where heads
// matter. The form says what to train, Train asks the Session's SweepJob, and the panel shows what the
// job delivers: progress and time left, the held-out curves live, the table and what it reads as.
// Bad settings are refused inline with core's sentence, before anything trains.
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace attnlab::ui {

class SweepHeadsTable;

class TradeoffsState;
class SweepCurvesWidget;
class SweepForm;
class SweepTable;

class SweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit SweepPanel(TradeoffsState* state, QWidget* parent = nullptr);
    SweepForm* form() const { return form_; }
    QPushButton* trainButton() const { return train_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* errorLabel() const { return error_; }
    QLabel* statusLabel() const { return status_; }
    SweepTable* table() const { return table_; }
    SweepCurvesWidget* curves() const { return curves_; }
    QLabel* reading() const { return reading_; }
    // How the table was measured, and how many of its models a saved session keeps.
    QLabel* how() const { return how_; }
    // Where each variant's heads, measured one by one, go: empty until a heads report fills it.
    QVBoxLayout* headsReport() const { return headsReport_; }
    SweepHeadsTable* headsTable() const { return headsTable_; }

private:
    void train();
    void saveRun(int run);
    void showError(const QString& why); // inline, under the buttons; hidden when empty
    void showRefusedModels();           // the session file's models that could not be read, each naming its run
    void showProgress();
    void showResults();
    void inkError();

    TradeoffsState* state_;
    SweepForm* form_;
    QPushButton *train_, *cancel_;
    QProgressBar* progress_;
    QLabel *status_, *error_, *how_, *reading_;
    SweepCurvesWidget* curves_;
    SweepTable* table_;
    QVBoxLayout* headsReport_;
    SweepHeadsTable* headsTable_;
    int finishedShown_ = -1; // finished runs in the table, to rebuild it only when one more finishes
};

} // namespace attnlab::ui
