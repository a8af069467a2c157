#pragma once
// The head-count trade-off as three bar charts sharing one x axis (every valid num_heads for the
// current d_out): parameters, multiply-adds stacked by part (projections, scores, context, out_proj),
// and the memory one attention-score tensor takes (4*b*H*T*T bytes). The first two stay flat; the
// third grows with the heads. Columns are hit-testable, so a click can apply that num_heads.
#include "render/render_style.h"
#include "designs/tradeoffs.h"

#include <QColor>
#include <QPainter>
#include <QStringList>

#include <optional>

namespace attnlab::ui {

class TradeoffChartPainter {
public:
    TradeoffChartPainter() = default;
    TradeoffChartPainter(HeadTradeoffs tradeoffs, std::int64_t selectedHeads, int fontPx = 15);

    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    std::optional<std::size_t> hitTest(const QRectF& rect, QPointF pos) const; // row under pos
    QRectF columnRect(const QRectF& rect, std::size_t row) const;              // the band a click selects
    QRectF barRect(const QRectF& rect, int panel, std::size_t row) const;      // panel 0, 1 or 2
    const HeadTradeoffs& tradeoffs() const { return t_; }
    std::int64_t selectedHeads() const { return selected_; }
    static QColor partColor(int part); // 0 projections, 1 scores, 2 context, 3 out_proj
    // The multiply-adds legend's four entries as drawn in `rect` with `font` (its type set to the painter's size):
    // a part thinner than a pixel in the shown column's bar says so with its share ("scores Q·Kᵀ 197 k, 0.5%: too
    // thin to see"), in shorter words where the row is narrow. Bars alone hid 197 k beside 28.3 M.
    QStringList legendLabels(const QRectF& rect, QFont font) const;

private:
    QRectF plotArea(const QRectF& rect) const;
    QRectF panelRect(const QRectF& rect, int panel) const;
    double panelMax(int panel) const;
    double value(int panel, std::size_t row) const;
    struct Ink { // from the style paint() was given: the marked column's fill and the ink that reads on it
        const RenderStyle& style;
        QColor band, ink;
    };
    void paintPanel(QPainter& p, const Ink& k, const QRectF& rect, int panel) const;
    void paintAxis(QPainter& p, const Ink& k, const QRectF& rect) const;

    HeadTradeoffs t_;
    std::int64_t selected_ = 0;
    int fontPx_ = 15;
};

} // namespace attnlab::ui
