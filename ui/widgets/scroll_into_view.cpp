#include "widgets/scroll_into_view.h"

#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <utility>
#include <vector>

namespace attnlab::ui {

namespace {

// Of the tops in [lo, hi], the nearest to `want` that runs through no widget: a leaf widget's edges, as a row is
// made of leaves (a group around the row reaches further than the row). `want` when every top there cuts one.
int uncutTop(QScrollArea* area, int want, int lo, int hi)
{
    std::vector<std::pair<int, int>> spans; // each leaf's top and bottom in the page
    for (QWidget* w : area->widget()->findChildren<QWidget*>())
        if (w->isVisibleTo(area->widget()) && w->findChildren<QWidget*>().isEmpty()) {
            const int y = w->mapTo(area->widget(), QPoint(0, 0)).y();
            spans.emplace_back(y, y + w->height());
        }
    const auto cuts = [&spans](int top) {
        return std::any_of(spans.begin(), spans.end(),
                           [top](const auto& s) { return s.first < top && s.second > top; });
    };
    if (!cuts(want))
        return want;
    int best = want, distance = INT_MAX;
    for (const auto& s : spans)
        for (int top : {s.first, s.second})
            if (top >= lo && top <= hi && std::abs(top - want) < distance && !cuts(top)) {
                best = top;
                distance = std::abs(top - want);
            }
    return best;
}

} // namespace

void scrollSpanIntoView(QScrollArea* area, const QRect& span, int margin)
{
    if (!area || !area->widget() || span.isNull())
        return;
    QScrollBar* bar = area->verticalScrollBar();
    const int port = area->viewport()->height();
    const int top = bar->value();
    const bool tall = span.height() + 2 * margin > port;
    int value = top;
    if (tall || span.top() - margin < top)
        value = span.top() - margin;
    else if (span.bottom() + margin > top + port)
        value = span.bottom() + margin - port;
    // The span still shows from lo to hi (a tall one: its top, within a quarter of the view).
    const int lo = tall ? span.top() - port / 4 : span.bottom() + margin - port;
    const int hi = tall ? span.top() : span.top() - margin;
    const auto clamp = [bar](int v) { return std::clamp(v, bar->minimum(), bar->maximum()); };
    bar->setValue(uncutTop(area, clamp(value), clamp(lo), clamp(hi)));
}

} // namespace attnlab::ui
