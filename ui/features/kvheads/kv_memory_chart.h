#pragma once
// The Memory chart on screen: a thin widget around KvMemoryPainter, in the window's type size (larger when presenting),
// whose accessible description reads each line's bytes at the table's context length.
#include "features/kvheads/kv_memory_painter.h"

#include <QWidget>

namespace attnlab::ui {

class KvMemoryChart : public QWidget {
    Q_OBJECT
public:
    explicit KvMemoryChart(QWidget* parent = nullptr);
    void setMemory(KvMemory memory);
    KvMemoryPainter chartPainter() const; // as drawn now, at the widget's type size
    QSize sizeHint() const override;      // taller with the type: a projector's labels need room
    QRectF chartRect() const { return QRectF(rect()).adjusted(6, 6, -6, -4); }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    KvMemory memory_;
};

} // namespace attnlab::ui
