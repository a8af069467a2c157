#pragma once
// Scrolls a scroll area so that a span of its page shows, without leaving a row half scrolled away at the top
// edge. On a 720-pixel projector the lessons and the diagnostics scroll pages whose rows are taller than the
// scroll's slack, and the plain arithmetic (the span's bottom to the viewport's bottom) put the viewport's top
// through the middle of the row above: half of "Task" and "emb" showed over Train.
#include <QRect>

class QScrollArea;

namespace attnlab::ui {

// `span` in the coordinates of `area->widget()`. It shows whole with `margin` around it where it fits, else its
// top goes to the top; of the scroll positions that keep it so, the nearest that cuts no widget is taken.
void scrollSpanIntoView(QScrollArea* area, const QRect& span, int margin = 8);

} // namespace attnlab::ui
