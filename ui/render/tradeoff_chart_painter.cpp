#include "render/tradeoff_chart_painter.h"

#include "render/number_format.h"

#include <QFontMetricsF>

#include <algorithm>
#include <array>

namespace attnlab::ui {

namespace {

const QColor kBar(68, 119, 170); // data, like the parts' colours

double part(const ForwardCost& c, int i)
{
    return std::array<double, 4>{c.projections, c.scores, c.context, c.out_proj}[static_cast<std::size_t>(i)];
}

} // namespace

QColor TradeoffChartPainter::partColor(int part)
{
    // Paul Tol's bright scheme: distinct for colour-blind readers, and none of them a head colour.
    static constexpr std::array<QRgb, 4> colors = {0xff4477aa, 0xff66ccee, 0xff228833, 0xffccbb44};
    return QColor::fromRgb(colors[static_cast<std::size_t>(std::clamp(part, 0, 3))]);
}

TradeoffChartPainter::TradeoffChartPainter(HeadTradeoffs tradeoffs, std::int64_t selectedHeads, int fontPx)
    : t_(std::move(tradeoffs)), selected_(selectedHeads), fontPx_(fontPx)
{
}

QRectF TradeoffChartPainter::plotArea(const QRectF& rect) const
{
    const double line = fontPx_ * 1.25;
    return rect.adjusted(fontPx_ * 7.5, 0, -4, -line * 2.4);
}

QRectF TradeoffChartPainter::panelRect(const QRectF& rect, int panel) const
{
    const QRectF a = plotArea(rect);
    const double h = a.height() / 3;
    return QRectF(a.left(), a.top() + panel * h, a.width(), h);
}

QRectF TradeoffChartPainter::columnRect(const QRectF& rect, std::size_t row) const
{
    const QRectF a = plotArea(rect);
    const double w = a.width() / static_cast<double>(std::max<std::size_t>(t_.rows.size(), 1));
    return QRectF(a.left() + static_cast<double>(row) * w, rect.top(), w, rect.height());
}

double TradeoffChartPainter::value(int panel, std::size_t row) const
{
    const HeadOption& o = t_.rows[row];
    return panel == 0 ? static_cast<double>(o.parameters) : panel == 1 ? o.cost.total() : o.score_bytes;
}

double TradeoffChartPainter::panelMax(int panel) const
{
    double m = 0;
    for (std::size_t i = 0; i < t_.rows.size(); ++i)
        m = std::max(m, value(panel, i));
    return m > 0 ? m : 1;
}

QRectF TradeoffChartPainter::barRect(const QRectF& rect, int panel, std::size_t row) const
{
    const QRectF pr = panelRect(rect, panel);
    const QRectF col = columnRect(rect, row);
    const double line = fontPx_ * 1.25;
    const double top = pr.top() + line * 2.6, bottom = pr.bottom() - 6; // title, then room for a value label
    const double h = (bottom - top) * value(panel, row) / panelMax(panel);
    const double w = std::min(col.width() * 0.64, 70.0);
    return QRectF(col.center().x() - w / 2, bottom - h, w, h);
}

std::optional<std::size_t> TradeoffChartPainter::hitTest(const QRectF& rect, QPointF pos) const
{
    if (!plotArea(rect).adjusted(0, 0, 0, fontPx_ * 3.0).contains(pos))
        return std::nullopt;
    for (std::size_t i = 0; i < t_.rows.size(); ++i)
        if (columnRect(rect, i).contains(pos))
            return i;
    return std::nullopt;
}

QStringList TradeoffChartPainter::legendLabels(const QRectF& rect, QFont font) const
{
    if (t_.rows.empty())
        return {};
    font.setPixelSize(fontPx_);
    const QFontMetricsF fm(font);
    const HeadOption* shown = &t_.rows.front();
    std::size_t row = 0;
    for (std::size_t i = 0; i < t_.rows.size(); ++i)
        if (t_.rows[i].num_heads == selected_) {
            shown = &t_.rows[i];
            row = i;
        }
    const double bar = barRect(rect, 1, row).height(), total = std::max(1.0, shown->cost.total());
    const std::array<QString, 4> names = {QStringLiteral("projections Q,K,V"), QStringLiteral("scores Q·Kᵀ"),
                                          QStringLiteral("context A·V"), QStringLiteral("out_proj")};
    // The longest wording whose row fits: the thin parts said as such, then their share alone, then neither.
    for (int wording = 0; wording < 3; ++wording) {
        QStringList labels;
        double width = 0;
        for (int i = 0; i < 4; ++i) {
            const double value = part(shown->cost, i);
            QString label = QStringLiteral("%1 %2").arg(names[static_cast<std::size_t>(i)], shortCount(value));
            if (value > 0 && bar * value / total < 1.0 && wording < 2) {
                const double percent = 100.0 * value / total;
                const QString share = QStringLiteral("%1%").arg(percent, 0, 'f', percent < 0.1 ? 2 : 1);
                label += wording == 0 ? QStringLiteral(", %1: too thin to see").arg(share)
                                      : QStringLiteral(" (%1)").arg(share);
            }
            labels << label;
            width += fm.height() + fm.horizontalAdvance(label) + fm.height();
        }
        if (width <= panelRect(rect, 1).width() || wording == 2)
            return labels;
    }
    return {};
}

void TradeoffChartPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    if (t_.rows.empty())
        return;
    Ink k{style, {}, {}};
    // The current num_heads, marked as the stepper marks the current line; the high-contrast highlight
    // is too strong to write on, so there it is tinted into the background.
    k.band = style.highContrast ? style.tint(style.lineFill, 0.35) : style.lineFill;
    k.ink = style.readable(style.readable(style.text, k.band), style.background);
    p.save();
    QFont font = p.font();
    font.setPixelSize(fontPx_);
    p.setFont(font);
    for (std::size_t i = 0; i < t_.rows.size(); ++i)
        if (t_.rows[i].num_heads == selected_)
            p.fillRect(columnRect(rect, i).adjusted(1, 0, -1, 0), k.band);
    for (int panel = 0; panel < 3; ++panel)
        paintPanel(p, k, rect, panel);
    paintAxis(p, k, rect);
    p.restore();
}

void TradeoffChartPainter::paintPanel(QPainter& p, const Ink& k, const QRectF& rect, int panel) const
{
    const QRectF pr = panelRect(rect, panel);
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    const HeadOption* sel = nullptr;
    for (const HeadOption& o : t_.rows)
        if (o.num_heads == selected_)
            sel = &o;
    const HeadOption& shown = sel ? *sel : t_.rows.front();
    QString title;
    if (panel == 0)
        title = QStringLiteral(
                    "Parameters: %1 for every num_heads — the projections stay d_out wide, only the split changes")
                    .arg(groupedCount(shown.parameters));
    else if (panel == 1)
        title = QStringLiteral("Multiply-adds per forward pass: %1 for every num_heads (H · head_dim = d_out)")
                    .arg(shortCount(shown.cost.total()));
    else
        title = QStringLiteral("Attention scores in memory, 4·b·H·T·T bytes: %1 at %2 heads — grows with the heads")
                    .arg(shortBytes(shown.score_bytes))
                    .arg(shown.num_heads);
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    // Titles run across every column, the marked one too: read against both.
    k.style.drawText(p, QRectF(pr.left(), pr.top() + 2, pr.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetricsF(bold).elidedText(title, Qt::ElideRight, pr.width()), k.ink, k.style.background);
    k.style.note(k.ink, k.band, false, title);
    p.restore();
    if (panel == 1) { // legend for the stacked parts
        double x = pr.left();
        const QStringList labels = legendLabels(rect, p.font());
        for (int i = 0; i < 4; ++i) {
            const QString& label = labels[i];
            p.fillRect(QRectF(x, pr.top() + line * 1.35, line * 0.8, line * 0.8), partColor(i));
            k.style.drawText(p, QPointF(x + line, pr.top() + line * 2.05), label, k.ink, k.style.background);
            k.style.note(k.ink, k.band, false, label);
            x += line + fm.horizontalAdvance(label) + line;
        }
    }
    for (std::size_t i = 0; i < t_.rows.size(); ++i) {
        const QRectF bar = barRect(rect, panel, i);
        if (panel == 1) { // stacked from the bottom: projections, scores, context, out_proj
            double bottom = bar.bottom();
            for (int k = 0; k < 4; ++k) {
                const double h = bar.height() * part(t_.rows[i].cost, k) / std::max(1.0, t_.rows[i].cost.total());
                p.fillRect(QRectF(bar.left(), bottom - h, bar.width(), h), partColor(k));
                bottom -= h;
            }
        } else {
            p.fillRect(bar, kBar);
        }
        const bool selected = t_.rows[i].num_heads == selected_;
        const QString v = panel == 2 ? shortBytes(value(2, i)) : QString();
        const QRectF col = columnRect(rect, i);
        if (panel == 2 && (selected || fm.horizontalAdvance(v) < col.width() - 8)) {
            k.style.drawText(p, QRectF(col.left() - 20, bar.top() - line - 1, col.width() + 40, line),
                             Qt::AlignHCenter | Qt::AlignBottom, v, k.ink, selected ? k.band : k.style.background);
        }
    }
    p.setPen(k.style.frame);
    p.drawLine(QPointF(pr.left(), pr.bottom() - 5.5), QPointF(pr.right(), pr.bottom() - 5.5));
}

void TradeoffChartPainter::paintAxis(QPainter& p, const Ink& k, const QRectF& rect) const
{
    const QRectF a = plotArea(rect);
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    QFont bold = p.font();
    bold.setBold(true);
    p.save();
    p.setFont(bold);
    k.style.drawText(p, QRectF(rect.left(), a.bottom() + 4, a.left() - rect.left() - 8, line), Qt::AlignRight,
                     QStringLiteral("num_heads"), k.ink, k.style.background);
    p.restore();
    k.style.drawText(p, QRectF(rect.left(), a.bottom() + 4 + line, a.left() - rect.left() - 8, line), Qt::AlignRight,
                     QStringLiteral("head_dim"), k.ink, k.style.background);
    for (std::size_t i = 0; i < t_.rows.size(); ++i) {
        const QRectF col = columnRect(rect, i);
        const bool selected = t_.rows[i].num_heads == selected_;
        QFont f = p.font();
        f.setBold(selected);
        p.save();
        p.setFont(f);
        const QColor under = selected ? k.band : k.style.background;
        k.style.drawText(p, QRectF(col.left(), a.bottom() + 4, col.width(), line), Qt::AlignHCenter,
                         QString::number(t_.rows[i].num_heads), k.ink, under);
        k.style.drawText(p, QRectF(col.left(), a.bottom() + 4 + line, col.width(), line), Qt::AlignHCenter,
                         QString::number(t_.rows[i].head_dim), k.style.readable(k.style.muted, under), under);
        p.restore();
    }
}

} // namespace attnlab::ui
