#pragma once
// One heatmap on screen: hover reports the cell (query, key, exact value) for the page to word; a click
// selects the head (the small multiples use that). From the keyboard, the arrows move a highlighted
// cell that the readout follows as it follows the mouse, and Enter/Space act as the click; screen
// readers read the matrix as a table (widgets/heatmap_accessible.h).
#include "render/heatmap_painter.h"

#include <QWidget>

#include <optional>

namespace attnlab::ui {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setHeatmap(HeatmapPainter painter);
    const HeatmapPainter& heatmap() const { return painter_; }
    QSize imageSize(const HeatmapPainter& painter) const; // the matrix's pixels at this widget's size
    QString describe(const HeatmapHit& hit) const { return describeHeatmapCell(hit); } // the tooltip's words
    const HeatmapLayout& layout() const { return layout_; } // as last painted, in widget coordinates

    // The keyboard's cell (query row, key column), and what the table interface reads.
    int currentRow() const { return row_; }
    int currentColumn() const { return col_; }
    void setCurrentCell(int row, int col); // clamped to the matrix; updates the readout like a hover
    void showCell(int row, int col);       // the same cell moved elsewhere (the Session's): drawn, not announced
    std::optional<HeatmapHit> cellAt(int row, int col) const { return painter_.cell(row, col); }
    std::optional<HeatmapHit> cellUnder(const QPointF& pos) const; // widget coordinates
    QRect cellRect(int row, int col) const;                        // in widget coordinates, at least a few pixels wide
    QString tokenLabel(int index) const;                           // the token as the axes label it, or its index

Q_SIGNALS:
    void clicked();
    void hovered(const attnlab::ui::HeatmapHit& cell); // under the mouse, or the keyboard's cell
    void currentCellChanged(int row, int col);         // the keyboard moved the cell

protected:
    bool event(QEvent* event) override; // claims its navigation keys before the window's stage keys
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    QRectF paintRect() const { return QRectF(rect()).adjusted(4, 4, -4, -4); }
    void relayout();
    void paintCurrentCell(QPainter& p) const;

    HeatmapPainter painter_;
    HeatmapLayout layout_; // of painter_ at this size and font
    int row_ = 0;
    int col_ = 0;
};

} // namespace attnlab::ui
