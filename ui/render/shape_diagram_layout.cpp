#include "render/shape_diagram_layout.h"

#include "render/head_colors.h"
#include "render/stage_captions.h"

#include <algorithm>
#include <cmath>

namespace attnlab::ui {

namespace {

QString shapeText(const Shape& s)
{
    return QString::fromStdString(shape_to_string(s));
}

QString axesText(const std::vector<Axis>& axes)
{
    return QString::fromStdString(axes_text(axes));
}

struct Builder {
    const Trace& trace;
    const Stage& stage;
    int head;
    int heads;
    QRectF rect;
    double s;
    double typePx; // what the window's text is drawn at: the floor of every text a lesson points at
    bool caption;  // the stage's sentence under its name

    // A text the student reads: its size at this scale, never under the window's type.
    QFont text(double unit, bool bold = false) const { return pixelFont(std::max(unit * s, typePx), bold); }
    double blockHeight() const;
    double strideHeight() const { return 2 * QFontMetricsF(text(13)).height(); }

    double blockWidth(Axis axis, std::int64_t size) const;
    std::vector<ShapeBlock> centred(const std::vector<Axis>& axes, const Shape& shape, double top) const;
    double header(ShapeDiagramLayout& l) const;
    void stripes(ShapeBlock& b) const; // no marks: too narrow to number each
    void dress(ShapeBlock& b, bool dOutStriped) const;
    void dims(const std::vector<ShapeBlock>& row, std::vector<ShapeText>& out) const;
    void footer(ShapeDiagramLayout& l) const;
};

double Builder::blockHeight() const
{
    // Room for the name plate (and a framed head's line) when the type is larger than the boxes.
    return std::max(78 * s, 3 * QFontMetricsF(text(15)).height() + 8);
}

double Builder::blockWidth(Axis axis, std::int64_t size) const
{
    const double name = QFontMetricsF(text(15)).horizontalAdvance(QString::fromStdString(std::string(axis_name(axis))));
    const double value = QFontMetricsF(text(24, true)).horizontalAdvance(QString::number(size));
    const double bySize = (70 + 16 * std::log2(static_cast<double>(std::max<std::int64_t>(size, 1)) + 1)) * s;
    return std::max({name + 24 * s, value + 24 * s, bySize});
}

// A row laid out once to know its width, then centred.
std::vector<ShapeBlock> Builder::centred(const std::vector<Axis>& axes, const Shape& shape, double top) const
{
    std::vector<ShapeBlock> row;
    double x = 0;
    const double gap = 16 * s, h = blockHeight();
    for (std::size_t i = 0; i < axes.size() && i < shape.size(); ++i) {
        const double w = blockWidth(axes[i], shape[i]);
        ShapeBlock b;
        b.axis = axes[i];
        b.size = shape[i];
        b.rect = QRectF(x, top, w, h);
        b.dim = static_cast<int>(i);
        row.push_back(b);
        x += w + gap;
    }
    const double width = row.empty() ? 0 : row.back().rect.right();
    const double dx = rect.left() + std::max(0.0, (rect.width() - width) / 2);
    for (auto& b : row)
        b.rect.translate(dx, 0);
    return row;
}

double Builder::header(ShapeDiagramLayout& l) const
{
    double y = rect.top();
    const QFont title = text(26, true);
    const double th = QFontMetricsF(title).height();
    const QString name = QString::fromStdString(stage.name);
    l.header.push_back({QRectF(rect.left(), y, rect.width(), th), Qt::AlignLeft | Qt::AlignVCenter, name, title});
    const double nameW = QFontMetricsF(title).horizontalAdvance(name);
    l.header.push_back({QRectF(rect.left() + nameW + 16 * s, y, rect.width(), th), Qt::AlignLeft | Qt::AlignVCenter,
                        QStringLiteral("shape ") + shapeText(stage.tensor.shape()), text(22), ShapeInk::Muted});
    y += th + 4 * s;

    if (caption) {
        const QFont captionFont = text(17);
        const QString sentence = stageCaption(stage, trace.config);
        const QRectF bound = QFontMetricsF(captionFont)
                                 .boundingRect(QRectF(rect.left(), y, rect.width(), 1000), Qt::TextWordWrap, sentence);
        l.header.push_back(
            {QRectF(rect.left(), y, rect.width(), bound.height()), Qt::TextWordWrap, sentence, captionFont});
        y += bound.height() + 6 * s;
    }
    const QString formula = shapeOpLabel(trace, stage);
    if (!formula.isEmpty()) {
        const QFont f = text(21, true);
        // Wrapped like the caption: in projector type the transpose's sentence ran past the pane.
        const QRectF line = QFontMetricsF(f).boundingRect(QRectF(rect.left(), y, rect.width(), 1000),
                                                          Qt::AlignLeft | Qt::TextWordWrap, formula);
        l.header.push_back({QRectF(rect.left(), y, rect.width(), line.height()), Qt::AlignLeft | Qt::TextWordWrap,
                            formula, f, ShapeInk::Moved});
        y += line.height() + 4 * s;
    }
    return y;
}

void Builder::stripes(ShapeBlock& b) const
{
    // Each stripe carries its head's number at its foot (the name plate covers the middle): upright
    // where it fits, turned on its side in narrower stripes, and only past ~30 heads not at all.
    const QRectF& r = b.rect;
    const double w = r.width() / heads;
    const QString widest = QString::number(heads - 1);
    QFont font = pixelFont(12 * s, true);
    const bool upright = QFontMetricsF(font).horizontalAdvance(widest) + 4 < w;
    // Sideways, the number must fit across the stripe and in the ~14 px between plate and foot.
    std::optional<QFont> sideways;
    if (!upright)
        sideways = largestFitting(font, static_cast<int>(std::min(12 * s, w - 1)), 7,
                                  [&](const QFontMetricsF& fm) { return fm.horizontalAdvance(widest) + 2 <= 13 * s; });
    if (sideways)
        font = *sideways;
    b.markFont = font;
    const double length = QFontMetricsF(font).horizontalAdvance(widest) + 2;
    for (int h = 0; h < heads; ++h) {
        const QRectF stripe(r.left() + h * w, r.top(), w, r.height());
        b.stripes.push_back(stripe);
        if (upright) {
            const double line = QFontMetricsF(font).height();
            b.marks.push_back(
                {h, QRectF(stripe.left(), stripe.bottom() - 3 - line, stripe.width(), line), {}, QString::number(h)});
        } else if (sideways) {
            QTransform foot; // x runs up the stripe from its foot
            foot.translate(stripe.center().x(), stripe.bottom() - 2);
            foot.rotate(-90);
            b.marks.push_back({h, QRectF(0, -w / 2, length, w), foot, QString::number(h)});
        }
    }
}

// In a short head_dim block (small type on a projector, a narrow pane) the centred plate covered the corner's
// "head N": the plate goes below it where the block is tall enough, else the corner says just N and the plate
// moves right of it where the block is wide enough.
void clearCorner(ShapeBlock& b)
{
    ShapeHeadMark& mark = b.marks.front();
    QRectF& plate = b.plate;
    if (!mark.text.intersects(plate))
        return;
    if (mark.text.bottom() + 1 + plate.height() <= b.rect.bottom() - 1) {
        plate.moveTop(mark.text.bottom() + 1);
        return;
    }
    mark.label = QString::number(mark.head);
    mark.text.setWidth(QFontMetricsF(b.markFont).horizontalAdvance(mark.label) + 4);
    if (mark.text.right() + 2 + plate.width() <= b.rect.right() - 2)
        plate.moveLeft(std::max(plate.left(), mark.text.right() + 2));
}

void Builder::dress(ShapeBlock& b, bool dOutStriped) const
{
    b.striped = (b.axis == Axis::num_heads || b.axis == Axis::num_heads_x_d_out) && heads > 1;
    b.headColoured = b.axis == Axis::head_dim || (b.axis == Axis::d_out && heads > 1 && dOutStriped);
    bool stripesNumbered = true;
    if (b.axis == Axis::head_dim) {
        // One head's features, in its colour: its number in the corner, above the name plate.
        const int owner = std::max(head, 0);
        b.markFont = pixelFont(12 * s, true);
        const QFontMetricsF fm(b.markFont);
        b.marks.push_back({owner,
                           QRectF(b.rect.left() + 6 * s, b.rect.top() + 2 * s,
                                  fm.horizontalAdvance(headLabel(owner)) + 4, fm.height()),
                           {},
                           headLabel(owner)});
    } else if (b.striped || b.headColoured) {
        stripes(b);
        stripesNumbered = !b.marks.empty();
    }

    // Name and size, on a light plate where stripes would fight with the text. Stripes too thin to
    // number (dozens of heads) get the framed head's number on the plate instead.
    const bool selectable = head >= 0 && head < heads;
    const QFont nameFont = text(15), sizeFont = text(24, true);
    // Only where it fits the box: in projector type over small boxes it ran into the next box (the frame
    // around the head's stripe still shows which head it is).
    QString framed = !stripesNumbered && selectable ? headLabel(head) + QStringLiteral(" framed") : QString();
    if (!framed.isEmpty() && QFontMetricsF(nameFont).horizontalAdvance(framed) + 12 * s > b.rect.width())
        framed.clear();
    const QString name = QString::fromStdString(std::string(axis_name(b.axis))), size = QString::number(b.size);
    const QFontMetricsF nm(nameFont), sm(sizeFont);
    const double lineName = nm.height(), lineSize = sm.height();
    const double lineFramed = framed.isEmpty() ? 0 : lineName;
    const double textW =
        std::max({nm.horizontalAdvance(name), sm.horizontalAdvance(size), nm.horizontalAdvance(framed)}) + 12 * s;
    b.plate = QRectF(b.rect.center().x() - textW / 2, b.rect.center().y() - (lineName + lineSize + lineFramed) / 2 - 2,
                     textW, lineName + lineSize + lineFramed + 4);
    if (b.axis == Axis::head_dim)
        clearCorner(b);
    const QRectF& plate = b.plate;
    b.name = {QRectF(plate.left(), plate.top() + 2, plate.width(), lineName), Qt::AlignCenter, name, nameFont};
    b.sizeText = {QRectF(plate.left(), plate.top() + 2 + lineName, plate.width(), lineSize), Qt::AlignCenter, size,
                  sizeFont};
    b.hasFramed = !framed.isEmpty();
    if (b.hasFramed)
        b.framed = {QRectF(plate.left(), plate.top() + 2 + lineName + lineSize, plate.width(), lineFramed),
                    Qt::AlignCenter, framed, nameFont};
}

void Builder::dims(const std::vector<ShapeBlock>& row, std::vector<ShapeText>& out) const
{
    for (const auto& b : row)
        out.push_back({QRectF(b.rect.left(), b.rect.top() - 18 * s, b.rect.width(), 16 * s), Qt::AlignCenter,
                       QStringLiteral("dim %1").arg(b.dim), pixelFont(12 * s), ShapeInk::Muted});
}

void Builder::footer(ShapeDiagramLayout& l) const
{
    const std::vector<ShapeBlock>& row = l.after;
    const QRectF area(rect.left(), row.front().rect.bottom(), rect.width(), rect.bottom() - row.front().rect.bottom());
    const Tensor& t = stage.tensor;
    const QFont small = text(13);
    for (const auto& b : row)
        if (b.dim >= 0 && b.dim < t.dim()) {
            // Centred under its box on two lines, "stride" over the number: at projector type
            // "stride 12288" on one line is wider than its box "b" and ran into its neighbour's.
            const QString note = QStringLiteral("stride\n%1").arg(t.strides()[static_cast<std::size_t>(b.dim)]);
            const double width =
                std::max(b.rect.width(), std::max(QFontMetricsF(small).horizontalAdvance(note.section('\n', 0, 0)),
                                                  QFontMetricsF(small).horizontalAdvance(note.section('\n', 1))) +
                                             2);
            // Within the pane: under the first box, narrow at projector type, a wider number ran off its left edge.
            const double left =
                std::clamp(b.rect.center().x() - width / 2, area.left(), std::max(area.left(), area.right() - width));
            l.notes.push_back({QRectF(left, b.rect.bottom() + 2 * s, width, strideHeight()), Qt::AlignCenter, note,
                               small, ShapeInk::Muted});
        }

    double y = area.top() + strideHeight() + 16 * s + (l.notes.size() > row.size() ? QFontMetricsF(small).height() : 0);
    const QFont f = text(17);
    const double line = QFontMetricsF(f).height() + 6 * s;
    const bool matches = stage.expected_shape == t.shape();
    // In projector type beside the lessons dock GPT-2's "expected (b, num_tokens, num_heads, head_dim) =
    // (1, 16, 12, 64)" is wider than the pane: a match then says it on the produced line alone (the boxes
    // name the axes), and a mismatch wraps the line at its commas and spaces.
    const QString axes = QStringLiteral("expected  %1").arg(axesText(stage.axes));
    const QString sizes = QStringLiteral(" = %1").arg(shapeText(stage.expected_shape));
    const QString expected = axes + sizes;
    const bool oneLine = QFontMetricsF(f).horizontalAdvance(expected) + 2 <= area.width();
    if (oneLine || matches) { // matching, the boxes name the axes and the line below says "as expected"
        if (oneLine)
            l.notes.push_back(
                {QRectF(QPointF(area.left(), y + line * 0.7), QSizeF(0, 0)), 0, expected, f, ShapeInk::Text, true});
        y += oneLine ? line : 0;
    } else {
        const int flags = Qt::AlignLeft | Qt::TextWordWrap;
        const QRectF r = QFontMetricsF(f).boundingRect(QRectF(area.left(), y, area.width(), 1000), flags, expected);
        l.notes.push_back({QRectF(area.left(), y + 3 * s, area.width(), r.height()), flags, expected, f});
        y += r.height() + 6 * s;
    }
    l.notes.push_back({QRectF(QPointF(area.left(), y + line * 0.7), QSizeF(0, 0)), 0,
                       QStringLiteral("produced  %1  %2")
                           .arg(shapeText(t.shape()), matches ? "✓ as expected" : "✗ differs from the expected shape"),
                       f, matches ? ShapeInk::Same : ShapeInk::Differs, true});
    y += line + 8 * s;

    // Badges: contiguity (the reason contiguous() precedes the final view) and storage sharing.
    double x = area.left(), rowHeight = 0;
    // `brief`: the same fact in fewer words, taken where the whole sentence would need a row of its own.
    auto badge = [&](QString text, ShapeBadge::Kind kind, const QString& brief = QString()) {
        const QFont bf = Builder::text(16, true);
        const QFontMetricsF fm(bf);
        // The next row rather than past the pane's edge, outline included (the painter's 1.5 px pen reaches
        // past the rect: a badge ending on the edge made the whole drawing "too wide" at every smaller scale).
        constexpr double outline = 2;
        if (!brief.isEmpty() && x + fm.horizontalAdvance(text) + 22 * s + outline > area.right())
            text = brief;
        double w = fm.horizontalAdvance(text) + 22 * s;
        double h = fm.height() + 10 * s;
        int flags = Qt::AlignCenter;
        if (w + outline > area.width()) { // wider than the pane on its own (projector type): it wraps
            w = area.width() - outline;
            flags |= Qt::TextWordWrap;
            h = fm.boundingRect(QRectF(0, 0, w - 22 * s, 1000), flags, text).height() + 10 * s;
        }
        if (x > area.left() && x + w + outline > area.right()) {
            x = area.left();
            y += rowHeight + 8 * s;
            rowHeight = 0;
        }
        rowHeight = std::max(rowHeight, h);
        const QRectF r(x, y, w, h);
        l.badges.push_back({r, {r.adjusted(11 * s, 0, -11 * s, 0), flags, text, bf}, kind});
        x += w + 12 * s;
    };
    if (t.is_contiguous())
        badge(QStringLiteral("✓ contiguous"), ShapeBadge::Kind::Same);
    else
        badge(QStringLiteral("⚠ not contiguous: strides out of order"), ShapeBadge::Kind::Warning,
              QStringLiteral("⚠ not contiguous"));
    if (!stage.view_of.empty())
        badge(QStringLiteral("view of %1: shares its storage, no copy").arg(QString::fromStdString(stage.view_of)),
              ShapeBadge::Kind::Info, QStringLiteral("view of %1, no copy").arg(QString::fromStdString(stage.view_of)));
    else
        badge(QStringLiteral("owns new storage"), ShapeBadge::Kind::Plain);
}

} // namespace

const Stage* previousShapeStage(const Trace& trace, const Stage& stage)
{
    return stage.derived_from.empty() ? nullptr : trace.find(stage.derived_from);
}

ShapeOp shapeOp(const Trace& trace, const Stage& stage)
{
    const Stage* prev = previousShapeStage(trace, stage);
    if (!prev)
        return ShapeOp::None;
    switch (stage.layout) { // the stage table says which step it is; nothing is re-derived from the axes
    case LayoutOp::SplitHeads: return ShapeOp::Split;
    case LayoutOp::MergeHeads: return ShapeOp::Merge;
    case LayoutOp::HeadsFirst:
    case LayoutOp::TokensFirst: return ShapeOp::Transpose;
    case LayoutOp::RepeatKv: // a copy with more heads: drawn as the stage it makes, its formula beneath
    case LayoutOp::None: break;
    }
    return ShapeOp::None;
}

QString shapeOpLabel(const Trace& trace, const Stage& stage)
{
    const auto& c = trace.config;
    const bool sharedRole = c.is_grouped() && (stage.role == StageRole::Keys || stage.role == StageRole::Values);
    switch (shapeOp(trace, stage)) {
    case ShapeOp::Split:
        if (sharedRole) // grouped-query attention's keys and values: num_kv_groups heads, not num_heads
            return QStringLiteral("view:  %1 = %2 key/value heads × %3 features each (head_dim)")
                .arg(c.kv_width())
                .arg(c.num_kv_groups)
                .arg(c.head_dim());
        return QStringLiteral("view:  d_out %1 = %2 heads × %3 features each (head_dim)")
            .arg(c.d_out)
            .arg(c.num_heads)
            .arg(c.head_dim());
    case ShapeOp::Merge:
        return QStringLiteral("contiguous().view:  %1 heads × %2 features = d_out %3")
            .arg(c.num_heads)
            .arg(c.head_dim())
            .arg(c.d_out);
    case ShapeOp::Transpose:
        return QStringLiteral("transpose(1, 2):  dims 1 and 2 trade places; the data stays where it is");
    case ShapeOp::None: break;
    }
    return stageFormula(stage, c);
}

ShapeDiagramLayout layoutShapeDiagram(const Trace& trace, int stageIndex, int selectedHead, const QRectF& rect,
                                      double s, double typePx, bool caption)
{
    const Stage& stage = trace.stages.at(static_cast<std::size_t>(stageIndex));
    const int heads = head_count(trace.config);
    const Builder b{trace, stage, selectedHead, heads, rect, s, typePx, caption};
    const double h = b.blockHeight();
    ShapeDiagramLayout l;
    l.rect = rect;
    l.scale = s;
    l.stage = stageIndex;
    l.selectedHead = selectedHead;
    l.heads = heads;
    const double y = b.header(l) + 22 * s;

    const ShapeOp kind = shapeOp(trace, stage);
    const Stage* prev = previousShapeStage(trace, stage);
    const bool square = stage.axes.size() >= 2 && stage.axes.back() == Axis::num_tokens &&
                        stage.axes[stage.axes.size() - 2] == Axis::num_tokens;
    const double gapRows = 92 * s;
    if (kind == ShapeOp::None || !prev) {
        l.after = b.centred(stage.axes, stage.tensor.shape(), y);
    } else {
        const bool split = kind == ShapeOp::Split;
        const Stage& wide = split ? stage : *prev;   // the row with num_heads and head_dim
        const Stage& narrow = split ? *prev : stage; // the row with d_out
        const double wideTop = split ? y + h + gapRows : y;
        auto wideRow = b.centred(wide.axes, wide.tensor.shape(), kind == ShapeOp::Transpose ? y : wideTop);
        std::vector<ShapeBlock> other;
        if (kind == ShapeOp::Transpose) {
            other = b.centred(stage.axes, stage.tensor.shape(), y + h + gapRows);
        } else {
            const double top = split ? y : y + h + gapRows;
            for (std::size_t i = 0; i < narrow.axes.size(); ++i) {
                ShapeBlock n;
                n.axis = narrow.axes[i];
                n.size = narrow.tensor.shape()[i];
                n.dim = static_cast<int>(i);
                for (const auto& w : wideRow)
                    if (w.axis == n.axis)
                        n.rect = QRectF(w.rect.left(), top, w.rect.width(), w.rect.height());
                if (n.axis == Axis::d_out) {
                    const QRectF* hr = nullptr;
                    const QRectF* dr = nullptr;
                    for (const auto& w : wideRow) {
                        if (w.axis == Axis::num_heads)
                            hr = &w.rect;
                        if (w.axis == Axis::head_dim)
                            dr = &w.rect;
                    }
                    if (hr && dr)
                        n.rect = QRectF(hr->left(), top, dr->right() - hr->left(), hr->height());
                }
                other.push_back(n);
            }
        }
        l.before = kind == ShapeOp::Transpose ? wideRow : (split ? other : wideRow);
        l.after = kind == ShapeOp::Transpose ? other : (split ? wideRow : other);
        b.dims(l.before, l.dimsBefore);
        for (auto& blk : l.before) {
            blk.previous = true;
            b.dress(blk, true);
        }
        // Connectors: which axis of the previous stage went where.
        if (kind == ShapeOp::Transpose) {
            for (const auto& from : l.before)
                for (const auto& to : l.after)
                    if (to.axis == from.axis) {
                        const bool moved = to.dim != from.dim;
                        l.arrows.push_back({QPointF(from.rect.center().x(), from.rect.bottom() + 4 * s),
                                            QPointF(to.rect.center().x(), to.rect.top() - 20 * s), moved,
                                            (moved ? 4 : 2) * s});
                    }
        } else {
            const ShapeBlock* d = nullptr;
            for (const auto& blk : (split ? l.before : l.after))
                if (blk.axis == Axis::d_out)
                    d = &blk;
            for (const auto& w : (split ? l.after : l.before)) {
                if (!d || (w.axis != Axis::num_heads && w.axis != Axis::head_dim))
                    continue;
                if (split)
                    l.arrows.push_back({QPointF(w.rect.center().x(), d->rect.bottom() + 4 * s),
                                        QPointF(w.rect.center().x(), w.rect.top() - 20 * s), true, 4 * s});
                else
                    l.arrows.push_back({QPointF(w.rect.center().x(), w.rect.bottom() + 4 * s),
                                        QPointF(w.rect.center().x(), d->rect.top() - 20 * s), true, 4 * s});
            }
        }
    }
    b.dims(l.after, l.dimsAfter);
    for (auto& blk : l.after)
        b.dress(blk, stage.layout == LayoutOp::MergeHeads);
    if (square && l.after.size() >= 2) { // which num_tokens is which
        const QString names[2] = {QStringLiteral("(queries)"), QStringLiteral("(keys)")};
        for (int i = 0; i < 2; ++i) {
            const QRectF& r = l.after[l.after.size() - 2 + static_cast<std::size_t>(i)].rect;
            l.notes.push_back({QRectF(r.left(), r.bottom() + 4 * s + b.strideHeight(), r.width(),
                                      QFontMetricsF(b.text(13, true)).height()),
                               Qt::AlignCenter, names[i], b.text(13, true), ShapeInk::Muted});
        }
    }
    if (!l.after.empty())
        b.footer(l);
    return l;
}

std::vector<ShapeHeadLabel> ShapeDiagramLayout::headLabels() const
{
    std::vector<ShapeHeadLabel> labels;
    for (const auto* row : {&before, &after})
        for (const ShapeBlock& b : *row) {
            for (const ShapeHeadMark& m : b.marks) {
                const bool corner = b.axis == Axis::head_dim;
                const QRectF swatch = corner ? b.rect : b.stripes[static_cast<std::size_t>(m.head)];
                labels.push_back({m.head, swatch, m.transform.mapRect(m.text), m.label});
            }
            if (b.hasFramed)
                labels.push_back(
                    {selectedHead, b.stripes[static_cast<std::size_t>(selectedHead)], b.framed.rect, b.framed.text});
        }
    return labels;
}

std::int64_t blockCoordinateAt(const ShapeBlock& block, const QPointF& pos)
{
    if (block.size <= 0 || block.rect.width() <= 0)
        return -1;
    const double at = (pos.x() - block.rect.left()) / block.rect.width() * static_cast<double>(block.size);
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(std::max(at, 0.0))), 0, block.size - 1);
}

std::optional<ShapeHit> ShapeDiagramLayout::hitTest(const QPointF& pos) const
{
    for (const auto* row : {&after, &before})
        for (const ShapeBlock& b : *row) {
            if (!b.rect.contains(pos))
                continue;
            ShapeHit hit{ShapeHit::Kind::Block, stage, b.previous, b.dim, b.axis, -1};
            hit.at = blockCoordinateAt(b, pos);
            if (b.axis == Axis::head_dim && !b.marks.empty())
                hit.head = b.marks.front().head;
            for (std::size_t h = 0; h < b.stripes.size(); ++h)
                if (b.stripes[h].contains(pos)) {
                    hit.kind = ShapeHit::Kind::Head;
                    hit.head = static_cast<int>(h);
                }
            return hit;
        }
    return std::nullopt;
}

} // namespace attnlab::ui
