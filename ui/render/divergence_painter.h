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
    double paintHeader(QPainter& p, const QRectF& rect) const;
    // One row of axis blocks; `compare` marks sizes that differ from it. Returns the row's bottom.
    double paintShapeRow(QPainter& p, double top, const QRectF& rect, const QString& label, const Shape& shape,
                         const std::vector<Axis>& names, const Shape* compare) const;
    double paintMessage(QPainter& p, double top, const QRectF& rect, const QString& title, const QString& text,
                        bool mono, const QColor& ink, const QColor& fill) const;

    const DivergenceCard& card_;
    mutable double scale_ = 1.0;
    mutable RenderStyle style_; // the one paint() was given
};

} // namespace attnlab::ui
