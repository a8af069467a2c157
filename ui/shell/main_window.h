#pragma once
// The app's one window: settings and diagnostics on the left, the call line on top, and the pages of the
// registry (features/registry.h) as tabs.
#include "features/registry.h"

#include <QMainWindow>

#include <vector>

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
class TextInputPanel;
class TradeoffsView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(Session* session, QWidget* parent = nullptr);
    CallLine* callLine() const { return callLine_; }
    ConfigPanel* configPanel() const { return config_; }
    DiagnosticsPanel* diagnosticsPanel() const { return diagnostics_; }
    TextInputPanel* textInputPanel() const { return textInput_; }
    QWidget* page(ViewMode view) const { return pages_[static_cast<std::size_t>(view)]; }
    template <class Page> Page* page(ViewMode view) const { return qobject_cast<Page*>(page(view)); }
    bool pagesBusy() const; // the Session's work some page shows (the registry's busy hooks) is still running
    StepperView* stepperView() const;
    HeatmapsView* heatmapsView() const;
    DebugView* debugView() const;
    DesignsView* designsView() const;
    TradeoffsView* tradeoffsView() const;
    QLabel* weightsLabel() const { return weights_; }
    ComputeStatus* computeStatus() const { return computeStatus_; }

protected:
    void keyPressEvent(QKeyEvent* event) override; // Esc that no widget wanted cancels a computation

private:
    void bindKeys();
    void enableStageKeys(); // only over the pages the registry says step stages
    void refreshWeightsLabel();

    Session* session_;
    CallLine* callLine_;
    ConfigPanel* config_;
    DiagnosticsPanel* diagnostics_;
    TextInputPanel* textInput_ = nullptr;
    std::vector<QWidget*> pages_; // by ViewMode, which is also the tab's index
    QTabWidget* tabs_;
    ComputeStatus* computeStatus_;
    QLabel* weights_; // which weights are in use: seeded or a loaded file
    QList<QShortcut*> stageKeys_;
};

} // namespace attnlab::ui
