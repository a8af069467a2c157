#pragma once
// The trade-offs of num_heads as a trained model shows them: for the GPTs trained on The Verdict with
// 1, 2, 4 and 8 heads, the held-out loss each reached (with its spread over training seeds, from the
// files' metadata) and their heads side by side on the same text and layer.
#include <QWidget>

#include <string>
#include <vector>

class QGridLayout;
class QLabel;

namespace attnlab::ui {

class HeatmapWidget;
class TradeoffsState;

class TrainedVariantsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrainedVariantsPanel(TradeoffsState* state, QWidget* parent = nullptr);
    const QLabel* lossTable() const { return losses_; }
    int heatmapCount() const { return static_cast<int>(heatmaps_.size()); }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();

    TradeoffsState* state_;
    QLabel* losses_;
    QLabel* caption_;
    QGridLayout* grid_;
    std::vector<QWidget*> rowWidgets_;
    std::vector<HeatmapWidget*> heatmaps_;
    std::string shownKey_; // text and layer of the heads shown, to redraw only when they change
};

} // namespace attnlab::ui
