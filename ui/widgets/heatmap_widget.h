#pragma once
// One heatmap on screen: hover names the query token, the key token and the exact value; a click
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
    QString describe(const HeatmapHit& hit) const;        // "query 'journey' (1) → key 'Your' (0): weight 0.5123"

    // The keyboard's cell (query row, key column), and what the table interface reads.
    int currentRow() const { return row_; }
    int currentColumn() const { return col_; }
    void setCurrentCell(int row, int col); // clamped to the matrix; updates the readout like a hover
    std::optional<HeatmapHit> cellAt(int row, int col) const;
    QRect cellRect(int row, int col) const; // in widget coordinates, at least a few pixels wide
    QString tokenLabel(int index) const;    // the token as the axes label it, or its index

Q_SIGNALS:
    void clicked();
    void hovered(const QString& text);

protected:
    bool event(QEvent* event) override; // claims its navigation keys before the window's stage keys
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    QRectF paintRect() const { return QRectF(rect()).adjusted(4, 4, -4, -4); }
    void paintCurrentCell(QPainter& p) const;

    HeatmapPainter painter_;
    int row_ = 0;
    int col_ = 0;
};

} // namespace attnlab::ui
