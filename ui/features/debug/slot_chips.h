#pragma once
// A constructor call read left to right: one chip per written value, the slot it fills above the
// value, positional values numbered in order. Slots a contract finding concerns are flagged in orange;
// a value that fills no slot in red.
#include "lessons/contract.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace attnlab::ui {

class FlowLayout;

class SlotChips : public QWidget {
    Q_OBJECT
public:
    explicit SlotChips(QWidget* parent = nullptr);
    void setReport(const ContractReport& report);
    QList<QLabel*> chips() const;      // left to right; objectName "chip-<slot>" ("chip-none" for no slot)
    QString chipText(int index) const; // "d_in = 768", for tests and accessibility

protected:
    bool eventFilter(QObject* watched, QEvent* event) override; // the chips' type follows the application font

private:
    std::optional<ContractReport> report_; // what the chips show, laid out again when the type changes
    FlowLayout* row_;
    QLabel* className_;
    QLabel* closing_;
};

} // namespace attnlab::ui
