#include "shell/lesson_scroll.h"
#include "widgets/lesson_target.h"
#include "widgets/scroll_into_view.h"

#include "shell/lessons.h"

#include "features/stepper/shape_diagram_widget.h"

#include <QCoreApplication>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>

#include <algorithm>
#include <vector>

namespace attnlab::ui {

namespace {

// Every scroll area `w` is inside, the innermost first: a page's own area may be cut off by the one the
// tab sits in, and then only scrolling the outer one brings the target into view.
std::vector<QScrollArea*> enclosingAreas(QWidget* w)
{
    std::vector<QScrollArea*> out;
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p); area && area->widget() && area->widget()->isAncestorOf(w))
            out.push_back(area);
    return out;
}

} // namespace

// A step pointing at the diagram's strides or badges: the diagram's pane of the splitter it shares with
// the code is kept as tall as the drawing needs with its text at the window's type (on a projector beside
// the lessons dock it otherwise shrinks whole, under the type), the other panes giving way down to their
// minimums; where that is more than the splitter has, the height without the stage's sentence (the
// drawing leaves it out, shape_diagram_painter.cpp). Only where the splitter has that room: a page made
// to scroll would put the code out of view, so a drawing that needs more stays whole and smaller. A
// minimum rather than a size, kept right as the window settles (the splitter's resizes); other steps
// give the pane back. The code's line stays in view (SourceView).
DiagramRoom::DiagramRoom(ShapeDiagramWidget* diagram, QObject* parent) : QObject(parent), diagram_(diagram) {}

void DiagramRoom::give(const LessonStep* step)
{
    if (!diagram_)
        return;
    if (!splitter_) {
        if (!step)
            return; // never given room: nothing to take back
        QWidget* pane = diagram_;
        for (; pane->parentWidget(); pane = pane->parentWidget())
            if (auto* s = qobject_cast<QSplitter*>(pane->parentWidget()); s && s->orientation() == Qt::Vertical) {
                splitter_ = s;
                pane_ = pane;
                splitter_->installEventFilter(this);
                break;
            }
        if (!splitter_)
            return;
    }
    bool wanted = false;
    for (const LessonTarget& t : step ? step->targets : std::vector<LessonTarget>{})
        wanted |= t.kind == LessonTarget::Kind::DiagramPart;
    const int need = wanted && diagram_->isVisible() ? diagram_->heightAtType() : 0;
    const int compact = wanted && diagram_->isVisible() ? diagram_->heightAtType(false) : 0;
    const int around = pane_->height() - diagram_->height();
    want_ = need > 0 ? need + around : 0;
    compact_ = compact > 0 ? compact + around : 0;
    apply();
}

bool DiagramRoom::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == splitter_ && event->type() == QEvent::Resize)
        apply();
    return QObject::eventFilter(watched, event);
}

void DiagramRoom::apply()
{
    int room = splitter_->height();
    for (int i = 0; i < splitter_->count(); ++i)
        if (splitter_->widget(i) != pane_)
            room -= splitter_->widget(i)->minimumSizeHint().height() + splitter_->handleWidth();
    const int height = want_ > 0 && want_ <= room ? want_ : compact_ > 0 && compact_ <= room ? compact_ : 0;
    if (pane_->minimumHeight() != height)
        pane_->setMinimumHeight(height);
}

QWidget* shownLessonTarget(QWidget* window, const QString& name)
{
    return lessonTarget(window, name, true);
}

void scrollTargetsIntoView(QWidget* window, DiagramRoom& room, const LessonStep& step)
{
    room.give(&step);
    // Layouts still pending (a page just shown, a progress bar that appeared, the diagram's room) would
    // move the targets after they were measured: settle them first.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    std::vector<QWidget*> targets;
    std::vector<QScrollArea*> order; // innermost first, each once
    for (const LessonTarget& t : step.targets) {
        if (t.kind != LessonTarget::Kind::Widget && t.kind != LessonTarget::Kind::Cells)
            continue;
        if (QWidget* w = shownLessonTarget(window, t.name)) {
            targets.push_back(w);
            for (QScrollArea* a : enclosingAreas(w))
                if (std::find(order.begin(), order.end(), a) == order.end())
                    order.push_back(a);
        }
    }
    // An inner area first, then the ones around it: each span is measured after the scrolls inside it.
    for (QScrollArea* area : order) {
        QRect span;
        for (QWidget* w : targets)
            if (area->widget()->isAncestorOf(w)) {
                const QRect r(w->mapTo(area->widget(), QPoint(0, 0)), w->size());
                span = span.isNull() ? r : span.united(r);
            }
        scrollSpanIntoView(area, span);
    }
}

} // namespace attnlab::ui
