#include "render/design_layout_painter.h"

#include "render/head_colors.h"
#include "render/number_format.h"
#include "render/text_fit.h"

#include <QFontMetricsF>
#include <QPainterPath>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace attnlab::ui {

namespace {

const QColor kShared(112, 124, 136); // a block no head owns (out_proj.bias): data, like the head colours

QString roleTitle(Role role)
{
    switch (role) {
    case Role::Query: return QStringLiteral("W_query");
    case Role::Key: return QStringLiteral("W_key");
    case Role::Value: return QStringLiteral("W_value");
    case Role::OutProj: return QStringLiteral("out_proj");
    case Role::Mask: return QStringLiteral("mask");
    }
    return {};
}

QString shapeText(const Shape& s)
{
    return QString::fromStdString(shape_to_string(s));
}

QString subtitle(const DesignLayout& d)
{
    if (d.design == Design::Integrated)
        return QStringLiteral("one projection per role, %1 slices of %2").arg(d.num_heads).arg(d.head_width);
    if (d.design == Design::Grouped)
        return QStringLiteral("%1 query heads share %2 key/value heads of %3")
            .arg(d.num_heads)
            .arg(d.config.num_kv_groups)
            .arg(d.head_width);
    return QStringLiteral("%1 complete heads of %2").arg(d.num_heads).arg(d.head_width);
}

} // namespace

DesignLayoutPainter::DesignLayoutPainter(DesignComparison comparison, int fontPx)
    : comparison_(std::move(comparison)), fontPx_(fontPx)
{
}

DesignMetrics DesignLayoutPainter::metrics() const
{
    QFont f;
    f.setPixelSize(fontPx_);
    const double line = QFontMetricsF(f).height();
    DesignMetrics m;
    m.headerHeight = line * 4.4;
    m.footerHeight = line * 6.6;
    m.minBufferLane = line * 3.6;
    m.bufferLabelWidth = fontPx_ * 11.0;
    m.minColumnWidth = fontPx_ * 20.0;
    return m;
}

DesignGeometry DesignLayoutPainter::geometry(const QRectF& rect) const
{
    return layoutDesigns(comparison_, rect, metrics());
}

QColor DesignLayoutPainter::fillColor(const DesignShape& s) const
{
    const int heads = static_cast<int>(comparison_.call.num_heads);
    if (s.head < 0)
        return kShared;
    const QColor c = headColor(s.head, heads);
    if (s.kind == DesignShape::Kind::Slice && s.slicedAxis == 1)
        return mixColors(c, Qt::white, 0.45); // out_proj's columns read head h; they are not head h's own
    if (s.ofBias)
        return c.darker(135);
    return c;
}

void DesignLayoutPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& rs) const
{
    paint(p, layout(rect, p.font()), rs);
}

void DesignLayoutPainter::paint(QPainter& p, const DesignDrawing& drawing, const RenderStyle& rs) const
{
    if (!valid())
        return;
    p.save();
    p.setFont(drawing.font);
    const DesignGeometry& g = drawing.geometry;
    for (const DesignShape& s : g.shapes) {
        if (s.kind == DesignShape::Kind::Unit || s.kind == DesignShape::Kind::Mask)
            continue;
        if (s.kind == DesignShape::Kind::Weight && s.head < 0 && s.role != Role::OutProj)
            continue; // covered entirely by its head slices
        p.fillRect(s.rect, fillColor(s));
        const double thickness = s.slicedAxis == 0 ? s.rect.height() : s.rect.width();
        if (s.kind == DesignShape::Kind::Slice && thickness >= 6 && s.rect.width() >= 6) { // where slices meet
            p.setPen(QPen(Qt::white, 1));
            if (s.slicedAxis == 0)
                p.drawLine(s.rect.topLeft(), s.rect.topRight());
            else
                p.drawLine(s.rect.topLeft(), s.rect.bottomLeft());
        }
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(rs.frame, 1));
    for (const DesignShape& s : g.shapes)
        if ((s.kind == DesignShape::Kind::Weight || s.kind == DesignShape::Kind::Bias) && s.rect.height() >= 4)
            p.drawRect(s.rect);
    for (const DesignRoleLabel& l : drawing.roleLabels)
        rs.drawText(p, l.rect, Qt::AlignHCenter | Qt::AlignBottom, l.label, rs.text, rs.background);
    paintHeadNumbers(p, drawing, rs);
    for (std::size_t c = 0; c < g.columns.size(); ++c) {
        const DesignLayout& d = comparison_.designs[c];
        paintHeader(p, g.columns[c], d, rs);
        paintFooter(p, g.columns[c], d, rs);
        for (const DesignShape& s : g.shapes)
            if (s.kind == DesignShape::Kind::Mask && s.column == c)
                paintMask(p, g.columns[c], s, d, g.scale, rs);
    }
    p.restore();
}

std::vector<DesignRoleLabel> DesignLayoutPainter::placeRoleLabels(const DesignGeometry& g, const QFont& font)
{
    const QFontMetricsF fm(font);
    std::vector<const DesignShape*> labelled; // the first module of each column; the others repeat it
    for (const DesignShape& s : g.shapes)
        if (s.kind == DesignShape::Kind::Weight && s.head <= 0)
            labelled.push_back(&s);
    // Each block's room: half the way to the nearest labelled block's centre in the same row, on either
    // side, so that two neighbours' names can never meet; a lone block may use 60 px on each side.
    const auto sameRow = [](const DesignShape* a, const DesignShape* b) {
        return a->column == b->column && std::abs(a->rect.top() - b->rect.top()) < 1;
    };
    std::vector<double> half(labelled.size(), 60);
    std::vector<std::array<QString, 3>> names(labelled.size()); // whole, "W_q", "Q"
    std::vector<int> level(labelled.size(), 0);
    for (std::size_t i = 0; i < labelled.size(); ++i) {
        const DesignShape* s = labelled[i];
        for (const DesignShape* n : labelled)
            if (n != s && sameRow(n, s))
                half[i] = std::min(half[i], std::abs(n->rect.center().x() - s->rect.center().x()) / 2 - 3);
        half[i] = std::max(half[i], s->rect.width() / 2);
        const QString full = roleTitle(s->role);
        names[i] = {full, s->role == Role::OutProj ? QStringLiteral("out") : full.left(3),
                    s->role == Role::OutProj ? QStringLiteral("O") : full.mid(2, 1).toUpper()};
        while (level[i] < 2 && fm.horizontalAdvance(names[i][static_cast<std::size_t>(level[i])]) > 2 * half[i])
            ++level[i];
    }
    // One row reads alike: where one name had to be shortened, its neighbours are shortened as far.
    std::vector<DesignRoleLabel> out;
    for (std::size_t i = 0; i < labelled.size(); ++i) {
        int rowLevel = level[i];
        for (std::size_t k = 0; k < labelled.size(); ++k)
            if (sameRow(labelled[k], labelled[i]))
                rowLevel = std::max(rowLevel, level[k]);
        const QString& label = names[i][static_cast<std::size_t>(rowLevel)];
        const DesignShape* s = labelled[i];
        const double w = std::min(2 * half[i], fm.horizontalAdvance(label) + 2);
        out.push_back(
            {s->column, QRectF(s->rect.center().x() - w / 2, s->rect.top() - fm.height() - 2, w, fm.height()), label});
    }
    return out;
}

DesignDrawing DesignLayoutPainter::layout(const QRectF& rect, QFont font) const
{
    DesignDrawing drawing;
    font.setPixelSize(fontPx_);
    drawing.font = font;
    if (!valid())
        return drawing;
    drawing.geometry = geometry(rect);
    const DesignGeometry& g = drawing.geometry;
    drawing.roleLabels = placeRoleLabels(g, font);
    // Each head's number on its W_query block (a wrapper head) or row slice (the integrated module),
    // so no one has to tell heads apart by colour alone: inside, in ink that reads on the colour,
    // where it fits; otherwise just left of the block, in the text colour.
    for (const DesignShape& s : g.shapes) {
        const bool own =
            s.kind == DesignShape::Kind::Weight || (s.kind == DesignShape::Kind::Slice && s.slicedAxis == 0);
        if (s.head < 0 || s.role != Role::Query || !own || s.ofBias)
            continue;
        QString label = headShortLabel(s.head);
        QFont f = font;
        f.setBold(true);
        // The largest font that fits inside without covering the middle of the colour; else one that fits
        // inside at all (the K and V blocks beside it still show the colour whole), "h10" or else its number
        // alone, as the shape diagram's stripes; else beside it. Beside a wrapper's block is the previous
        // head's V block, which a label there would cover.
        auto inside = largestFitting(f, std::max(7, fontPx_ - 2), 8, [&](const QFontMetricsF& fm) {
            return fm.height() <= s.rect.height() + 1 && fm.horizontalAdvance(label) + 8 <= s.rect.width() / 2;
        });
        const auto fitsInside = [&](const QString& text) {
            return largestFitting(f, std::max(7, fontPx_ - 2), 9, [&](const QFontMetricsF& fm) {
                return fm.height() <= s.rect.height() - 2 && fm.horizontalAdvance(text) + 4 <= s.rect.width();
            });
        };
        if (!inside)
            inside = fitsInside(label);
        if (!inside) {
            inside = fitsInside(QString::number(s.head));
            if (inside)
                label = QString::number(s.head);
        }
        if (inside)
            f = *inside;
        else // beside it, in type one can read (where neighbours' would overlap, keepBesideLabelsApart thins them),
             // smaller only where the column's edge leaves no room for it ("h11" beside the column's first block)
            for (int px = std::max(9, fontPx_ * 3 / 4); px >= 7; --px) {
                f.setPixelSize(px);
                if (s.rect.left() - 2 - (QFontMetricsF(f).horizontalAdvance(label) + 4) >=
                    g.columns[s.column].column.left() - 1)
                    break;
            }
        const QFontMetricsF fm(f);
        const double w = fm.horizontalAdvance(label) + 4, h = fm.height();
        QRectF text(s.rect.left() + 2, s.rect.center().y() - h / 2, w, h);
        if (!inside) {
            text.moveRight(s.rect.left() - 2);
            if (text.left() < g.columns[s.column].column.left() - 1)
                continue;
        }
        drawing.headLabels.push_back({s.column, s.head, s.rect, text, label, f, inside.has_value(), fillColor(s)});
    }
    keepBesideLabelsApart(drawing.headLabels);
    return drawing;
}

void DesignLayoutPainter::keepBesideLabelsApart(std::vector<DesignHeadLabel>& labels)
{
    // Slices thinner than a line of type (the integrated module's 12 slices in 20 px at 1280 x 720) put their
    // numbers beside them on top of each other, an unreadable smear. Then a column says the first head's and
    // the last's, which give the order, and each one between that still has room, as the shape diagram's
    // stripes do.
    std::map<std::size_t, std::vector<std::size_t>> beside; // per column, in head order
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (!labels[i].inside)
            beside[labels[i].column].push_back(i);
    std::vector<bool> keep(labels.size(), true);
    for (const auto& [column, order] : beside) {
        std::vector<std::size_t> kept{order.front()};
        const auto clear = [&](std::size_t i) {
            for (std::size_t k : kept)
                if (labels[i].text.adjusted(0, 1, 0, -1).intersects(labels[k].text))
                    return false;
            return true;
        };
        if (order.size() > 1 && clear(order.back()))
            kept.push_back(order.back());
        for (std::size_t x = 1; x + 1 < order.size(); ++x)
            if (clear(order[x]))
                kept.push_back(order[x]);
        for (std::size_t i : order)
            keep[i] = std::find(kept.begin(), kept.end(), i) != kept.end();
    }
    std::vector<DesignHeadLabel> out;
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (keep[i])
            out.push_back(labels[i]);
    labels = std::move(out);
}

void DesignLayoutPainter::paintHeadNumbers(QPainter& p, const DesignDrawing& drawing, const RenderStyle& rs) const
{
    p.save();
    for (const HeadLabel& l : drawing.headLabels) {
        p.setFont(l.font);
        if (l.inside)
            rs.drawText(p, l.text, Qt::AlignCenter, l.label, headLabelInk(l.fill), l.fill);
        else
            rs.drawText(p, l.text, Qt::AlignCenter, l.label, rs.text, rs.background);
    }
    p.restore();
}

void DesignLayoutPainter::paintHeader(QPainter& p, const DesignColumn& col, const DesignLayout& d,
                                      const RenderStyle& rs) const
{
    const QFontMetricsF fm(p.font());
    const double line = fm.height();
    QFont bold = p.font();
    bold.setBold(true);
    bold.setPixelSize(fontPx_ + 3);
    p.save();
    p.setFont(bold);
    const QColor bg = rs.background;
    rs.drawText(p, QRectF(col.header.left(), col.header.top(), col.header.width(), line * 1.4),
                Qt::AlignLeft | Qt::AlignVCenter, QString::fromStdString(design_title(d.design)), rs.text, bg);
    const QFont mono = pixelCodeFont(fontPx_ - 2);
    p.setFont(mono);
    const QString call =
        d.exists ? QString::fromStdString(positional_call(d.config)) : QStringLiteral("(cannot be built)");
    rs.drawText(p, QRectF(col.header.left(), col.header.top() + line * 1.4, col.header.width(), line),
                Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetricsF(mono).elidedText(call, Qt::ElideRight, col.header.width()), rs.muted, bg);
    p.restore();
    if (d.exists)
        rs.drawText(p, QRectF(col.header.left(), col.header.top() + line * 2.4, col.header.width(), line),
                    Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(subtitle(d), Qt::ElideRight, col.header.width()),
                    rs.text, bg);
    if (d.exists)
        return;
    // The reason sits where the drawing would be.
    const QRectF box = col.body.adjusted(0, 4, 0, -col.body.height() / 3);
    p.setPen(QPen(rs.differs, 2));
    p.setBrush(rs.differsFill);
    p.drawRoundedRect(box, 6, 6);
    const QColor ink = rs.readable(rs.text, rs.differsFill);
    QFont b = p.font();
    b.setBold(true);
    p.save();
    p.setFont(b);
    rs.drawText(p, box.adjusted(12, 10, -12, 0), Qt::AlignLeft | Qt::AlignTop,
                QStringLiteral("PyTorch cannot build this"), ink, rs.differsFill);
    p.restore();
    rs.drawText(p, box.adjusted(12, 14 + line, -12, -10), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                QString::fromStdString(d.why_not), ink, rs.differsFill);
}

std::vector<DesignFooterLine> DesignLayoutPainter::footerLines(const DesignLayout& d) const
{
    std::vector<DesignFooterLine> lines;
    if (!d.exists)
        return lines;
    std::map<int, std::pair<std::int64_t, const Block*>> roles; // parameters per role, and one of its weights
    bool bias = false;
    for (const Block& b : d.blocks) {
        auto& r = roles[static_cast<int>(b.role)];
        r.first += b.parameters;
        if (!b.is_bias && !r.second)
            r.second = &b;
        bias = bias || (b.is_bias && b.role != Role::OutProj);
    }
    for (const auto& [role, entry] : roles) {
        QString what = roleTitle(static_cast<Role>(role)) + QLatin1Char(' ') + shapeText(entry.second->shape);
        if (d.design != Design::Integrated && d.design != Design::Grouped)
            what = QStringLiteral("%1 × ").arg(d.num_heads) + what;
        if (static_cast<Role>(role) == Role::OutProj || bias)
            what += QStringLiteral(" + bias");
        lines.push_back({what, groupedCount(entry.first), false, false});
    }
    lines.push_back({QStringLiteral("parameters"), groupedCount(d.parameters), true, false});
    const bool trap = d.output_width != comparison_.call.d_out;
    QString width = QStringLiteral("output width %1 = %2 × %3")
                        .arg(groupedCount(d.output_width))
                        .arg(d.num_heads)
                        .arg(groupedCount(d.head_width));
    if (trap)
        width += QStringLiteral(", not %1").arg(groupedCount(comparison_.call.d_out));
    lines.push_back({width, {}, true, trap});
    return lines;
}

void DesignLayoutPainter::paintFooter(QPainter& p, const DesignColumn& col, const DesignLayout& d,
                                      const RenderStyle& rs) const
{
    const QFontMetricsF fm(p.font());
    const double line = fm.height() * 1.05;
    double y = col.footer.top() + 4;
    const QFont plain = p.font();
    QFont bold = plain;
    bold.setBold(true);
    p.save();
    for (const DesignFooterLine& l : footerLines(d)) {
        p.setFont(l.bold ? bold : plain);
        const QColor ink = l.trap ? rs.differs : rs.text;
        p.setPen(ink);
        if (l.bold && !l.right.isEmpty()) { // the total: ruled off from the parts
            p.drawLine(QPointF(col.footer.left(), y + 2), QPointF(col.footer.right(), y + 2));
            y += 4;
        }
        const QRectF r(col.footer.left(), y, col.footer.width(), line);
        const QFontMetricsF lm(p.font()); // a bold line measured in plain type ran past the column
        const double room = r.width() - (l.right.isEmpty() ? 0 : lm.horizontalAdvance(l.right) + 12);
        rs.drawText(p, r, Qt::AlignLeft | Qt::AlignVCenter, lm.elidedText(l.left, Qt::ElideRight, room), ink,
                    rs.background);
        rs.drawText(p, r, Qt::AlignRight | Qt::AlignVCenter, l.right, ink, rs.background);
        y += line;
    }
    p.restore();
}

void DesignLayoutPainter::paintMask(QPainter& p, const DesignColumn& col, const DesignShape& mask,
                                    const DesignLayout& d, double scale, const RenderStyle& rs) const
{
    p.save();
    p.setClipRect(col.buffers);
    const int copies = static_cast<int>(std::min<std::size_t>(d.buffers.size(), 4));
    const double offset = 5;
    for (int i = copies - 1; i >= 0; --i) { // a wrapper holds one per head: drawn as a stack
        const QRectF r = mask.rect.translated(i * offset, i * offset);
        p.setPen(Qt::NoPen);
        p.setBrush(rs.background);
        p.drawRect(r);
        QPainterPath future; // the causal mask's ones: keys after the query
        future.moveTo(r.topLeft());
        future.lineTo(r.topRight());
        future.lineTo(r.bottomRight());
        future.closeSubpath();
        p.setBrush(QBrush(rs.muted, Qt::BDiagPattern));
        p.drawPath(future);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(rs.frame, 1.5, Qt::DashLine));
        p.drawRect(r);
    }
    p.restore();
    const QFontMetricsF fm(p.font());
    const double left = mask.rect.right() + copies * offset + 10;
    const QRectF text(left, col.buffers.top() + 6, col.buffers.right() - left, col.buffers.height() - 6);
    QString label = QStringLiteral("mask %1\nbuffer: 0 parameters").arg(shapeText(d.buffers.front().shape));
    if (d.buffers.size() > 1)
        label += QStringLiteral("\n× %1, one per head").arg(d.buffers.size());
    if (mask.rect.width() < static_cast<double>(d.buffers.front().shape[0]) * scale - 0.5)
        label += QStringLiteral("\n(drawn smaller than scale)");
    rs.drawText(p, text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, label, rs.text, rs.background);
}

} // namespace attnlab::ui
