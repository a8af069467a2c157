#pragma once
// The overview's grid of heads on screen: HeadGridPainter in a widget, a click on a head asks for it, the
// tooltip and the accessible description give every measure.
#include "render/head_grid_painter.h"

#include <QWidget>

namespace attnlab::ui {

class HeadGridWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeadGridWidget(QWidget* parent = nullptr);
    // `tips`: one full description a cell, for its tooltip.
    void setGrid(HeadGridPainter painter, QStringList tips);
    const HeadGridPainter& painter() const { return painter_; }
    QRect cellRect(std::size_t index) const; // where a cell is drawn, for tests and the keyboard
    QSize sizeHint() const override;

Q_SIGNALS:
    void headClicked(int layer, int head);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    HeadGridPainter painter_;
    QStringList tips_;
};

} // namespace attnlab::ui
