#pragma once
// The design comparison on screen: a thin widget around DesignLayoutPainter. Hovering a block names
// it (state_dict name, shape, parameters, owner) in a tooltip.
#include "render/design_layout_painter.h"

#include <QWidget>

namespace attnlab::ui {

class DesignLayoutWidget : public QWidget {
public:
    explicit DesignLayoutWidget(QWidget* parent = nullptr);
    void setPainter(DesignLayoutPainter painter);
    const DesignLayoutPainter& designPainter() const { return painter_; }
    const DesignDrawing& drawing() const { return drawing_; } // as painted
    QRectF drawingRect() const;                               // where the painter draws inside the widget
    QString describe(QPointF pos) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void relayout();

    DesignLayoutPainter painter_;
    DesignDrawing drawing_; // painter_ laid out at this size
};

} // namespace attnlab::ui
