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

QString SweepCurveSeries::legend() const
{
    return !name.isEmpty() ? name : QStringLiteral("%1 head%2").arg(heads).arg(heads == 1 ? "" : "s");
}

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

QFont SweepCurvesPainter::font(bool bold) const
{
    QFont f;
    f.setPixelSize(fontPx_);
    f.setBold(bold);
    return f;
}

// The series' names flow along the bottom, then the note on the band; what does not fit on a line starts
// the next one, so at the window's narrowest the note moves under the names instead of being cut.
void SweepCurvesPainter::legendLabels(const QRectF& rect, std::vector<Label>& out) const
{
    const QFontMetricsF fm(font());
    const double line = fm.height(), left = rect.left() + fontPx_ * 3.2;
    std::vector<Label> legend;
    double xx = left;
    int row = 0;
    for (std::size_t i = 0; i < series_.size(); ++i) {
        const QString text = series_[i].legend();
        const double w = fm.horizontalAdvance(text) + 2;
        if (xx > left && xx + line * 1.5 + w > rect.right()) {
            ++row;
            xx = left;
        }
        legend.push_back({QRectF(xx + line * 1.5, row, w, line), text, Label::Legend, static_cast<int>(i)});
        xx += line * 1.5 + w + line;
    }
    std::size_t mostSeeds = 0;
    for (const SweepCurveSeries& s : series_)
        mostSeeds = std::max(mostSeeds, s.seeds.size());
    const QStringList notes = mostSeeds > 1 ? QStringList{QStringLiteral("line: mean over seeds · band: lowest to "
                                                                         "highest seed"),
                                                          QStringLiteral("band: lowest to highest seed")}
                                            : QStringList{QStringLiteral("one seed each: no spread to draw")};
    if (!series_.empty()) {
        QString note = notes.back();
        for (const QString& n : notes)
            if (fm.horizontalAdvance(n) + 2 <= rect.right() - xx ||
                fm.horizontalAdvance(n) + 2 <= rect.right() - left) {
                note = n;
                break;
            }
        const double w = fm.horizontalAdvance(note) + 2;
        if (w > rect.right() - xx)
            ++row; // under the names
        legend.push_back({QRectF(rect.right() - w, row, w, line), note, Label::Note});
    }
    const int rows = row + 1;
    for (Label& l : legend) { // rows counted, now placed: the last one just above the bottom
        const int r = static_cast<int>(l.rect.top());
        l.rect.moveTop(rect.bottom() - line * (rows - r + 0.2));
        out.push_back(l);
    }
}

int SweepCurvesPainter::legendLines(const QRectF& rect) const
{
    std::vector<Label> legend;
    legendLabels(rect, legend);
    double top = rect.bottom();
    for (const Label& l : legend)
        top = std::min(top, l.rect.top());
    return std::max(1, static_cast<int>(std::lround((rect.bottom() - top) / QFontMetricsF(font()).height() - 0.2)));
}

QRectF SweepCurvesPainter::plotRect(const QRectF& rect, int panel) const
{
    const double line = QFontMetricsF(font()).height(), gap = fontPx_ * 2.0;
    const double legend = line * (0.6 + legendLines(rect));
    const double w = (rect.width() - gap) / 2;
    const QRectF area(rect.left() + panel * (w + gap), rect.top(), w, rect.height() - legend);
    return area.adjusted(fontPx_ * 3.2, line * 1.7, -fontPx_ * 0.8, -line * 1.2);
}

void SweepCurvesPainter::panelLabels(const QRectF& rect, int panel, std::vector<Label>& out) const
{
    const QRectF a = plotRect(rect, panel);
    const QFontMetricsF fm(font()), bold(font(true));
    const double line = fm.height();
    // The title: its longest wording that fits over the panel, the y labels' column included.
    const QStringList titles =
        panel == 0
            ? QStringList{QStringLiteral("Held-out loss (cross-entropy, lower is better)"),
                          QStringLiteral("Held-out loss (lower is better)"), QStringLiteral("Held-out loss")}
            : QStringList{QStringLiteral("Held-out accuracy (share of scored tokens right)"),
                          QStringLiteral("Held-out accuracy (share right)"), QStringLiteral("Held-out accuracy")};
    const QRectF titleRoom(a.left() - fontPx_ * 3.2, a.top() - line * 1.6, a.width() + fontPx_ * 3.2, line);
    QString title = bold.elidedText(titles.back(), Qt::ElideRight, titleRoom.width());
    for (const QString& t : titles)
        if (bold.horizontalAdvance(t) <= titleRoom.width()) {
            title = t;
            break;
        }
    out.push_back({QRectF(titleRoom.topLeft(), QSizeF(bold.horizontalAdvance(title) + 2, line)), title, Label::Title});
    const double yTop = top(panel);
    for (int i = 0; i <= 4; ++i) { // y labels, right-aligned against the axis
        const double v = yTop * i / 4.0, yy = a.bottom() - a.height() * i / 4.0;
        const QString text = tickText(v);
        const double w = fm.horizontalAdvance(text) + 2;
        out.push_back({QRectF(a.left() - fontPx_ * 0.3 - w, yy - line / 2, w, line), text});
    }
    // x labels: the first at the axis' start, the last (with the unit) ending at its end; those between
    // are centred on their step and left out where they would run into a neighbour ("7501000 steps").
    std::vector<Label> ticks(5);
    for (int i = 0; i <= 4; ++i) {
        const double s = static_cast<double>(steps_) * i / 4.0, xx = a.left() + a.width() * i / 4.0;
        const QString text = tickText(std::round(s)) + (i == 4 ? QStringLiteral(" steps") : QString());
        const double w = fm.horizontalAdvance(text) + 2;
        const double left = i == 0 ? xx : i == 4 ? xx - w : xx - w / 2;
        ticks[static_cast<std::size_t>(i)] = {QRectF(left, a.bottom() + 2, w, line), text};
    }
    const double gap = fm.horizontalAdvance(QLatin1Char('0'));
    out.push_back(ticks[0]);
    double shownRight = ticks[0].rect.right();
    for (std::size_t i = 1; i < 4; ++i)
        if (ticks[i].rect.left() >= shownRight + gap && ticks[i].rect.right() + gap <= ticks[4].rect.left()) {
            out.push_back(ticks[i]);
            shownRight = ticks[i].rect.right();
        }
    if (ticks[4].rect.left() >= ticks[0].rect.right() + gap)
        out.push_back(ticks[4]);
}

std::vector<SweepCurvesPainter::Label> SweepCurvesPainter::labels(const QRectF& rect) const
{
    std::vector<Label> out;
    if (series_.empty())
        return out;
    for (int panel = 0; panel < 2; ++panel)
        panelLabels(rect, panel, out);
    legendLabels(rect, out);
    return out;
}

void SweepCurvesPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    p.save();
    p.setFont(font());
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
    const double line = QFontMetricsF(font()).height();
    for (const Label& l : labels(rect)) {
        if (l.series >= 0) { // the series' swatch before its name
            p.setPen(QPen(seriesColor(static_cast<std::size_t>(l.series), style), 3, Qt::SolidLine, Qt::RoundCap));
            const double yy = l.rect.center().y();
            p.drawLine(QPointF(l.rect.left() - line * 1.5, yy), QPointF(l.rect.left() - line * 0.3, yy));
        }
        p.setFont(font(l.role == Label::Title));
        style.drawText(p, l.rect, Qt::AlignLeft | Qt::AlignVCenter, l.text,
                       l.role == Label::Title || l.role == Label::Legend ? style.text : style.muted, style.background);
    }
    p.restore();
}

void SweepCurvesPainter::paintPanel(QPainter& p, const RenderStyle& style, const QRectF& rect, int panel) const
{
    const QRectF a = plotRect(rect, panel);
    const double yTop = top(panel);
    const auto x = [&](double step) { return a.left() + a.width() * step / static_cast<double>(steps_); };
    const auto y = [&](double v) { return a.bottom() - a.height() * std::clamp(v / yTop, 0.0, 1.0); };
    for (int i = 0; i <= 4; ++i) { // the grid; its labels are labels()'
        const double yy = y(yTop * i / 4.0);
        p.setPen(QPen(style.grid, 1));
        p.drawLine(QPointF(a.left(), yy), QPointF(a.right(), yy));
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

} // namespace attnlab::ui
