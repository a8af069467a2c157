#include "widgets/shape_diagram_widget.h"

#include "render/render_style.h"

#include "model/session.h"
#include "render/shape_diagram_painter.h"

#include <QEvent>
#include <QPainter>

namespace attnlab::ui {

ShapeDiagramWidget::ShapeDiagramWidget(Session* session, QWidget* parent) : QWidget(parent), session_(session)
{
    // Small panes are fine: the painter shrinks the drawing to fit (a wide minimum made the stepper
    // page scroll sideways on a 1280-pixel projector with the lessons dock open).
    setMinimumSize(500, 300); // the widest row of boxes fits 500 px at the smallest scale
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    // Focusable, so a screen reader's user reaches the drawing and hears its description.
    setFocusPolicy(Qt::TabFocus);
    setAccessibleName(tr("Shape diagram of the current stage"));
    connect(session_, &Session::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Head)) {
            refreshDescription();
            relayout();
            update();
        }
    });
    refreshDescription();
    relayout();
}

void ShapeDiagramWidget::relayout()
{
    trace_ = session_->trace();
    layout_ = trace_
                  ? ShapeDiagramPainter(*trace_, session_->stageIndex(), session_->head()).layout(diagramRect(), font())
                  : ShapeDiagramLayout{};
}

void ShapeDiagramWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void ShapeDiagramWidget::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        relayout();
}

void ShapeDiagramWidget::refreshDescription()
{
    const auto trace = session_->trace();
    setAccessibleDescription(trace ? ShapeDiagramPainter(*trace, session_->stageIndex(), session_->head()).describe()
                                   : tr("Computing the forward pass…"));
}

void ShapeDiagramWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!trace_ || layout_.stage < 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("Computing the forward pass…"));
        return;
    }
    ShapeDiagramPainter(*trace_, layout_.stage, layout_.selectedHead)
        .paint(p, layout_, RenderStyle::fromPalette(palette(), backgroundRole()));
}

} // namespace attnlab::ui
