#pragma once
// Every layer's heads at once (bertviz's model view): a thumbnail of each head's attention on the text,
// layers as rows and heads as columns, each with what tells heads apart -- the previous-token, first-token
// and induction shares and the entropy. Ranked by a measure, heads below a threshold faded; "repeat the
// text" reads it twice so the induction heads show. A click opens that layer and head in the heatmaps.
// It serves every GPT the app runs whole: an opened checkpoint (File > Open Model…) and the Verdict GPTs; with
// none, it offers the shipped GPT trained here on the induction task, whose heads differ clearly.
#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;

namespace attnlab::ui {

class HeadGridWidget;
class HeatmapWidget;
class RefreshWhenShown;
struct LayerAttention;
class OverviewState;

class OverviewView : public QWidget {
    Q_OBJECT
public:
    enum class Measure { None, Previous, First, Induction, Entropy };

    explicit OverviewView(OverviewState* state, QWidget* parent = nullptr);
    HeadGridWidget* grid() const { return grid_; }
    QComboBox* sortChoice() const { return sort_; } // Measure as item data
    QDoubleSpinBox* threshold() const { return threshold_; }
    QCheckBox* repeatToggle() const { return repeat_; }
    QLabel* heading() const { return heading_; }
    QPushButton* openInduction() const { return openInduction_; } // shown while no GPT is under study
    // The grid's current head enlarged beside it, where the grid leaves room (hidden where it does not).
    HeatmapWidget* detail() const { return detail_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void showProgress();
    void showDetail(); // the grid's current head in detail_, from the last heads computed

    OverviewState* state_;
    QLabel* heading_;
    QComboBox* sort_;
    QDoubleSpinBox* threshold_;
    QCheckBox* repeat_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QPushButton* openInduction_;
    QWidget* body_; // the grid's scroll area and the detail beside it
    QScrollArea* scroll_;
    HeadGridWidget* grid_;
    HeatmapWidget* detail_;
    std::shared_ptr<const LayerAttention> shown_; // the heads the grid and the detail draw (their pixels' owner)
    std::vector<float> detailMask_;               // -inf above the diagonal: the causal mask the detail hatches
    RefreshWhenShown* refresh_;
};

} // namespace attnlab::ui
