#pragma once
// Heads that differ, measured: for one trained variant of a sweep (chosen by num_heads and seed), every
// head of every layer with its shares of attention on held-out sequences, the role core's rule gives it
// and the held-out loss and accuracy with that head zeroed, so a student sees which heads the model
// relies on. The numbers are core's head_report, kept with the sweep's results.
#include "features/tradeoffs/sweep_results.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace attnlab::ui {

class SweepHeadsTable : public QWidget {
    Q_OBJECT
public:
    explicit SweepHeadsTable(QWidget* parent = nullptr);
    void setResults(const SweepResults& results);
    QComboBox* variant() const { return variant_; }
    QTableWidget* table() const { return table_; }
    QPushButton* studyButton() const { return study_; }
    QPushButton* saveButton() const { return save_; }
    int shownRun() const;       // the index in results().runs of the variant shown, -1 when none
    void showRun(int runIndex); // picks that variant when it has heads measured; otherwise nothing changes

Q_SIGNALS:
    // The shown variant as the model under study in every tab, or saved as a file.
    void studyRequested(int runIndex);
    void saveRequested(int runIndex);

private:
    void showVariant();

    SweepResults results_;
    QComboBox* variant_;
    QPushButton *study_, *save_;
    QTableWidget* table_;
    QLabel *intact_, *rule_;
};

} // namespace attnlab::ui
