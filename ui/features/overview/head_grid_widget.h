#pragma once
// The overview's grid of heads on screen: HeadGridPainter in a widget, a click on a head asks for it, the
// tooltip and the accessible description give every measure. The keyboard walks it too: the arrow keys,
// Home and End move a dashed ring from head to head (the accessible name says which head and what it does),
// and Enter or Space opens that head as a click does.
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
    int current() const { return current_; } // the cell the keyboard is on, -1 when there are none

Q_SIGNALS:
    void headClicked(int layer, int head);
    void currentMoved(QRect cell); // the keyboard's cell moved: scroll it into view

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    bool event(QEvent* event) override;

private:
    void setCurrent(int index);

    HeadGridPainter painter_;
    QStringList tips_;
    int current_ = -1;
};

} // namespace attnlab::ui
