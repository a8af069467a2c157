#pragma once
// One heatmap on screen: hover names the query token, the key token and the exact value; a click
// selects the head (the small multiples use that).
#include "render/heatmap_painter.h"

#include <QWidget>

namespace attnlab::ui {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setHeatmap(HeatmapPainter painter);
    const HeatmapPainter& heatmap() const { return painter_; }
    QSize imageSize(const HeatmapPainter& painter) const; // the matrix's pixels at this widget's size
    QString describe(const HeatmapHit& hit) const;        // "query 'journey' (1) → key 'Your' (0): weight 0.5123"

Q_SIGNALS:
    void clicked();
    void hovered(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    HeatmapPainter painter_;
};

} // namespace attnlab::ui
