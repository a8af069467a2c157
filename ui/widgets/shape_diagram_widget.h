#pragma once
// Thin host for ShapeDiagramPainter: lays the diagram out when the session's stage, head or trace, the
// size or the type changes, paints that layout, and carries the painter's description in words as its
// accessible description. hitTest names the block or head under a point.
#include "render/shape_diagram_layout.h"

#include <QWidget>

#include <memory>
#include <optional>

namespace attnlab::ui {

class Session;

class ShapeDiagramWidget : public QWidget {
    Q_OBJECT
public:
    explicit ShapeDiagramWidget(Session* session, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {1000, 470}; }
    const ShapeDiagramLayout& diagramLayout() const { return layout_; } // empty until there is a trace
    std::optional<ShapeHit> hitTest(const QPointF& pos) const { return layout_.hitTest(pos); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QRectF diagramRect() const { return QRectF(rect()).adjusted(16, 12, -16, -8); }
    void relayout();
    void refreshDescription(); // the painter's description, for screen readers

    Session* session_;
    std::shared_ptr<const Trace> trace_; // the trace layout_ was made from (it points into it)
    ShapeDiagramLayout layout_;
};

} // namespace attnlab::ui
