#pragma once
// The class's answers as bars, on any paint device: one chart per field, a row per value given (most often
// first), a bar per round side by side (the earlier round paler: the shift between them is the point of voting
// again), the count beside each, and once revealed the right value marked and the common wrong ones said.
#include "poll/poll_tally.h"

#include <QPalette>
#include <QRectF>

class QPainter;

namespace attnlab::ui {

struct TallyLook {
    QPalette palette;
    QFont font;
    bool revealed = false;
    int mostRows = 5; // values per field; the rest are summed into "other"
};

// The height the charts need at `width`.
qreal tallyHeight(const poll::Tally& tally, const TallyLook& look, qreal width);
void paintTally(QPainter& painter, const QRectF& rect, const poll::Tally& tally, const TallyLook& look);

} // namespace attnlab::ui
