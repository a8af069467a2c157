#pragma once
// Every head's attention matrix as small multiples, and the selected head large with token labels,
// legend and hover. Scores, masked scores, weights and dropout are one click apart, all read from
// the trace (the masked scores tell which zero weights were masked).
#include "forward/stage_facts.h"
#include "render/heatmap_painter.h"

#include <QWidget>

#include <memory>
#include <vector>

class QBoxLayout;
class QButtonGroup;
class QComboBox;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace attnlab {
struct Trace;
}

namespace attnlab::ui {

class HeatmapWidget;
class RefreshWhenShown;
class HeatmapsState;

class HeatmapsView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapsView(HeatmapsState* state, QWidget* parent = nullptr);
    HeatmapWidget* selectedHeatmap() const { return large_; }
    const std::vector<HeatmapWidget*>& smallMultiples() const { return small_; }
    QComboBox* scaleChoice() const { return scaleChoice_; } // HeatmapScaleMode as item data; the Session's choice

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void placeSmallMultiples(const HeatmapPainter* sample = nullptr); // a head's painter, for its title and footer
    void rebuild();                                                   // new trace, kind or batch: new slices, new scale
    HeatmapPainter largePainter(AttentionMatrix kind, const ColorScale& scale) const; // the selected head
    void showPainters(std::vector<HeatmapPainter> painters, HeatmapPainter large);    // new pictures, all at once
    void showSessionCell();             // every head's keyboard cell where the Session says
    void updateSelection(bool newHead); // the frames; newHead: the large view shows session's head

    HeatmapsState* state_;
    QButtonGroup* kinds_;
    QSpinBox* batch_;
    QComboBox* scaleChoice_;
    QLabel* hover_;
    QLabel* heading_;
    QWidget* grid_;
    QBoxLayout* body_; // the heads beside the selected one, or above it where the page is narrow
    QGridLayout* gridLayout_;
    std::vector<HeatmapWidget*> small_;
    HeatmapWidget* large_;
    std::vector<HeatmapPainter> waiting_; // big matrices: these painters wait for the Session's pictures
    RefreshWhenShown* refresh_;           // hidden behind another tab, rebuilt when shown
    std::shared_ptr<const Trace> shownTrace_;
    int shownKind_ = -1;
    int shownBatch_ = -1;
    int shownScale_ = -1;
    int columns_ = 0;
};

} // namespace attnlab::ui
