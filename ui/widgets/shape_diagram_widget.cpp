#include "widgets/shape_diagram_widget.h"

#include "render/render_style.h"

#include "model/session.h"
#include "render/shape_diagram_painter.h"

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
            update();
        }
    });
    refreshDescription();
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
    const auto trace = session_->trace();
    if (!trace) {
        p.drawText(rect(), Qt::AlignCenter, tr("Computing the forward pass…"));
        return;
    }
    ShapeDiagramPainter(*trace, session_->stageIndex(), session_->head())
        .paint(p, QRectF(rect()).adjusted(16, 12, -16, -8), RenderStyle::fromPalette(palette(), backgroundRole()));
}

} // namespace attnlab::ui
