#pragma once
// The app's one window: settings and diagnostics on the left, the call line on top, and the two
// ways of looking at the trace (stage stepper, per-head heatmaps) as tabs.
#include <QMainWindow>

class QLabel;
class QShortcut;
class QTabWidget;

namespace attnlab::ui {

class CallLine;
class ComputeStatus;
class ConfigPanel;
class DebugView;
class DesignsView;
class DiagnosticsPanel;
class HeatmapsView;
class Session;
class StepperView;
class TradeoffsView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(Session* session, QWidget* parent = nullptr);
    CallLine* callLine() const { return callLine_; }
    ConfigPanel* configPanel() const { return config_; }
    DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
    StepperView* stepperView() const { return stepper_; }
    HeatmapsView* heatmapsView() const { return heatmaps_; }
    DebugView* debugView() const { return debug_; }
    DesignsView* designsView() const { return designs_; }
    TradeoffsView* tradeoffsView() const { return tradeoffs_; }
    QLabel* weightsLabel() const { return weights_; }
    ComputeStatus* computeStatus() const { return computeStatus_; }

protected:
    void keyPressEvent(QKeyEvent* event) override; // Esc that no widget wanted cancels a computation

private:
    void bindKeys();
    void enableStageKeys(); // only over the stepper and the heatmaps
    void refreshWeightsLabel();
    int tabOf(int viewMode) const; // each tab's page carries its ViewMode as property "viewMode"

    Session* session_;
    CallLine* callLine_;
    ConfigPanel* config_;
    DiagnosticsPanel* diagnostics_;
    StepperView* stepper_;
    HeatmapsView* heatmaps_;
    DebugView* debug_;
    DesignsView* designs_;
    TradeoffsView* tradeoffs_;
    QTabWidget* tabs_;
    ComputeStatus* computeStatus_;
    QLabel* weights_; // which weights are in use: seeded or a loaded file
    QList<QShortcut*> stageKeys_;
};

} // namespace attnlab::ui
