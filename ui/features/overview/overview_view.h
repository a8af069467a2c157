#pragma once
// Every layer's heads at once (bertviz's model view): a thumbnail of each head's attention on the text,
// layers as rows and heads as columns, each with what tells heads apart -- the previous-token, first-token
// and induction shares and the entropy. Ranked by a measure, heads below a threshold faded; "repeat the
// text" reads it twice so the induction heads show. A click opens that layer and head in the heatmaps.
// It serves every GPT the app runs whole: an opened checkpoint (File > Open Model…) and the Verdict GPTs; with
// none, it offers the shipped GPT trained here on the induction task, whose heads differ clearly.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;

namespace attnlab::ui {

class HeadGridWidget;
class RefreshWhenShown;
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

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void showProgress();

    OverviewState* state_;
    QLabel* heading_;
    QComboBox* sort_;
    QDoubleSpinBox* threshold_;
    QCheckBox* repeat_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QPushButton* openInduction_;
    QScrollArea* scroll_;
    HeadGridWidget* grid_;
    RefreshWhenShown* refresh_;
};

} // namespace attnlab::ui
