#include "render/sweep_curves_painter.h"

#include "train/sweep.h"

#include <QFontMetricsF>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace attnlab::ui {

namespace {

// Paul Tol's bright scheme, told apart by colour-blind readers too; the legend names every line as well.
constexpr std::array<QRgb, 7> kSeries = {0xff4477aa, 0xffee6677, 0xff228833, 0xffccbb44,
                                         0xff66ccee, 0xffaa3377, 0xffbbbbbb};

double niceTop(double v) // 1, 2 or 5 times a power of ten, at least v
{
    if (!(v > 0))
        return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * p >= v - 1e-12)
            return m * p;
    return 10 * p;
}

QString tickText(double v)
{
    return std::abs(v - std::round(v)) < 1e-9 ? QString::number(static_cast<long long>(std::round(v)))
                                              : QString::number(v, 'g', 3);
}

} // namespace

SweepCurvesPainter::SweepCurvesPainter(std::vector<SweepCurveSeries> series, std::int64_t steps, int fontPx)
    : series_(std::move(series)), steps_(std::max<std::int64_t>(steps, 1)), fontPx_(fontPx)
{
    double most = 0.0;
    for (const SweepCurveSeries& s : series_)
        for (const Point& pt : curve(s, false))
            most = std::max(most, pt.hi);
    lossTop_ = niceTop(most);
}

std::vector<SweepCurvesPainter::Point> SweepCurvesPainter::curve(const SweepCurveSeries& series, bool accuracy)
{
    std::map<std::int64_t, std::vector<double>> at;
    for (const auto& seed : series.seeds)
        for (const train::EvalPoint& e : seed)
            at[e.step].push_back(accuracy ? e.accuracy : e.loss);
    std::vector<Point> out;
    for (const auto& [step, values] : at) {
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        out.push_back({step, train::spread(values).mean, *lo, *hi, static_cast<int>(values.size())});
    }
    return out;
}

QColor SweepCurvesPainter::seriesColor(std::size_t i, const RenderStyle& style)
{
    return style.readable(QColor::fromRgb(kSeries[i % kSeries.size()]), style.background, true);
}

double SweepCurvesPainter::top(int panel) const
{
    return panel == 0 ? lossTop_ : 1.0;
}

QRectF SweepCurvesPainter::plotRect(const QRectF& rect, int panel) const
{
    const double line = fontPx_ * 1.3, gap = fontPx_ * 2.0;
    const double legend = line * 1.6;
    const double w = (rect.width() - gap) / 2;
    const QRectF area(rect.left() + panel * (w + gap), rect.top(), w, rect.height() - legend);
    return area.adjusted(fontPx_ * 3.2, line * 1.5, -fontPx_ * 0.8, -line * 1.2);
}

void SweepCurvesPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    p.save();
    QFont font = p.font();
    font.setPixelSize(fontPx_);
    p.setFont(font);
    p.setRenderHint(QPainter::Antialiasing);
    if (series_.empty()) {
        style.drawText(
            p, rect, Qt::AlignCenter | Qt::TextWordWrap,
            QStringLiteral("Nothing trained yet: press Train, and each num_heads' held-out loss and accuracy "
                           "draw here as its runs go."),
            style.muted, style.background);
        p.restore();
        return;
    }
    for (int panel = 0; panel < 2; ++panel)
        paintPanel(p, style, rect, panel);
    paintLegend(p, style, rect);
    p.restore();
}

void SweepCurvesPainter::paintPanel(QPainter& p, const RenderStyle& style, const QRectF& rect, int panel) const
{
    const QRectF a = plotRect(rect, panel);
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    const QString title = panel == 0 ? QStringLiteral("Held-out loss (cross-entropy, lower is better)")
                                     : QStringLiteral("Held-out accuracy (share of scored tokens right)");
    style.drawText(p, QRectF(a.left() - fontPx_ * 3.2, a.top() - line * 1.4, a.width() + fontPx_ * 3.2, line),
                   Qt::AlignLeft | Qt::AlignVCenter, QFontMetricsF(bold).elidedText(title, Qt::ElideRight, a.width()),
                   style.text, style.background);
    p.restore();
    const double yTop = top(panel);
    const auto x = [&](double step) { return a.left() + a.width() * step / static_cast<double>(steps_); };
    const auto y = [&](double v) { return a.bottom() - a.height() * std::clamp(v / yTop, 0.0, 1.0); };
    for (int i = 0; i <= 4; ++i) { // grid and y labels
        const double v = yTop * i / 4.0, yy = y(v);
        p.setPen(QPen(style.grid, 1));
        p.drawLine(QPointF(a.left(), yy), QPointF(a.right(), yy));
        style.drawText(p, QRectF(a.left() - fontPx_ * 3.2, yy - line / 2, fontPx_ * 2.9, line),
                       Qt::AlignRight | Qt::AlignVCenter, tickText(v), style.muted, style.background);
    }
    for (int i = 0; i <= 4; ++i) { // x labels: steps
        const double s = static_cast<double>(steps_) * i / 4.0;
        const int align = i == 0 ? Qt::AlignLeft : i == 4 ? Qt::AlignRight : Qt::AlignHCenter;
        const double left = i == 0 ? x(s) : i == 4 ? x(s) - 80 : x(s) - 40;
        const QString text = tickText(std::round(s)) + (i == 4 ? QStringLiteral(" steps") : QString());
        style.drawText(p, QRectF(left, a.bottom() + 2, 80, line), align | Qt::AlignTop, text, style.muted,
                       style.background);
    }
    p.setPen(QPen(style.frame, 1));
    p.drawLine(a.bottomLeft(), a.bottomRight());
    p.drawLine(a.bottomLeft(), a.topLeft());
    for (std::size_t i = 0; i < series_.size(); ++i) {
        const std::vector<Point> pts = curve(series_[i], panel == 1);
        if (pts.empty())
            continue;
        const QColor c = seriesColor(i, style);
        QPainterPath band, mean;
        for (std::size_t k = 0; k < pts.size(); ++k) {
            const QPointF hi(x(static_cast<double>(pts[k].step)), y(pts[k].hi));
            k == 0 ? band.moveTo(hi) : band.lineTo(hi);
        }
        for (std::size_t k = pts.size(); k-- > 0;)
            band.lineTo(x(static_cast<double>(pts[k].step)), y(pts[k].lo));
        band.closeSubpath();
        QColor fill = c;
        fill.setAlphaF(style.dark ? 0.28f : 0.2f);
        p.fillPath(band, fill);
        for (std::size_t k = 0; k < pts.size(); ++k) {
            const QPointF m(x(static_cast<double>(pts[k].step)), y(pts[k].mean));
            k == 0 ? mean.moveTo(m) : mean.lineTo(m);
        }
        p.setPen(QPen(c, 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(Qt::NoBrush);
        p.drawPath(mean);
        if (pts.size() == 1)
            p.drawEllipse(mean.currentPosition(), 2.5, 2.5);
    }
}

void SweepCurvesPainter::paintLegend(QPainter& p, const RenderStyle& style, const QRectF& rect) const
{
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    double xx = rect.left() + fontPx_ * 3.2;
    const double yy = rect.bottom() - line * 1.2;
    const QString band = QStringLiteral("line: mean over seeds · band: lowest to highest seed");
    for (std::size_t i = 0; i < series_.size(); ++i) {
        const QString label = QStringLiteral("%1 head%2").arg(series_[i].heads).arg(series_[i].heads == 1 ? "" : "s");
        const QColor c = seriesColor(i, style);
        p.setPen(QPen(c, 3, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(xx, yy + line / 2), QPointF(xx + line * 1.2, yy + line / 2));
        style.drawText(p, QRectF(xx + line * 1.5, yy, fm.horizontalAdvance(label) + 4, line),
                       Qt::AlignLeft | Qt::AlignVCenter, label, style.text, style.background);
        xx += line * 1.5 + fm.horizontalAdvance(label) + line;
    }
    if (!series_.empty())
        style.drawText(p, QRectF(xx, yy, std::max(0.0, rect.right() - xx), line), Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(band, Qt::ElideRight, std::max(0.0, rect.right() - xx)), style.muted,
                       style.background);
}

} // namespace attnlab::ui
