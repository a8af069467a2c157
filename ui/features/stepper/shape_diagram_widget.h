#pragma once
// Thin host for ShapeDiagramPainter: lays the diagram out when the session's stage, head or trace, the
// size or the type changes, paints that layout, and carries the painter's description in words as its
// accessible description. hitTest names the block or head under a point. A block clicked follows one
// element of its stage (the Session's selection); with the focus, Left and Right pick a block, Up and
// Down (or Space) pick the element along its axis. The followed element's bands are drawn on every
// stage that holds it or that it was computed from.
#include "render/shape_diagram_layout.h"

#include <QWidget>

class QKeyEvent;

#include <memory>
#include <optional>

namespace attnlab::ui {

class StepperState;

class ShapeDiagramWidget : public QWidget {
    Q_OBJECT
public:
    explicit ShapeDiagramWidget(StepperState* state, QWidget* parent = nullptr);
    QSize sizeHint() const override { return {1000, 470}; }
    const ShapeDiagramLayout& diagramLayout() const { return layout_; } // empty until there is a trace
    std::optional<ShapeHit> hitTest(const QPointF& pos) const { return layout_.hitTest(pos); }
    // The block the keyboard is on, as (row, position): previous row or not, index in that row; -1 none.
    int focusedBlock() const { return focusBlock_; }
    // The height at which, at its width now, the drawing keeps its text at the window's type (0 without
    // a trace): what a lesson step pointing at its strides or badges asks for; `caption`: with the
    // stage's sentence, which a shorter pane leaves out.
    int heightAtType(bool caption = true) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    QRectF diagramRect() const { return QRectF(rect()).adjusted(16, 12, -16, -8); }
    void relayout();
    void refreshMarks();       // the followed element's bands, from the session's follow
    void refreshDescription(); // the painter's description, for screen readers
    void follow(const ShapeHit& hit);
    const ShapeBlock* block(int focus) const; // after row first, then the row it came from
    int blockCount() const { return static_cast<int>(layout_.after.size() + layout_.before.size()); }
    static bool ownsKey(const QKeyEvent* event);
    void stepFocused(int by); // the focused block's coordinate moved by `by` (0: as it is)

    StepperState* state_;
    std::shared_ptr<const Trace> trace_; // the trace layout_ was made from (it points into it)
    ShapeDiagramLayout layout_;
    int focusBlock_ = -1;
};

} // namespace attnlab::ui
