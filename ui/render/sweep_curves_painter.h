#pragma once
// A sweep's held-out curves: loss (left) and accuracy (right) against the optimizer step, one colour per
// num_heads (or num_heads x num_kv_groups), the line the mean over seeds and the band around it from the lowest to the
// highest seed. Runs still training draw as far as they have come, so the same picture serves live and finished.
#include "render/render_style.h"
#include "train/train_run.h"

#include <QPainter>

#include <cstdint>
#include <vector>

namespace attnlab::ui {

struct SweepCurveSeries {
    std::int64_t heads = 0;
    std::vector<std::vector<train::EvalPoint>> seeds; // each seed's measurements, in step order
    QString name;                                     // the legend's ("8 heads, 2 key/value heads"); empty: "N heads"
    QString legend() const;
};

class SweepCurvesPainter {
public:
    struct Point {
        std::int64_t step = 0;
        double mean = 0.0, lo = 0.0, hi = 0.0;
        int seeds = 0;
    };

    // A text the picture says, where it is said: titles, ticks, legend. Each is the longest of its
    // wordings that fits its room, never cut; a tick that would run into its neighbour is left out.
    struct Label {
        QRectF rect;
        QString text;
        enum Role { Title, Tick, Legend, Note } role = Tick;
        int series = -1; // a Legend label's series: its swatch is drawn before it
    };

    SweepCurvesPainter() = default;
    SweepCurvesPainter(std::vector<SweepCurveSeries> series, std::int64_t steps, int fontPx = 14);

    void paint(QPainter& painter, const QRectF& rect, const RenderStyle& style = RenderStyle::print()) const;
    const std::vector<SweepCurveSeries>& series() const { return series_; }
    // The mean, lowest and highest seed at every step some seed measured (accuracy or loss).
    static std::vector<Point> curve(const SweepCurveSeries& series, bool accuracy);
    // Series i's colour, readable against the style's background as a line (3:1).
    static QColor seriesColor(std::size_t i, const RenderStyle& style);
    QRectF plotRect(const QRectF& rect, int panel) const; // panel 0 loss, 1 accuracy: the data area
    std::vector<Label> labels(const QRectF& rect) const;  // every text of the picture (tests read them)

private:
    QFont font(bool bold = false) const;
    int legendLines(const QRectF& rect) const; // the legend wraps to a second line when the row is narrow
    void legendLabels(const QRectF& rect, std::vector<Label>& out) const;
    void panelLabels(const QRectF& rect, int panel, std::vector<Label>& out) const;
    void paintPanel(QPainter& p, const RenderStyle& style, const QRectF& rect, int panel) const;
    double top(int panel) const; // the y axis' upper end

    std::vector<SweepCurveSeries> series_;
    std::int64_t steps_ = 1;
    int fontPx_ = 14;
    double lossTop_ = 1.0;
};

} // namespace attnlab::ui
