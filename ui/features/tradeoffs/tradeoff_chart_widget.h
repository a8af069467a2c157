#pragma once
// The trade-off chart on screen: a thin widget around TradeoffChartPainter; a click on a column
// asks for that num_heads, as do the Left/Right arrows (Home/End) when it has the focus; its accessible
// description reads every column's numbers.
#include "render/tradeoff_chart_painter.h"

#include <QWidget>

namespace attnlab::ui {

class TradeoffChartWidget : public QWidget {
    Q_OBJECT
public:
    explicit TradeoffChartWidget(QWidget* parent = nullptr);
    void setPainter(TradeoffChartPainter painter);
    const TradeoffChartPainter& chartPainter() const { return painter_; }
    QRectF chartRect() const;

Q_SIGNALS:
    void headsClicked(std::int64_t numHeads);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    TradeoffChartPainter painter_;
};

} // namespace attnlab::ui
