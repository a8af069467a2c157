#pragma once
// The trade-off explorer: for the session's d_out, tokens and batch, every valid num_heads as a chart
// and a table (one click applies it); and the other way round, the d_out values near the current one
// that the current num_heads divides (one click applies it). All numbers come from core/designs/tradeoffs.h.
#include <QWidget>

#include <vector>

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTabWidget;

namespace attnlab::ui {

class FlowLayout;

class TradeoffsState;
class SweepPanel;
class TradeoffChartWidget;
class TradeoffTable;
class TimingPanel;
class TrainedVariantsPanel;

class TradeoffsView : public QWidget {
    Q_OBJECT
public:
    explicit TradeoffsView(TradeoffsState* state, QWidget* parent = nullptr);
    TradeoffChartWidget* chart() const { return chart_; }
    TradeoffTable* table() const { return table_; }
    const std::vector<QPushButton*>& widthButtons() const { return widthButtons_; }
    TrainedVariantsPanel* trainedVariants() const { return trained_; }
    TimingPanel* timing() const { return timing_; }
    SweepPanel* sweep() const { return sweep_; }
    QTabWidget* sections() const { return sections_; } // follows Session::tradeoffsSection()

private:
    void refresh();
    void refreshWidths();

    TradeoffsState* state_;
    QLabel* heading_;
    TradeoffChartWidget* chart_;
    TradeoffTable* table_;
    QLabel* widthsLabel_;
    FlowLayout* widthsRow_;
    std::vector<QPushButton*> widthButtons_;
    TrainedVariantsPanel* trained_;
    TimingPanel* timing_;
    SweepPanel* sweep_;
    QTabWidget* sections_;
};

} // namespace attnlab::ui
