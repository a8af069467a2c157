#pragma once
// A constructor call read left to right: one chip per written value, the slot it fills above the
// value, positional values numbered in order. Slots a contract finding concerns are flagged in orange;
// a value that fills no slot in red.
#include <QWidget>

class QHBoxLayout;
class QLabel;

namespace attnlab {
struct ContractReport;
}

namespace attnlab::ui {

class SlotChips : public QWidget {
    Q_OBJECT
public:
    explicit SlotChips(QWidget* parent = nullptr);
    void setReport(const ContractReport& report);
    QList<QLabel*> chips() const;      // left to right; objectName "chip-<slot>" ("chip-none" for no slot)
    QString chipText(int index) const; // "d_in = 768", for tests and accessibility

private:
    QHBoxLayout* row_;
    QLabel* className_;
    QLabel* closing_;
};

} // namespace attnlab::ui
