#pragma once
// One row of the first-divergence comparison, drawn: the stage's shape in the book's forward (each
// axis a named block) above the shape the buggy code produced, with the axes that differ in red, the
// verdict (same / shape / values / error / not reached) as a badge, and the core's sentence or
// PyTorch's error message underneath.
#include "lessons/divergence.h"
#include "render/render_style.h"

#include <QPainter>
#include <QRectF>
#include <QString>

#include <string>
#include <vector>

namespace attnlab::ui {

struct DivergenceCard {
    StageComparison row;
    std::vector<Axis> axes; // the book's axes at this stage; empty for "config"
    bool first = false;     // this row is the first divergence
    QString stoppedAt;      // for "not-reached": the stage where the buggy run stopped
};

class DivergencePainter {
public:
    explicit DivergencePainter(const DivergenceCard& card) : card_(card) {}
    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;

    // Shared with the stage lists: the verdict's ink and its tinted fill in `style`.
    static QColor statusColor(DivergenceStatus status, const RenderStyle& style);
    static QColor statusFill(DivergenceStatus status, const RenderStyle& style);
    static QString statusText(DivergenceStatus status);

private:
    class Pass; // one paint: the style it was given and the scale fitted to its rect, never stored here

    const DivergenceCard& card_;
};

} // namespace attnlab::ui
