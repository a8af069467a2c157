#include "render/shape_diagram_painter.h"

#include "render/head_colors.h"

#include <QFontInfo>
#include <QPainterPath>
#include <QPicture>
#include <QRegion>

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

// Each axis keeps one hue in every stage, tinted into the theme's background.
QColor axisFill(const RenderStyle& style, Axis axis)
{
    const double amount = style.highContrast ? 0.0 : (style.dark ? 0.32 : 0.2);
    if (axis == Axis::b)
        return style.tint(QColor(0x5b, 0x7f, 0xb8), amount);
    if (axis == Axis::num_tokens)
        return style.tint(QColor(0x4c, 0xaf, 0x50), amount);
    if (axis == Axis::d_in)
        return style.tint(QColor(0xf0, 0x8a, 0x24), amount);
    return style.tint(QColor(0x2f, 0x8f, 0xe8), amount);
}

QColor inkOf(const RenderStyle& style, ShapeInk ink)
{
    switch (ink) {
    case ShapeInk::Muted: return style.muted;
    case ShapeInk::Moved: return style.moved;
    case ShapeInk::Same: return style.same;
    case ShapeInk::Differs: return style.differs;
    case ShapeInk::Text: break;
    }
    return style.text;
}

void drawText(QPainter& p, const RenderStyle& style, const ShapeText& t, const QColor& ink, const QColor& under)
{
    p.setFont(t.font);
    if (t.atBaseline)
        style.drawText(p, t.rect.topLeft(), t.text, ink, under);
    else
        style.drawText(p, t.rect, t.flags, t.text, ink, under);
}

void drawTexts(QPainter& p, const RenderStyle& style, const std::vector<ShapeText>& texts)
{
    for (const ShapeText& t : texts)
        drawText(p, style, t, inkOf(style, t.ink), style.background);
}

void drawArrow(QPainter& p, QPointF from, QPointF to, const QColor& color, double width)
{
    p.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(from, to);
    const QLineF line(to, from);
    const double a = std::atan2(-line.dy(), line.dx());
    const double len = 6 + width * 2.5;
    QPolygonF head;
    head << to << to + QPointF(std::cos(a + 0.45) * len, -std::sin(a + 0.45) * len)
         << to + QPointF(std::cos(a - 0.45) * len, -std::sin(a - 0.45) * len);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

void drawBlock(QPainter& p, const RenderStyle& style, const ShapeDiagramLayout& l, const ShapeBlock& b)
{
    const double s = l.scale;
    QPainterPath path;
    path.addRoundedRect(b.rect, 7 * s, 7 * s);
    p.save();
    p.setClipPath(path);
    if (b.axis == Axis::head_dim) {
        const int head = b.marks.front().head;
        const QColor fill = headColor(head, l.heads).lighter(125);
        p.fillRect(b.rect, fill);
        p.setFont(b.markFont);
        style.drawText(p, b.marks.front().text, Qt::AlignCenter, b.marks.front().label, headLabelInk(fill), fill);
    } else if (b.striped || b.headColoured) {
        p.setFont(b.markFont);
        for (std::size_t h = 0; h < b.stripes.size(); ++h) {
            const QColor fill = headColor(static_cast<int>(h), l.heads);
            p.fillRect(b.stripes[h], fill);
            if (h >= b.marks.size())
                continue; // too thin to number: the plate names the framed head
            const ShapeHeadMark& m = b.marks[h];
            p.save();
            p.setTransform(m.transform, true);
            style.drawText(p, m.text, Qt::AlignCenter, m.label, headLabelInk(fill), fill);
            p.restore();
        }
        if (l.selectedHead >= 0 && l.selectedHead < l.heads) { // the selected head, as in the heatmaps
            p.setPen(QPen(style.text, 3 * s));
            p.drawRect(b.stripes[static_cast<std::size_t>(l.selectedHead)].adjusted(1, 1, -1, -1));
        }
    } else {
        p.fillRect(b.rect, axisFill(style, b.axis));
    }
    p.restore();
    p.setPen(QPen(style.frame, 1.6 * s));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);

    const bool plated = b.striped || b.headColoured;
    if (plated) {
        p.setBrush(style.panel);
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(b.plate, 4, 4);
    }
    const QColor under = plated ? style.panel : axisFill(style, b.axis);
    const QColor ink = style.readable(style.text, under);
    drawText(p, style, b.name, ink, under);
    drawText(p, style, b.sizeText, ink, under);
    if (b.hasFramed)
        drawText(p, style, b.framed, ink, under);
}

// The followed number's band: hatched in the theme's ink over whatever colour the block has (a head's,
// an axis'), framed solid where the same float lives, dashed on a copy, in the info colour on a source.
void drawFollowMark(QPainter& p, const RenderStyle& style, const ShapeDiagramLayout& l, const ShapeFollowMark& m)
{
    const double s = l.scale;
    const QColor edge = m.kind == ShapeFollowMark::Kind::Source ? style.info : style.text;
    QColor fill = m.kind == ShapeFollowMark::Kind::Source ? style.info : style.moved;
    fill.setAlphaF(0.35);
    p.save();
    // Around the block's name plate, never over it: the axis and its size stay readable.
    QRegion around(m.rect.toAlignedRect());
    for (const ShapeBlock& b : m.previous ? l.before : l.after)
        if (b.dim == m.dim && !b.plate.isEmpty())
            around -= QRegion(b.plate.toAlignedRect());
    p.setClipRegion(around);
    p.fillRect(m.rect, fill);
    p.fillRect(m.rect, QBrush(edge, Qt::BDiagPattern));
    p.setPen(QPen(edge, 3 * s, m.kind == ShapeFollowMark::Kind::Copy ? Qt::DashLine : Qt::SolidLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(m.rect.adjusted(1.5 * s, 1.5 * s, -1.5 * s, -1.5 * s));
    p.restore();
}

} // namespace

ShapeDiagramPainter::ShapeDiagramPainter(const Trace& trace, int stageIndex, int selectedHead)
    : trace_(trace), stageIndex_(stageIndex), stage_(trace.stages.at(static_cast<std::size_t>(stageIndex))),
      head_(selectedHead)
{
}

ShapeDiagramLayout ShapeDiagramPainter::layout(const QRectF& rect, const QFont& type) const
{
    // The drawing grows with its pane and with the type around it (presentation type, zoom): on a
    // projector a diagram at desktop size next to 1.4x labels is the one thing nobody can read. How
    // big it then is depends on the stage (wrapped explanations, a header line more or less, a row
    // of boxes wider than the pane), so each trial layout is drawn into a QPicture, which measures
    // its ink, and shrunk until everything, down to the contiguity badges, fits the pane.
    const QFontInfo info(type);
    const double typeScale = info.pixelSize() > 0 ? info.pixelSize() / 16.0 : 1.0;
    const double start =
        std::clamp(std::max(typeScale, std::min(rect.width() / 1000.0, rect.height() / 470.0)), 0.6, 1.5);
    // The text a student reads is kept at the window's type while the boxes shrink; where even the
    // smallest boxes with that text do not fit the pane, the stage's sentence goes first (on a projector
    // the lessons dock and the formula line say it), and only then does everything shrink together,
    // so the drawing stays whole (smaller than the type, but nothing cut off).
    struct Try {
        double floorPx;
        bool caption;
    };
    const double typePx = info.pixelSize();
    bool fits = false;
    ShapeDiagramLayout l;
    for (const Try t : {Try{typePx, true}, Try{typePx, false}, Try{0.0, true}}) {
        double s = start;
        l = layoutShapeDiagram(trace_, stageIndex_, head_, rect, s, t.floorPx, t.caption);
        for (int attempt = 0; attempt < 8; ++attempt) {
            const QRectF used = ink(l, type);
            const double tall = (used.bottom() - rect.top()) / rect.height();
            const double wide = (used.right() - rect.left()) / rect.width();
            const double over = std::max(tall, wide);
            fits = over <= 1.0;
            if (fits || s <= kMinScale)
                break;
            // Text held at the type does not shrink with s, so the drawing shrinks slower than s does:
            // a step of at least 8% reaches the smallest boxes within the tries instead of stopping
            // a few pixels too tall (a transpose's two rows at 1600x1000 beside the lessons dock).
            s = std::max(kMinScale, std::min(s / over * 0.98, s * 0.92));
            l = layoutShapeDiagram(trace_, stageIndex_, head_, rect, s, t.floorPx, t.caption);
        }
        if (!fits && t.floorPx > 0 && s > kMinScale) { // the tries ran out before the smallest boxes
            l = layoutShapeDiagram(trace_, stageIndex_, head_, rect, kMinScale, t.floorPx, t.caption);
            const QRectF used = ink(l, type);
            fits = used.bottom() <= rect.bottom() && used.right() <= rect.right();
        }
        if (fits)
            break;
    }
    return l;
}

QRectF ShapeDiagramPainter::ink(const ShapeDiagramLayout& l, const QFont& type) const
{
    QPicture trial;
    QPainter tp(&trial);
    tp.setFont(type);
    paint(tp, l, RenderStyle::print()); // the trials are not what the page shows: no contrast log
    tp.end();
    // A picture's bounds leave out text drawn from a baseline (it measured an overlong "expected" line as
    // fitting): each text's own extent counts too.
    QRectF used = trial.boundingRect();
    const auto add = [&used](const ShapeText& t) {
        if (!t.atBaseline || t.text.isEmpty())
            return;
        const QFontMetricsF fm(t.font);
        used |= QRectF(t.rect.left(), t.rect.top() - fm.ascent(), fm.horizontalAdvance(t.text), fm.height());
    };
    for (const auto* texts : {&l.header, &l.notes, &l.dimsBefore, &l.dimsAfter})
        for (const ShapeText& t : *texts)
            add(t);
    return used;
}

double ShapeDiagramPainter::heightAtType(double width, const QFont& type, bool caption) const
{
    const QRectF tall(0, 0, width, 100000);
    const auto l =
        layoutShapeDiagram(trace_, stageIndex_, head_, tall, kMinScale, QFontInfo(type).pixelSize(), caption);
    return ink(l, type).bottom() + 1;
}

void ShapeDiagramPainter::paint(QPainter& p, const QRectF& rect, const RenderStyle& style) const
{
    paint(p, layout(rect, p.font()), style);
}

void ShapeDiagramPainter::paint(QPainter& p, const ShapeDiagramLayout& l, const RenderStyle& style) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    drawTexts(p, style, l.header);
    drawTexts(p, style, l.dimsBefore);
    for (const ShapeBlock& b : l.before)
        drawBlock(p, style, l, b);
    for (const ShapeArrow& a : l.arrows)
        drawArrow(p, a.from, a.to, a.moved ? style.moved : style.muted, a.width);
    drawTexts(p, style, l.dimsAfter);
    for (const ShapeBlock& b : l.after)
        drawBlock(p, style, l, b);
    for (const ShapeFollowMark& m : l.follow)
        drawFollowMark(p, style, l, m);
    drawTexts(p, style, l.notes);
    for (const ShapeBadge& badge : l.badges) {
        QColor fill = style.panel, ink = style.muted;
        switch (badge.kind) {
        case ShapeBadge::Kind::Same:
            fill = style.sameFill;
            ink = style.same;
            break;
        case ShapeBadge::Kind::Warning:
            fill = style.warningFill;
            ink = style.warning;
            break;
        case ShapeBadge::Kind::Info:
            fill = style.infoFill;
            ink = style.info;
            break;
        case ShapeBadge::Kind::Plain: break;
        }
        const QRectF& r = badge.rect;
        p.setFont(badge.text.font);
        p.setPen(QPen(ink, 1.5));
        p.setBrush(fill);
        const double radius = std::min(r.height(), QFontMetricsF(badge.text.font).height() * 1.4) / 2; // a pill, or
        p.drawRoundedRect(r, radius, radius); // a wrapped badge's rounded box
        style.drawText(p, badge.text.rect, badge.text.flags, badge.text.text, ink, fill);
    }
    p.restore();
}

} // namespace attnlab::ui
