#include "features/stepper/shape_diagram_widget.h"

#include "render/render_style.h"

#include "features/stepper/stepper_state.h"
#include "render/shape_diagram_follow.h"
#include "render/shape_diagram_painter.h"
#include "model/document_model.h"
#include "model/study_model.h"
#include "model/trace_state.h"
#include "model/view_model.h"

#include <QEvent>

#include <cmath>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

namespace attnlab::ui {

ShapeDiagramWidget::ShapeDiagramWidget(StepperState* state, QWidget* parent) : QWidget(parent), state_(state)
{
    // Small panes are fine: the painter shrinks the drawing to fit (a wide minimum made the stepper
    // page scroll sideways on a 1280-pixel projector with the lessons dock and the settings column open).
    setMinimumSize(440, 300); // the widest row of boxes fits 440 px at the smallest scale
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    // Focusable with Tab, so a screen reader's user reaches the drawing and hears its description, and
    // the keyboard can follow a block's element as a click does (a click leaves the focus where it is:
    // the clicker's Right still steps the stages).
    setFocusPolicy(Qt::TabFocus);
    setAccessibleName(tr("Shape diagram of the current stage"));
    connect(state_, &StepperState::changed, this, [this](ChangeFlags flags) {
        if (flags & (ChangeFlag::Trace | ChangeFlag::Stage | ChangeFlag::Head)) {
            relayout();
            refreshDescription();
            update();
        } else if (flags & ChangeFlag::Selection) {
            refreshMarks();
            refreshDescription();
            update();
        }
    });
    relayout();
    refreshDescription();
}

void ShapeDiagramWidget::relayout()
{
    trace_ = state_->trace()->trace();
    layout_ = trace_ ? ShapeDiagramPainter(*trace_, state_->view()->stageIndex(), state_->view()->head())
                           .layout(diagramRect(), font())
                     : ShapeDiagramLayout{};
    if (focusBlock_ >= blockCount())
        focusBlock_ = blockCount() - 1;
    refreshMarks();
}

int ShapeDiagramWidget::heightAtType(bool caption) const
{
    if (!trace_ || layout_.stage < 0)
        return 0;
    const QRectF r = diagramRect();
    const double ink =
        ShapeDiagramPainter(*trace_, layout_.stage, layout_.selectedHead).heightAtType(r.width(), font(), caption);
    return static_cast<int>(std::ceil(ink)) + height() - static_cast<int>(r.height()) + 2; // and the margins
}

void ShapeDiagramWidget::refreshMarks()
{
    const ElementFollow* followed = state_->study()->followedElement();
    layout_.follow =
        trace_ && followed ? diagramFollowMarks(*trace_, layout_, *followed) : std::vector<ShapeFollowMark>{};
}

const ShapeBlock* ShapeDiagramWidget::block(int focus) const
{
    const auto n = static_cast<int>(layout_.after.size());
    if (focus < 0 || focus >= blockCount())
        return nullptr;
    return focus < n ? &layout_.after[static_cast<std::size_t>(focus)]
                     : &layout_.before[static_cast<std::size_t>(focus - n)];
}

void ShapeDiagramWidget::follow(const ShapeHit& hit)
{
    if (!trace_)
        return;
    if (const auto e = diagramElementAt(*trace_, layout_, hit, state_->study()->followedElement(),
                                        state_->view()->batchIndex(), state_->view()->head()))
        state_->document()->setSelectedElement(
            {QString::fromStdString(e->stage), QList<qint64>(e->index.begin(), e->index.end())});
}

void ShapeDiagramWidget::mousePressEvent(QMouseEvent* event)
{
    const auto hit = hitTest(event->position());
    if (event->button() != Qt::LeftButton || !hit) {
        QWidget::mousePressEvent(event);
        return;
    }
    for (int i = 0; i < blockCount(); ++i)
        if (block(i)->previous == hit->previous && block(i)->dim == hit->dim)
            focusBlock_ = i;
    follow(*hit);
    update();
}

void ShapeDiagramWidget::stepFocused(int by)
{
    const ShapeBlock* b = block(focusBlock_);
    if (!b || !trace_)
        return;
    // The coordinate the followed element has along this block's axis, when its stage holds it.
    std::int64_t at = 0;
    const Stage* stage = diagramRowStage(*trace_, layout_, b->previous);
    if (const ElementFollow* f = state_->study()->followedElement(); f && stage)
        for (const ElementPlace& p : f->places)
            if (p.stage == stage->name && static_cast<std::size_t>(b->dim) < p.index.size()) {
                at = p.index[static_cast<std::size_t>(b->dim)];
                break;
            }
    ShapeHit hit{ShapeHit::Kind::Block, layout_.stage, b->previous, b->dim, b->axis, -1};
    if (b->axis == Axis::head_dim && !b->marks.empty())
        hit.head = b->marks.front().head;
    hit.at = std::clamp<std::int64_t>(at + by, 0, std::max<std::int64_t>(b->size - 1, 0));
    follow(hit);
}

bool ShapeDiagramWidget::event(QEvent* event)
{
    // The window binds Left/Right/Space to the stages; over the focused diagram they pick blocks.
    if (event->type() == QEvent::ShortcutOverride && ownsKey(static_cast<QKeyEvent*>(event))) {
        event->accept();
        return true;
    }
    return QWidget::event(event);
}

bool ShapeDiagramWidget::ownsKey(const QKeyEvent* event)
{
    if ((event->modifiers() & ~Qt::KeypadModifier) != 0)
        return false;
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter: return true;
    default: return false;
    }
}

void ShapeDiagramWidget::keyPressEvent(QKeyEvent* event)
{
    const int n = blockCount();
    if (!ownsKey(event)) {
        QWidget::keyPressEvent(event);
        return;
    }
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Right:
        if (n > 0)
            focusBlock_ = focusBlock_ < 0 ? 0 : (focusBlock_ + (event->key() == Qt::Key_Right ? 1 : n - 1)) % n;
        refreshDescription();
        update();
        return;
    case Qt::Key_Up: stepFocused(-1); return;
    case Qt::Key_Down: stepFocused(1); return;
    default: stepFocused(0); return; // Space, Return, Enter
    }
}

void ShapeDiagramWidget::focusOutEvent(QFocusEvent* event)
{
    QWidget::focusOutEvent(event);
    update(); // the keyboard's frame goes with the focus
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
    const auto trace = state_->trace()->trace();
    QString text = trace ? ShapeDiagramPainter(*trace, state_->view()->stageIndex(), state_->view()->head()).describe()
                         : tr("Computing the forward pass…");
    if (const ShapeBlock* b = block(focusBlock_); b && trace_)
        if (const Stage* stage = diagramRowStage(*trace_, layout_, b->previous))
            text += tr(" Keyboard on dim %1 (%2, size %3) of %4: Up and Down follow its elements.")
                        .arg(b->dim)
                        .arg(QString::fromStdString(std::string(axis_name(b->axis))))
                        .arg(b->size)
                        .arg(QString::fromStdString(stage->name));
    if (!layout_.follow.empty())
        text += tr(" The followed number is marked on %n block(s).", nullptr, static_cast<int>(layout_.follow.size()));
    setAccessibleDescription(text);
}

void ShapeDiagramWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    if (!trace_ || layout_.stage < 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("Computing the forward pass…"));
        return;
    }
    const RenderStyle style = RenderStyle::fromPalette(palette(), backgroundRole());
    ShapeDiagramPainter(*trace_, layout_.stage, layout_.selectedHead).paint(p, layout_, style);
    if (const ShapeBlock* b = block(focusBlock_); b && hasFocus()) {
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(style.text, 2, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(b->rect.adjusted(-5, -5, 5, 5), 9, 9);
    }
}

} // namespace attnlab::ui
